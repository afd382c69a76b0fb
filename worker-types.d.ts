// Module declarations for the non-JS imports that wrangler bundles (see [[rules]] in wrangler.toml).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "*.onnx" {
  const bytes: ArrayBuffer;
  export default bytes;
}
declare module "cloudflare:test" {
  interface ProvidedEnv extends import("./src/env").Env {}
}
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("@cloudflare/vitest-pool-workers/types").D1Migration[];
  }
}
