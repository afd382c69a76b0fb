import { latin1Slice } from "./bytes";
import type { ObjectChange } from "./changes";
import type { Revision } from "./revisions";
import { objectHeaderAt, type XrefEntry, xrefEntries } from "./xref-entries";

/** Xref-level findings reported per revision at most (the rest are counted in the detail of the last). */
const MAX_REPORTED = 20;

/**
 * What revision `index`'s own cross-reference section says, against the chain before it. An update
 * may define objects in its appended bytes; it may not free an object the signed version had, point
 * an object back at another body inside the signed bytes (a shadow copy), or at bytes that are not
 * that object. pdf-lib never reads xref tables, so these are checked here (pyHanko: rejected object
 * freeing, "hybrid sneaky edit").
 */
export function xrefChanges(bytes: Uint8Array, revisions: Revision[], index: number): ObjectChange[] {
  const current = mergedEntries(bytes, revisions.slice(index - 1, index));
  if (current.size === 0) return [];
  const earlier = mergedEntries(bytes, revisions.slice(0, index - 1));
  const signedEnd = revisions[index - 2].end;
  const out: ObjectChange[] = [];
  const flag = (num: number, detail: string) =>
    out.push({ ref: `${num} 0 R`, kind: "xref", allowed: false, added: false, needs: null, detail });
  for (const [num, entry] of current) {
    if (num === 0 || out.length >= MAX_REPORTED) continue;
    const before = earlier.get(num);
    if (entry.type === "free") {
      if (before && before.type !== "free") flag(num, `object ${num} of the signed version was freed`);
    } else if (entry.type === "offset") {
      if (entry.offset >= signedEnd) {
        if (!objectHeaderAt(bytes, entry.offset, num))
          flag(num, `the xref entry of object ${num} points to bytes that are not object ${num}`);
      } else if (!(before?.type === "offset" && before.offset === entry.offset))
        flag(num, `the xref entry of object ${num} points back into the signed bytes, not at its signed version`);
    } else {
      const stream = current.get(entry.stream);
      const newStream = stream?.type === "offset" && stream.offset >= signedEnd;
      const same = before?.type === "compressed" && before.stream === entry.stream && before.index === entry.index;
      if (!newStream && !same)
        flag(num, `object ${num} was moved into object stream ${entry.stream} of the signed bytes`);
    }
  }
  for (const num of definedTwice(bytes, signedEnd, revisions[index - 1].end))
    if (out.length < MAX_REPORTED)
      flag(num, `object ${num} is defined twice in this update: readers follow the xref, pdf-lib takes the last copy`);
  return out;
}

/** Object numbers with two `N G obj` headers in one update's bytes (pdf-lib and a viewer may each see another). */
function definedTwice(bytes: Uint8Array, from: number, to: number): number[] {
  const seen = new Set<number>();
  const twice = new Set<number>();
  const text = latin1Slice(bytes, from, to);
  for (const m of text.matchAll(/(?:^|[\r\n])\s*(\d+)\s+\d+\s+obj\b/g)) {
    const num = Number(m[1]);
    if (seen.has(num)) twice.add(num);
    seen.add(num);
  }
  return [...twice];
}

/** Entries of these revisions' sections, newest winning (a revision's own chain is newest first). */
export function mergedEntries(bytes: Uint8Array, revisions: Revision[]): Map<number, XrefEntry> {
  const merged = new Map<number, XrefEntry>();
  for (const r of revisions)
    for (const section of [...r.sections].reverse())
      for (const [num, entry] of xrefEntries(bytes, section)) merged.set(num, entry);
  return merged;
}
