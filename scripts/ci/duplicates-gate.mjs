// CI gate for repeated code (issue 12): runs the `duplicates` tool over the tree and fails when a pair of
// files shares a non-boilerplate run of 6+ lines that .ci/duplicates-allowed.txt does not list. Pairs are
// keyed by their two files (line numbers move with every edit). Each allowed pair says why it stays.
// Where the tool is not installed, the gate says so and passes: it is a development tool, not a dependency.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const ALLOWED = ".ci/duplicates-allowed.txt";

function run() {
  try {
    return execFileSync("duplicates", ["--most", "200", "--seconds", "120"], { encoding: "utf8" });
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
}

/** "a ~ b" with the two files in a stable order, from a row like `D3 a.ts:1-9 ~ b.ts:4-12 shape (+2 more runs)`. */
function pairKey(row) {
  const match = row.match(/^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+/);
  return match ? [match[1], match[2]].sort().join(" ~ ") : null;
}

const output = run();
if (output === null) {
  console.log("duplicates: the tool is not installed on this machine; gate skipped");
} else {
  const allowed = new Set(
    readFileSync(ALLOWED, "utf8")
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean)
      .map((line) =>
        line
          .split(/\s*~\s*/)
          .sort()
          .join(" ~ "),
      ),
  );
  const rows = output.split("\n").filter((line) => /^D\d+ /.test(line) && !/\bboilerplate\b/.test(line));
  const fresh = rows.filter((row) => !allowed.has(pairKey(row)));
  if (fresh.length > 0) {
    console.error(`duplicates: ${fresh.length} new pair(s) of repeated code; fold them into one place or, when`);
    console.error(`the repetition is deliberate, add the pair with its reason to ${ALLOWED}:`);
    for (const row of fresh) console.error(`  ${row}`);
    process.exitCode = 1;
  } else {
    console.log(`duplicates: no new pairs (${rows.length} known, each listed with its reason in ${ALLOWED})`);
  }
}
