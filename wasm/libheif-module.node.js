// Node (bench and eval scripts through tsx): the same bytes, compiled here.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const path = createRequire(import.meta.url).resolve("libheif-js/libheif-wasm/libheif.wasm");
export default new WebAssembly.Module(readFileSync(path));
