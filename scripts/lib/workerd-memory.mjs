// Resident memory of the workerd processes a `wrangler dev` started (Linux /proc; reads only).
import { readFileSync, readdirSync } from "node:fs";

/** Descendant pids of `root`. */
function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const out = [];
  const queue = [root];
  while (queue.length) for (const c of children.get(queue.shift()) ?? []) out.push(c), queue.push(c);
  return out;
}

/** The workerd processes below `root` (wrangler's pid); the one running the Worker is the largest. */
export function workerdPids(root) {
  return descendants(root).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd");
    } catch {
      return false;
    }
  });
}

/** The largest VmRSS among `pids`, in MB. */
export function rssMb(pids) {
  let max = 0;
  for (const pid of pids) {
    try {
      max = Math.max(max, Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024);
    } catch {}
  }
  return max;
}

/** The largest workerd VmRSS below `root`, looked up afresh (workerd may restart). */
export const workerdRssMb = (root) => rssMb(workerdPids(root));
