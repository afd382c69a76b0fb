// Sums vitest's "Tests  N passed | M failed | K skipped" lines of a log into one plain line
// "tests: N passed, M failed[, K skipped]" that CI tooling reads.
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2], "utf8").replace(/\x1b\[[0-9;]*m/g, "");
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const line of log.split("\n").filter((l) => /^\s*Tests\s+\d/.test(l))) {
  for (const [, count, kind] of line.matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(count);
}
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
