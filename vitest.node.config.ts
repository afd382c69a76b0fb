import { defineConfig } from "vitest/config";

/**
 * Node-side tests: code that must run outside workerd because it spawns processes, e.g. the report
 * PDFs rendered and read back with poppler (pdftoppm, pdftotext), which workerd tests cannot start.
 */
export default defineConfig({
  test: {
    include: ["test/node/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
  },
});
