// Node (bench and eval scripts through tsx): the same bytes, compiled here.
import { readFileSync } from "node:fs";

export default new WebAssembly.Module(readFileSync(new URL("./kernels.wasm", import.meta.url)));
