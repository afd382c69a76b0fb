// Shared helpers of the benches that drive the real service (scripts/bench/intake.bench.mjs,
// scripts/bench/soak.bench.mjs): a snapshot of the tree, `wrangler dev` on a fresh persistence dir
// with the D1 migrations applied, an admin-created account, the spec-7 scanner client (repeats on
// 504/202), workerd RSS polling and ZIPs of real photos. Traffic goes to 127.0.0.1 only.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import { rssMb, workerdPids } from "./workerd-memory.mjs";

export const ADMIN_TOKEN = "bench-admin-token";
export const PHOTOS = "../shared/data/photos";
export const EXIF = "../shared/data/exif-samples/jpg";
export const PDFS = "../shared/data/pdf";

const wranglerEnv = () => ({
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CI: "1",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
});
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Real camera JPEGs of the intake bench: the photos folders and the top level of exif-samples/jpg. */
export function intakePhotos() {
  const files = [];
  for (const dir of ["plasma-workspace-wallpapers", "mate-backgrounds", "opencv-doc"]) {
    for (const name of readdirSync(join(PHOTOS, dir))) if (/\.jpe?g$/i.test(name)) files.push(join(PHOTOS, dir, name));
  }
  for (const name of readdirSync(EXIF)) if (/\.jpe?g$/i.test(name)) files.push(join(EXIF, name));
  return files;
}

/** A stored ZIP of `entries` ({name: bytes}). */
export const storedZip = (entries) =>
  zipSync(
    Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, [new Uint8Array(bytes), { level: 0 }]])),
  );

/** Real camera JPEGs from shared/data, largest first, until the stored ZIP reaches `target` bytes. */
export function photoZip(target) {
  const files = intakePhotos();
  const entries = {};
  let total = 0;
  // Photos are reused in further folders (copy2/…) when the corpus alone is smaller than the target.
  for (let round = 1; round <= 4 && total < target * 0.97; round++) {
    for (const path of files) {
      const bytes = readFileSync(path);
      if (total + bytes.length > target) continue;
      entries[`${round > 1 ? `copy${round}/` : ""}${path.split("/").slice(-2).join("/")}`] = bytes;
      total += bytes.length;
    }
  }
  return { zip: storedZip(entries), files: Object.keys(entries).length };
}

/** Which code a snapshot holds: the commit and the paths that differed from it. */
export function treeInfo(paths = ["src", "migrations", "wrangler.toml", "package.json"]) {
  const git = (...args) => spawnSync("git", args, { encoding: "utf8" }).stdout.trim();
  const dirty = git("status", "--porcelain", "--", ...paths)
    .split("\n")
    .filter(Boolean)
    .map((l) => l.slice(3));
  return { commit: git("rev-parse", "--short", "HEAD"), dirty };
}

/**
 * A snapshot of the Worker in a temp dir: in a shared working tree other edits would make
 * `wrangler dev` reload mid-request. `migrations/` and `wrangler.toml` (Durable Objects, vars)
 * go with `src/`; node_modules, models and wasm are hard-linked copies (same filesystem as the temp dir).
 */
export function snapshot(extra = [], prefix = "service-bench-src-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const item of ["src", "migrations", "wrangler.toml", "package.json", "tsconfig.json", ...extra]) {
    mkdirSync(dirname(join(dir, item)), { recursive: true });
    cpSync(item, join(dir, item), { recursive: true });
  }
  // Hard-linked copies, not symlinks: wrangler's bundler watches every directory it resolved through, so
  // an `npm install` by someone else in the shared node_modules (a new package folder) would reload the
  // Worker mid-run and cut the requests in flight with 503 "Your worker restarted mid-request".
  for (const item of ["node_modules", "models", "wasm"]) {
    if (!existsSync(item)) continue;
    const linked = spawnSync("cp", ["-al", item, join(dir, item)], { encoding: "utf8" });
    if (linked.status !== 0) {
      console.warn(
        `snapshot: cp -al ${item} failed (${linked.stderr.trim()}); symlinking it (a change there reloads the Worker)`,
      );
      rmSync(join(dir, item), { recursive: true, force: true });
      symlinkSync(join(process.cwd(), item), join(dir, item));
    }
  }
  return dir;
}

