import type { StoredAttachment } from "../execution/results";

/** Bytes an attachment adds to an inline response beyond its own size (ZIP headers, JSON keys, part headers). */
const PER_ATTACHMENT_OVERHEAD = 512;

/**
 * Keeps attachments within the inline payload cap (spec 8): drops the largest first until the
 * estimate fits. `encodedSize` is what one attachment costs in the chosen mode (base64 is 4/3).
 */
export function fitToCap(
  attachments: StoredAttachment[],
  fixedBytes: number,
  cap: number,
  encodedSize: (size: number) => number,
) {
  const kept = [...attachments].sort((a, b) => a.size - b.size);
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
