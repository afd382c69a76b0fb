// Module declarations for the non-JS imports that wrangler bundles (see [[rules]] in wrangler.toml).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "*.onnx" {
  const bytes: ArrayBuffer;
  export default bytes;
}

type ServiceEnv = import("./src/env").Env;

// `env` from "cloudflare:test" is Cloudflare.Env: the service's Env plus test-only bindings.
declare namespace Cloudflare {
  interface Env extends ServiceEnv {
    TEST_MIGRATIONS: import("@cloudflare/vitest-pool-workers/types").D1Migration[];
  }
}