/**
 * wrangler's dev proxy (ProxyWorker.js) answers 503 "Your worker restarted mid-request" whenever its
 * fetch to the Worker fails for a non-GET request outside `/` (it compares the request's URL, path
 * included, with the Worker's bare origin), hiding the real error. This replaces that text, in the
 * snapshot's own copy only (unlinked first: the shared node_modules keeps its file), with the error.
 */
export function exposeProxyErrors(cwd) {
  const file = join(cwd, "node_modules/wrangler/wrangler-dist/ProxyWorker.js");
  const text = readFileSync(file, "utf8");
  const original =
    '"Your worker restarted mid-request. Please try sending the request again. Only GET or HEAD requests are retried automatically."';
  if (!text.includes(original)) return false;
  rmSync(file);
  writeFileSync(
    file,
    text.replace(
      original,
      '"wrangler proxy: fetch to the Worker failed: " + String((error && error.stack) || error) + (error && error.cause ? " cause: " + String(error.cause) : "")',
    ),
  );
  return true;
}

/**
 * Starts `wrangler dev` on 127.0.0.1:`port` in `cwd` (its own process group) and resolves once
 * `probePath` answers. Every output line goes to `logFile` (if given) and to `lines` with its time.
 */
export async function startWrangler({ cwd, persist, port, args = [], probePath = "/", logFile = null }) {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    "npx",
    ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persist, ...args],
    { cwd, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const out = logFile ? createWriteStream(logFile) : null;
  const lines = [];
  const take = (stream) => {
    let rest = "";
    stream.on("data", (chunk) => {
      rest += chunk;
      const parts = rest.split("\n");
      rest = parts.pop();
      for (const text of parts) {
        const line = { t: Date.now(), text };
        lines.push(line);
        out?.write(`${new Date(line.t).toISOString()} ${text}\n`);
      }
    });
  };
  take(child.stdout);
  take(child.stderr);
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));
  const server = {
    base,
    pid: child.pid,
    lines,
    stop: async () => {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      for (let i = 0; i < 50 && !exited; i++) await sleep(100);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      await sleep(500);
      out?.end();
    },
  };
  for (let i = 0; ; i++) {
    if (exited || i >= 180) {
      await server.stop();
      throw new Error(
        `wrangler dev did not come up (${exited ? `exited ${exited.code ?? exited.signal}` : "timeout"}):\n${lines
          .slice(-40)
          .map((l) => l.text)
          .join("\n")}`,
      );
    }
    try {
      await fetch(`${base}${probePath}`);
      return server;
    } catch {}
    await sleep(1000);
  }
}

