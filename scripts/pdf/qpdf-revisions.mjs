// Counts the revisions of a PDF the way qpdf sees them, independent of our own parser:
// every `%%EOF` in the raw bytes is a candidate end of a revision; the prefix of the file up to
// that marker is one revision if `qpdf --check` accepts it without warnings or repair (exit 0).
// `%%EOF` inside stream data, the first-page trailer of a linearized file (`startxref 0`) and
// damaged prefixes are rejected by qpdf itself. When qpdf cannot open even the whole file
// cleanly, the count is reported with `clean: false`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function qpdfAvailable() {
  return spawnSync("qpdf", ["--version"]).status === 0;
}

/** Runs `qpdf --check`; status 0 = clean, 3 = warnings (repaired), 2 = errors. */
export function qpdfCheck(path, password) {
  const args = ["--check", ...(password ? [`--password=${password}`] : []), path];
  const run = spawnSync("qpdf", args, { encoding: "utf8", timeout: 30_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * A prefix is a revision when qpdf opens it through its own xref chain: exit 0, or exit 3 with
 * warnings about objects or linearization hints only (those describe content, not where the file
 * ends). Any sign that qpdf had to reconstruct the cross-reference table disqualifies it.
 */
export function acceptedByQpdf({ status, output }) {
  if (status !== 0 && status !== 3) return false;
  return !/file is damaged|reconstruct|can't find startxref|loop detected|xref not found|invalid xref/i.test(output);
}

/** qpdf cannot read the file at all (unsupported encryption, wrong password). */
export function unreadableByQpdf({ status, output }) {
  return status === 2 && /invalid password|unsupported encryption|encryption dictionary/i.test(output);
}

function eofEnds(bytes) {
  const ends = [];
  for (let i = bytes.indexOf("%%EOF"); i >= 0; i = bytes.indexOf("%%EOF", i + 5)) {
    let end = i + 5;
    if (bytes[end] === 0x0d) end++;
    if (bytes[end] === 0x0a) end++;
    ends.push(end);
  }
  return ends;
}

/** Prefixes qpdf accepts; `clean` is false when the whole file needs repair, `markers` counts every `%%EOF`. */
export function qpdfRevisions(buffer, password) {
  const dir = mkdtempSync(join(tmpdir(), "qpdf-rev-"));
  try {
    const ends = [];
    for (const end of eofEnds(buffer)) {
      const file = join(dir, `prefix-${end}.pdf`);
      writeFileSync(file, buffer.subarray(0, end));
      const check = qpdfCheck(file, password);
      if (acceptedByQpdf(check)) ends.push(end);
    }
    const whole = join(dir, "whole.pdf");
    writeFileSync(whole, buffer);
    const check = qpdfCheck(whole, password);
    return {
      count: ends.length,
      ends,
      clean: acceptedByQpdf(check),
      unreadable: unreadableByQpdf(check),
      markers: eofEnds(buffer).length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
