// workerd (wrangler, vitest-pool-workers): libheif's wasm compiled at load time by the CompiledWasm rule.
import libheif from "libheif-js/libheif-wasm/libheif.wasm";

export default libheif;
