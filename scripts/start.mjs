#!/usr/bin/env node
// `npm start`: a working local service in one command (DESIGN "Shape").
// Creates .dev.vars from the example, applies local D1 migrations, seeds a dev account once
// (printing its key), rebuilds the capture page's script on change (scripts/build-browser.mjs),
// then runs `wrangler dev` on PORT (default 8787) and fires the cron on its schedule, because
// `wrangler dev` never fires it by itself.
// `npm run cron` (`node scripts/start.mjs --cron`): fire the cron once against the running dev server.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";

const port = process.env.PORT ?? "8787";
const wrangler = "node_modules/.bin/wrangler";
const baseUrl = `http://127.0.0.1:${port}`;
// The schedules of wrangler.toml [triggers]: src/cron/index.ts picks its jobs by this string.
const crons = JSON.parse(/^crons\s*=\s*(\[.*\])\s*$/m.exec(readFileSync("wrangler.toml", "utf8"))?.[1] ?? "[]");

if (process.argv.includes("--cron")) {
  const target = process.env.BASE_URL ?? baseUrl;
  let failed = false;
  for (const cron of crons) failed = !(await fireCron(target, cron)) || failed;
  process.exit(failed ? 1 : 0);
}

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

const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local"], {
  stdio: "inherit",
  env: { ...process.env, CI: "1" },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

// The pixel kernels (wasm/kernels.wasm), rebuilt when wasm/assembly/ changed (docs/wasm.md).
const wasmBuild = spawnSync(process.execPath, ["scripts/build-wasm.mjs"], { stdio: "inherit" });
if (wasmBuild.status !== 0) process.exit(wasmBuild.status ?? 1);
// The committed bundle of src/pages/capture/browser/, rebuilt on every change (wrangler dev then reloads).
const bundler = spawn(process.execPath, ["scripts/build-browser.mjs", "--watch"], { stdio: "inherit" });
// --test-scheduled also offers /__scheduled and silences wrangler's hint, whose curl (no ?cron=) runs no job here.
const dev = spawn(
  wrangler,
  // DEV_OUTBOX: GET /dev/outbox lists every invitation and reminder with its link (local development only).
  [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    port,
    "--var",
    `PUBLIC_BASE_URL:${baseUrl}`,
    "--var",
    "DEV_OUTBOX:on",
    "--test-scheduled",
  ],
  { stdio: ["inherit", "inherit", "inherit"] },
);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    bundler.kill(signal);
    dev.kill(signal);
  });
dev.on("exit", (code) => {
  bundler.kill();
  process.exit(code ?? 0);
});

await seedOnce();
scheduleCrons();

// Fires every schedule of wrangler.toml like the platform would: at each quarter hour (*/15 * * * *).
function scheduleCrons() {
  const period = 15 * 60 * 1000;
  if (crons.some((cron) => cron !== "*/15 * * * *"))
    console.warn(
      `scripts/start.mjs fires every 15 minutes; wrangler.toml has ${crons.join(", ")}: adjust scheduleCrons`,
    );
  const fire = () => crons.forEach((cron) => fireCron(baseUrl, cron));
  setTimeout(
    () => {
      fire();
      setInterval(fire, period);
    },
    period - (Date.now() % period),
  );
  console.log(`cron ${crons.join(", ")}: fired every 15 minutes while this runs; now: npm run cron`);
}

/** One scheduled event through wrangler dev's trigger endpoint; true when the handler answered ok. */
async function fireCron(target, cron) {
  const url = `${target}/cdn-cgi/handler/scheduled?cron=${cron.replaceAll(" ", "+")}`;
  try {
    const res = await fetch(url);
    const outcome = (await res.text()).trim();
    console.log(`[cron] ${cron}: ${res.status} ${outcome}`);
    return res.ok;
  } catch (err) {
    console.error(
      `[cron] cannot reach ${url}: ${err.cause?.code ?? err.message}. Is npm start running? Set PORT to the port it was started with, or BASE_URL.`,
    );
    return false;
  }
}

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
  console.log(
    `\nready on ${baseUrl}\nseeded dev account ${account.accountId}\ndev API key ${account.apiKey} (also in ${marker})\n`,
  );
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
