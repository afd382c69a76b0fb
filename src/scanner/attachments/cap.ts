import type { StoredAttachment } from "../execution/results";

/** Bytes an attachment adds to an inline response beyond its own size (ZIP headers, JSON keys, part headers). */
const PER_ATTACHMENT_OVERHEAD = 512;

const isReport = (a: StoredAttachment) => a.category === "analysis_report" || a.category === "enfsi_report";

/**
 * Keeps attachments within the inline payload cap (spec 8): drops the largest first until the
 * estimate fits, the report PDFs only when nothing else is left. `encodedSize` is what one attachment costs in the chosen mode (base64 is 4/3).
 */
export function fitToCap(
  attachments: StoredAttachment[],
  fixedBytes: number,
  cap: number,
  encodedSize: (size: number) => number,
) {
  // Ordered so that `pop` drops the largest other attachment first and the reports last: they summarise
  // every file and are what the caller forwards (docs/reports.md).
  const kept = [...attachments].sort((a, b) => Number(isReport(b)) - Number(isReport(a)) || a.size - b.size);
  const dropped: StoredAttachment[] = [];
  const cost = (a: StoredAttachment) => encodedSize(a.size) + a.name.length * 2 + PER_ATTACHMENT_OVERHEAD;
  let total = fixedBytes + kept.reduce((sum, a) => sum + cost(a), 0);
  while (total > cap && kept.length > 0) {
    const largest = kept.pop()!;
    dropped.push(largest);
    total -= cost(largest);
  }
  const order = new Map(attachments.map((a, i) => [a, i]));
  kept.sort((a, b) => order.get(a)! - order.get(b)!);
  return { kept, dropped, truncated: dropped.length > 0 };
}

export const base64Size = (size: number) => Math.ceil(size / 3) * 4;
