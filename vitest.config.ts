import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/** Test-only secrets and tighter limits; everything else comes from wrangler.toml. */
export const testBindings = {
  ADMIN_TOKEN: "test-admin-token",
  SIGNING_SECRET: "test-signing-secret-0123456789abcdef0123456789",
  PUBLIC_BASE_URL: "https://capture.test",
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { ...testBindings, TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/browser/**"],
      setupFiles: ["./test/setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
});
