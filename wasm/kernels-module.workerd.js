// workerd (wrangler, vitest-pool-workers): the module compiled at load time by the CompiledWasm rule.
import kernels from "./kernels.wasm";

export default kernels;
