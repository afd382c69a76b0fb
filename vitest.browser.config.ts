import { defineConfig } from "vitest/config";

/**
 * Browser end-to-end tests: run in Node (not workerd), drive Debian's Chromium through
 * playwright-core with a fake camera, against a `wrangler dev` the tests start themselves.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
