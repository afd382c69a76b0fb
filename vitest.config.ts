import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";

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

/**
 * Tests of request rules (headers, uploads, archives, capture API, tenancy): they need real per-file
 * results but no forensics, so they run with the gatekeeper-only analyzer set (ANALYZERS=file-type).
 * Everything else — detectors, models, responses with attachments, execution — runs the real set
 * (also the default for a new test file).
 */
const RULE_TESTS = [
  "test/admin.test.ts",
  "test/auth.test.ts",
  "test/openapi.test.ts",
  "test/case-number.test.ts",
  "test/malformed-bodies.test.ts",
  "test/refused-bodies.test.ts",
  "test/capture/**/*.test.ts",
  "test/board/**/*.test.ts",
  "test/unit/**/*.test.ts",
  "test/scanner/headers.test.ts",
  "test/scanner/intake.test.ts",
  "test/scanner/malformed-zip.test.ts",
  "test/scanner/presigned.test.ts",
  "test/scanner/presigned-r2-s3.test.ts",
  "test/scanner/gate-cleanup.test.ts",
];

/**
 * The rate-limit test runs with tiny limits (the same bindings as wrangler.toml, lower `limit`), so
 * it reaches them in a few requests instead of 600 while other suites keep the real, generous ones.
 */
const RATE_LIMIT_TESTS = ["test/rate-limits.test.ts"];
const tinyRateLimits = {
  API_KEY_RATE_LIMITER: { namespace_id: "19001", simple: { limit: 6, period: 60 as const } },
  CAPTURE_TOKEN_RATE_LIMITER: { namespace_id: "19002", simple: { limit: 3, period: 60 as const } },
};

/**
 * Result pushes to a real HTTP receiver on loopback, started in Node by a global setup: these run with
 * PUSH_TARGETS=any (as `wrangler dev` does), which the other suites must not have.
 */
const PUSH_LOOPBACK_TESTS = ["test/push-loopback/**/*.test.ts"];

/**
 * The queue consumers of wrangler.toml, except that a batch goes out at once instead of after up to `max_batch_timeout`
 * seconds: the notifications a test file queues then run while that file does, not in the next file's runtime (work
 * no test awaits that runs there can break vitest's channel to the pool: `Closing rpc`, README "Tests").
 */
const consumersAtOnce = Object.fromEntries(
  (unstable_readConfig({ config: "./wrangler.toml" }).queues.consumers ?? []).map((c) => [
    c.queue,
    {
      maxBatchSize: c.max_batch_size,
      maxBatchTimeout: 0,
      maxRetries: c.max_retries,
      deadLetterQueue: c.dead_letter_queue,
    },
  ]),
);

/**
 * Test files that measure the isolate itself (how far the wasm memory grew): they need a workerd of their
 * own. Every other file shares its project's workerd with the files run before it (`isolate: false`):
 * starting a fresh one and loading the Worker's module graph again cost ≈ 3.5 s per file, most of the
 * suite's time. Test files therefore make their own accounts and case numbers and reset the clock.
 */
const OWN_ISOLATE_TESTS = [
  "test/forensics/image/wasm-kernels.test.ts",
  "test/forensics/image/wasm-progressive.test.ts",
  "test/forensics/image/wasm-search-kernels.test.ts",
];

/**
 * Dependencies pre-bundled (one module each) for the workerd projects. The pool loads the Worker's whole
 * module graph again for every test file, module by module; zod, drizzle, hono and pdf-lib alone are
 * hundreds of files, which made up most of each file's ≈ 5 s start. wasm-carrying packages (photon,
 * onnxruntime-web, libheif-js) and unpdf's lazily loaded pdf.js stay as they are.
 */
const PREBUNDLED = [
  "zod",
  "drizzle-orm",
  "drizzle-orm/batch",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "hono",
  "hono/cookie",
  "hono/factory",
  "hono/http-exception",
  "hono/utils/http-status",
  "@hono/zod-openapi",
  "pdf-lib",
  "@pdf-lib/fontkit",
  "jose",
  "exifr",
  "fflate",
  "utif2",
  // mimetext's browser build imports babel's core-js helpers: ≈ 190 modules of its own.
  "mimetext/browser",
  "postal-mime",
  "aws4fetch",
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const project = (
    name: string,
    include: string[],
    exclude: string[],
    bindings: Record<string, string>,
    ratelimits?: typeof tinyRateLimits,
    globalSetup: string[] = [],
    isolate = false,
  ) => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ...testBindings, ...bindings, TEST_MIGRATIONS: migrations },
          queueConsumers: consumersAtOnce,
          ...(ratelimits && { ratelimits }),
        },
      }),
    ],
    test: {
      name,
      include,
      // Browser and Node-side tests (vitest.browser.config.ts, vitest.node.config.ts) cannot run in workerd.
      exclude: ["test/browser/**", "test/node/**", ...exclude],
      isolate,
      setupFiles: ["./test/setup.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: PREBUNDLED } } },
      globalSetup,
      // Generous on purpose: CI is a shared 2-core machine, and a test must never fail by the clock
      // (speed is measured by `npm run bench`); a real hang still ends the test after 5 minutes.
      testTimeout: 300_000,
      hookTimeout: 300_000,
    },
  });
  return {
    test: {
      // Each test file runs in its own workerd process, which is busy starting the Worker's module graph
      // most of the time: two files at once keep both cores of the CI machine busy (vitest's default is one).
      maxWorkers: 2,
      // `npm run test:coverage`: statement coverage of src/ (figure in the README).
      // The capture page's browser code runs in Chromium (the browser suite), not in workerd: not counted here.
      coverage: {
        provider: "istanbul" as const,
        include: ["src/**"],
        exclude: ["src/pages/capture/browser/**", "src/pages/board/browser/**", "**/*.bundle.js"],
        reporter: ["text-summary", "json-summary"],
      },
      // The analysis logs one JSON line per file and analyzer (docs/scanner-api.md): too many to print per test.
      onConsoleLog: (log: string) => !log.startsWith('{"event":"analysis.'),
      projects: [
        project("rules", RULE_TESTS, [], { ANALYZERS: "file-type" }),
        project(
          "detectors",
          ["test/**/*.test.ts"],
          [...RULE_TESTS, ...RATE_LIMIT_TESTS, ...PUSH_LOOPBACK_TESTS, ...OWN_ISOLATE_TESTS],
          {},
        ),
        project("own-isolate", OWN_ISOLATE_TESTS, [], {}, undefined, [], true),
        project("rate-limits", RATE_LIMIT_TESTS, [], { ANALYZERS: "file-type" }, tinyRateLimits),
        project("push-loopback", PUSH_LOOPBACK_TESTS, [], { ANALYZERS: "file-type", PUSH_TARGETS: "any" }, undefined, [
          "./test/support/push-receiver.global.ts",
        ]),
      ],
    },
  };
});
