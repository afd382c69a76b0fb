// Starts a bench-only Worker with `wrangler dev -c <config>` and waits until it answers
// (any bench Worker answers 404 on /ping). `stop()` ends wrangler and its workerd children.
import { spawn } from "node:child_process";

export async function startBenchWorker(config, port) {
  const wrangler = spawn("npx", ["wrangler", "dev", "-c", config, "--port", String(port), "--ip", "127.0.0.1"], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  wrangler.stdout.on("data", (d) => (log += d));
  wrangler.stderr.on("data", (d) => (log += d));
  const stop = () => {
    try {
      process.kill(-wrangler.pid, "SIGTERM");
    } catch {}
  };
  for (let i = 0; ; i++) {
    if (i > 240) {
      stop();
      throw new Error(`wrangler dev did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ping`)).status === 404) break;
    } catch {}
  }
  return { pid: wrangler.pid, stop };
}
