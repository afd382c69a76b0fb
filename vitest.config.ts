import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/** Test-only secrets and tighter limits; everything else comes from wrangler.toml. */
export const testBindings = {
  ADMIN_TOKEN: "test-admin-token",
  SIGNING_SECRET: "test-signing-secret-0123456789abcdef0123456789",
  PUBLIC_BASE_URL: "https://capture.test",
  // Unset (empty) whatever a developer's .dev.vars holds: tests add R2 S3 credentials per request.
  R2_S3_ACCOUNT_ID: "",
  R2_S3_ENDPOINT: "",
  R2_S3_ACCESS_KEY_ID: "",
  R2_S3_SECRET_ACCESS_KEY: "",
  R2_S3_BUCKET: "",
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
      // The analysis logs one JSON line per file and analyzer (docs/scanner-api.md): too many to print per test.
      onConsoleLog: (log: string) => !log.startsWith('{"event":"analysis.'),
    },
  };
});