/** Applies the D1 migrations to a fresh persistence dir of the snapshot. */
export function applyMigrations(cwd, persist) {
  const migrate = spawnSync(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
    { cwd, env: wranglerEnv(), encoding: "utf8" },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
}

/** The real service (wrangler.toml of the snapshot, default settings) with an admin token and signing secret. */
export async function startService({ cwd, persist, port, vars = {}, logFile = null }) {
  applyMigrations(cwd, persist);
  const base = `http://127.0.0.1:${port}`;
  const all = { PUBLIC_BASE_URL: base, ADMIN_TOKEN, SIGNING_SECRET: "bench-signing-secret-0123456789abcdef", ...vars };
  return startWrangler({
    cwd,
    persist,
    port,
    args: Object.entries(all).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    probePath: "/openapi.json",
    logFile,
  });
}

export async function expectOk(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** A new account through the admin API; returns its API key. */
export async function createAccount(base, name = "Bench") {
  const account = await expectOk(
    await fetch(`${base}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name, communicationMode: "eigenversand" }),
    }),
    "account",
  );
  return account.apiKey;
}

/**
 * Runs `fn` while polling the workerd RSS below `root` every `intervalMs` (the pid list is looked
 * up afresh every second: workerd may restart); returns its result, the time and the peak in MB.
 */
export async function measured(root, fn, intervalMs = 10) {
  let pids = workerdPids(root);
  let pidsAt = Date.now();
  let peak = rssMb(pids);
  const poll = setInterval(() => {
    if (Date.now() - pidsAt > 1000) (pids = workerdPids(root)), (pidsAt = Date.now());
    peak = Math.max(peak, rssMb(pids));
  }, intervalMs);
  const started = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - started, peakMb: peak };
  } finally {
    clearInterval(poll);
  }
}

let caseCounter = 0;
export const caseNumber = (prefix = "BENCH") => `${prefix}-${Date.now()}-${++caseCounter}`;

/**
 * POST /v2/scanner as a client following spec 7 would: on 504 or 202 send the identical request
 * again until the result comes. `pauseMs(res)` is the wait before a repeat (default 2 s instead of
 * Retry-After); `giveUpMs` bounds the whole exchange. Without `tolerate`, any other non-200 throws.
 * Returns the result (or the final non-200 answer), how many 504/202 came first, the first answer's
 * status and time, and the time until the last answer.
 */
export async function scanner(
  base,
  key,
  cn,
  request,
  { pauseMs = () => 2000, giveUpMs = Infinity, tolerate = false } = {},
) {
  const started = performance.now();
  const answers = [];
  let first = null;
  for (;;) {
    const sent = performance.now();
    let res;
    try {
      res = await fetch(`${base}/v2/scanner${request.query ?? ""}`, {
        method: "POST",
        headers: { "x-api-key": key, caseNumber: cn, accept: "application/json" },
        ...(Number.isFinite(giveUpMs)
          ? { signal: AbortSignal.timeout(Math.max(1000, Math.round(giveUpMs - (sent - started)))) }
          : {}),
        ...request.init(),
      });
    } catch (err) {
      if (!tolerate) throw err;
      answers.push("error");
      return {
        status: "error",
        error: String(err),
        answers,
        waits: answers.length - 1,
        first: first ?? { status: "error", ms: performance.now() - sent },
        totalMs: performance.now() - started,
      };
    }
    answers.push(res.status);
    first ??= { status: res.status, ms: performance.now() - sent };
    if (res.status === 504 || res.status === 202) {
      await res.arrayBuffer();
      const pause = pauseMs(res);
      if (performance.now() - started + pause > giveUpMs)
        return { status: "gave-up", answers, waits: answers.length, first, totalMs: performance.now() - started };
      await sleep(pause);
      continue;
    }
    const waits = answers.length - 1;
    if (res.ok)
      return { status: 200, result: await res.json(), answers, waits, first, totalMs: performance.now() - started };
    const body = await res.text();
    if (!tolerate) throw new Error(`scanner: ${res.status} ${body.slice(0, 300)}`);
    return {
      status: res.status,
      body: body.slice(0, 500),
      answers,
      waits,
      first,
      totalMs: performance.now() - started,
    };
  }
}

/** The pause spec 7 asks for: Retry-After (the 504's is 30 s), capped at `capMs`. */
export const retryAfterPause =
  (capMs = 30_000) =>
  (res) =>
    Math.min(capMs, 1000 * (Number(res.headers.get("retry-after")) || 30));

/** A direct upload (multipart part `file`). */
export function direct(base, key, zip, cn = caseNumber(), options) {
  return scanner(
    base,
    key,
    cn,
    {
      init: () => {
        const form = new FormData();
        form.append("file", new Blob([zip], { type: "application/zip" }), "claim.zip");
        return { body: form };
      },
    },
    options,
  );
}

/** The presigned flow: getUploadUrl, PUT, scanner with storage_key; with each step's time. */
export async function presigned(base, key, zip, cn = caseNumber(), options) {
  const t0 = performance.now();
  const { upload_url, storage_key } = await expectOk(
    await fetch(`${base}/v2/getUploadUrl`, { method: "POST", headers: { "x-api-key": key, caseNumber: cn } }),
    "getUploadUrl",
  );
  const t1 = performance.now();
  await expectOk(
    await fetch(upload_url, { method: "PUT", headers: { "content-type": "application/zip" }, body: zip }),
    "PUT",
  );
  const t2 = performance.now();
  const scan = await scanner(base, key, cn, { query: `?storage_key=${storage_key}`, init: () => ({}) }, options);
  return { ...scan, url: t1 - t0, put: t2 - t1, scan: performance.now() - t2 };
}

/** The `{"event":"analysis.…"}` JSON lines among wrangler's output lines. */
export function analysisEvents(lines) {
  const events = [];
  for (const { t, text } of lines) {
    const at = text.indexOf('{"event":"analysis.');
    if (at < 0) continue;
    try {
      events.push({ t, ...JSON.parse(text.slice(at, text.lastIndexOf("}") + 1)) });
    } catch {}
  }
  return events;
}
