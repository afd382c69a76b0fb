// `#libheif-wasm` (package.json "imports"): libheif-js's wasm as a compiled module, in workerd and in Node.
declare const libheif: WebAssembly.Module;
export default libheif;
