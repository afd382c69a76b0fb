/**
 * Which camera JPEGs of the eval count as untouched, by evidence that does not come from our detectors
 * (issue 17, docs/forensics.md "Image detectors: evaluation"): exiftool's reading of every file, one rule
 * for all of them (never a list of names). A camera photo is untouched when
 *   - EXIF Software names no editor,
 *   - no editor is named in XMP (xmp:CreatorTool, xmpMM:History softwareAgent) or in Photoshop's image
 *     resources (WriterName/ReaderName, which only Photoshop writes),
 *   - and the EXIF pixel dimensions, when the camera recorded them, are the picture's real ones (a
 *     different size means it was cropped or resized after capture).
 * Files that fail the rule are "camera, edited": still evaluated, in their own column.
 */
import { spawnSync } from "node:child_process";
import { editorIn } from "../../src/scanner/images/editors";

/** The exiftool tags the rule reads (`-G1` names, `-n` numbers). */
export const RULE_TAGS = [
  "IFD0:Software",
  "XMP-xmp:CreatorTool",
  "XMP-xmpMM:HistorySoftwareAgent",
  "Photoshop:WriterName",
  "Photoshop:ReaderName",
  "ExifIFD:ExifImageWidth",
  "ExifIFD:ExifImageHeight",
  "File:ImageWidth",
  "File:ImageHeight",
] as const;

export type ExiftoolRecord = Partial<Record<(typeof RULE_TAGS)[number], unknown>> & { SourceFile: string };

/** Why exiftool says the file was edited after capture (empty: untouched by this rule). */
export function editEvidence(r: ExiftoolRecord): string[] {
  const why: string[] = [];
  for (const tag of [
    "IFD0:Software",
    "XMP-xmp:CreatorTool",
    "XMP-xmpMM:HistorySoftwareAgent",
    "Photoshop:WriterName",
    "Photoshop:ReaderName",
  ] as const) {
    const values = ([] as unknown[]).concat(r[tag] ?? []);
    const editor = values.map((v) => editorIn(String(v))).find(Boolean);
    if (editor) why.push(`${tag} "${editor}"`);
  }
  const [ew, eh] = [Number(r["ExifIFD:ExifImageWidth"]), Number(r["ExifIFD:ExifImageHeight"])];
  const [w, h] = [Number(r["File:ImageWidth"]), Number(r["File:ImageHeight"])];
  // 0 or unreadable (e.g. "100 0") EXIF sizes were not recorded by the camera: nothing to compare.
  if (ew > 0 && eh > 0 && Number.isInteger(ew) && Number.isInteger(eh) && (ew !== w || eh !== h))
    why.push(`EXIF size ${ew} × ${eh}, picture ${w} × ${h}`);
  return why;
}

/** exiftool's records for the files (one call); throws when exiftool is missing (Debian libimage-exiftool-perl). */
export function exiftoolRecords(paths: readonly string[]): Map<string, ExiftoolRecord> {
  const run = spawnSync("exiftool", ["-j", "-n", "-G1", "-q", ...RULE_TAGS.map((t) => `-${t}`), ...paths], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (run.error || !run.stdout)
    throw new Error(`exiftool failed (apt-get install libimage-exiftool-perl): ${run.error ?? run.stderr}`);
  const records = JSON.parse(run.stdout) as ExiftoolRecord[];
  return new Map(records.map((r) => [r.SourceFile, r]));
}
