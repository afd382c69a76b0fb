// Compares our revision count with qpdf's for every file in ../shared/data/pdf, and checks that
// every earlier version we cut out passes `qpdf --check`. Prints one line per file and a summary;
// exits 1 on any disagreement. Used by test/forensics/pdf-node (Node side) and `npm run eval`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitRevisions } from "../../src/scanner/pdf/revisions";
import { acceptedByQpdf, qpdfCheck, qpdfRevisions } from "./qpdf-revisions.mjs";

export const dataRoot = "../shared/data/pdf/";

export interface CrossCheckRow {
  path: string;
  ours: number;
  qpdf: number;
  qpdfClean: boolean;
  versionsPassingCheck: number;
  versions: number;
  agree: boolean;
  note: string;
}

/** User passwords from SOURCES.tsv notes ("user password 'x'", "U=x" in the name, "empty user password"). */
export function knownPassword(path: string, note: string): string | undefined {
  const quoted = /user password '([^']*)'/.exec(note);
  if (quoted) return quoted[1];
  const named = /U=([^,]+?)(?:,|\.pdf)/.exec(path);
  return named ? named[1] : undefined;
}

export function listFiles(): { path: string; note: string }[] {
  const notes = new Map(
    readFileSync(join(dataRoot, "SOURCES.tsv"), "utf8")
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"))
      .map((c) => [c[0], c[3] ?? ""] as [string, string]),
  );
  return readFileSync(join(dataRoot, "INDEX.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t")[0])
    .map((path) => ({ path, note: notes.get(path) ?? "" }));
}

export function crossCheck(path: string, note: string): CrossCheckRow {
  const bytes = new Uint8Array(readFileSync(join(dataRoot, path)));
  const password = knownPassword(path, note);
  const split = splitRevisions(bytes);
  const q = qpdfRevisions(Buffer.from(bytes), password);
  const dir = mkdtempSync(join(tmpdir(), "pdf-versions-"));
  let passing = 0;
  const earlier = split.revisions.slice(0, -1);
  try {
    for (const r of earlier) {
      const file = join(dir, `rev${r.index}.pdf`);
      writeFileSync(file, bytes.subarray(0, r.end));
      if (acceptedByQpdf(qpdfCheck(file, password))) passing++;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ours = split.revisions.length;
  // Earlier versions of a file qpdf must repair inherit that damage; they are only required to
  // pass `qpdf --check` when the whole file does.
  // Where qpdf must rebuild the xref table of the whole file it has no revision count of its
  // own: we then require at least its clean prefixes and at most one revision per `%%EOF`.
  // Where qpdf cannot decrypt the file at all there is nothing to compare (reported, not hidden).
  const agree = q.unreadable ? true : q.clean ? ours === q.count : ours >= q.count && ours <= q.markers;
  const status = q.unreadable ? "qpdf cannot decrypt" : q.clean ? "" : "qpdf repairs the file";
  return {
    path,
    ours,
    qpdf: q.count,
    qpdfClean: q.clean,
    versionsPassingCheck: passing,
    versions: earlier.length,
    agree,
    note: [status, ...split.problems].filter(Boolean).join("; "),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let bad = 0;
  for (const { path, note } of listFiles()) {
    const row = crossCheck(path, note);
    if (!row.agree || (row.qpdfClean && row.versionsPassingCheck !== row.versions)) bad++;
    console.log(
      [
        row.agree ? "ok " : "BAD",
        row.path,
        `ours=${row.ours}`,
        `qpdf=${row.qpdf}`,
        `versions ok ${row.versionsPassingCheck}/${row.versions}`,
        row.note,
      ].join("\t"),
    );
  }
  console.log(`${bad} disagreements`);
  process.exit(bad ? 1 : 0);
}
