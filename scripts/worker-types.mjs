// The service's Env as `wrangler types` generates it from wrangler.toml (bindings and vars; secrets and
// optional settings are declared in src/env.ts, so .dev.vars never changes the output).
//   node scripts/worker-types.mjs           write worker-configuration.d.ts (npm run types)
//   node scripts/worker-types.mjs --check   generate beside it and compare; exit 1 when stale (npm run typecheck)
// `wrangler types --check` is not used: it reads .dev.vars, so it fails on every machine that has one.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";

const TARGET = "worker-configuration.d.ts";
const generate = (path) =>
  execFileSync(
    "npx",
    ["wrangler", "types", path, "--include-runtime=false", "--strict-vars=false", "--env-file", "/dev/null"],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
// The header names the command and its output path; everything after it must match.
const body = (path) => readFileSync(path, "utf8").split("\n").slice(2).join("\n");

if (process.argv.includes("--check")) {
  const fresh = ".worker-configuration.check.d.ts";
  try {
    generate(fresh);
    if (body(fresh) !== body(TARGET)) {
      console.error(`${TARGET} is stale: wrangler.toml changed. Run \`npm run types\` and commit the result.`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(fresh, { force: true });
  }
} else {
  generate(TARGET);
}
