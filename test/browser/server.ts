/**
 * Starts the Worker with `wrangler dev` on a free port and a throw-away persist directory
 * (local D1/R2/DO), applies the migrations, and stops it again. Used by the browser tests only.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ADMIN_TOKEN = "e2e-admin-token";

export interface DevServer {
  base: string;
  /** Reads the local D1 (what the API does not show, e.g. the stored check results). */
  query<T>(sql: string): T[];
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startDevServer(): Promise<DevServer> {
  const port = await freePort();
  const persist = mkdtempSync(join(tmpdir(), "capture-e2e-"));
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" };
  const migrate = spawnSync(
    "npx",
    ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
    { env, encoding: "utf8" },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr || migrate.stdout}`);
  const child: ChildProcess = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persist,
      "--show-interactive-dev-session=false",
      "--var",
      `ADMIN_TOKEN:${ADMIN_TOKEN}`,
      "--var",
      `PUBLIC_BASE_URL:${base}`,
      "--var",
      "SIGNING_SECRET:e2e-signing-secret-0123456789abcdef",
      // wrangler dev's request.cf is a fixed placeholder (Austin, TX), not this machine's location.
      "--var",
      "CAPTURE_NETWORK_LOCATION:off",
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const stop = async () => {
    if (process.env.E2E_SERVER_LOG) console.log(log);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    rmSync(persist, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      // A request reaching a Worker that is still loading may never be answered: give up on it and ask again.
      const res = await fetch(`${base}/c/assets/capture.css`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return { base, stop, query: (sql) => queryD1(persist, sql, env) };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`wrangler dev did not start:\n${log.slice(-3000)}`);
}

/** Tries of a read that finds the database locked by the running server's write (SQLITE_BUSY: transient). */
const BUSY_TRIES = 10;

function queryD1<T>(persist: string, sql: string, env: NodeJS.ProcessEnv): T[] {
  for (let attempt = 1; ; attempt++) {
    const out = spawnSync(
      "npx",
      ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persist, "--json", "--command", sql],
      { env, encoding: "utf8" },
    );
    if (out.status === 0) return (JSON.parse(out.stdout) as { results: T[] }[])[0].results;
    const message = out.stderr || out.stdout;
    if (!message.includes("SQLITE_BUSY") || attempt === BUSY_TRIES) throw new Error(`d1 execute failed: ${message}`);
    // Another process (the dev server) holds the write lock for a moment: wait and read again.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200 * attempt);
  }
}
