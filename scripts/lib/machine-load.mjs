// The machine's load around a bench run, as the bench sections of docs/benchmarks.md print it.
import { loadavg } from "node:os";

/** Load average over 1 / 5 / 15 minutes, e.g. "0.82 / 1.14 / 1.23". */
export function loadAverage() {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
}

/**
 * What the load before a run says about its times, in words: on the 2-core machine a 1-minute load of 1 or more means
 * other work competed for the cores (times are upper bounds); below it the machine was otherwise quiet.
 */
export function loadNote(before) {
  return Number(before.split(" / ")[0]) >= 1
    ? "other work was running: treat times as upper bounds"
    : "the machine was otherwise quiet";
}
