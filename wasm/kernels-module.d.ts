// `#wasm-kernels` (package.json "imports"): wasm/kernels.wasm as a compiled module, in workerd and in Node.
declare const kernels: WebAssembly.Module;
export default kernels;
