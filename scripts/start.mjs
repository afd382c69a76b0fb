#!/usr/bin/env node
// `npm start`: a working local service in one command (DESIGN "Shape").
// Creates .dev.vars from the example, applies local D1 migrations, seeds a dev account once
// (printing its key), then runs `wrangler dev` on PORT (default 8787).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";

const port = process.env.PORT ?? "8787";
const wrangler = "node_modules/.bin/wrangler";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("created .dev.vars from .dev.vars.example");
}
const devVars = Object.fromEntries(
  readFileSync(".dev.vars", "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
);

const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local"], { stdio: "inherit", env: { ...process.env, CI: "1" } });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const baseUrl = `http://127.0.0.1:${port}`;
const dev = spawn(wrangler, ["dev", "--ip", "127.0.0.1", "--port", port, "--var", `PUBLIC_BASE_URL:${baseUrl}`], { stdio: ["inherit", "inherit", "inherit"] });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));

await seedOnce();

async function seedOnce() {
  if (!(await serverUp())) return console.error("the dev server did not come up within 90 s; account not seeded");
  const marker = ".wrangler/dev-account.json";
  if (existsSync(marker)) {
    const { accountId, apiKey } = JSON.parse(readFileSync(marker, "utf8"));
    return console.log(`\nready on ${baseUrl}\ndev account ${accountId}\ndev API key ${apiKey}\n`);
  }
  const res = await fetch(`${baseUrl}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${devVars.ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Dev Insurer", communicationMode: "eigenversand", features: { resultCache: true } }),
  });
  if (res.status !== 201) return console.error(`seeding failed: ${res.status} ${await res.text()}`);
  const account = await res.json();
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(marker, JSON.stringify(account));
  console.log(`\nready on ${baseUrl}\nseeded dev account ${account.accountId}\ndev API key ${account.apiKey} (also in ${marker})\n`);
}

async function serverUp() {
  for (let attempt = 0; attempt < 90; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/openapi.json`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}
