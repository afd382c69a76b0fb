import { zipSync, type Zippable } from "fflate";
import { attachmentCategories, type AttachmentCategory } from "../types";

/** Inner ZIP names of spec 4.4 (also the multipart file names, DESIGN §13). */
export const bundleNames: Record<AttachmentCategory, string> = {
  analysis_report: "analysis_report.zip",
  enfsi_report: "enfsi_report.zip",
  heatmaps: "heatmaps.zip",
  thumbnails: "thumbnails.zip",
  downloads: "reverse_search_downloads.zip",
  pdf_versions: "pdf_versions.zip",
  pdf_diffs: "pdf_diffs.zip",
};

/** An attachment with its bytes loaded. */
export interface LoadedAttachment {
  category: AttachmentCategory;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface CategoryBundle {
  category: AttachmentCategory;
  filename: string;
  zip: Uint8Array;
}

/** One ZIP per category that has attachments, in the order of spec 2.6. PNG/PDF are stored, not deflated again. */
export function categoryBundles(attachments: LoadedAttachment[]): CategoryBundle[] {
  return attachmentCategories.flatMap((category) => {
    const mine = attachments.filter((a) => a.category === category);
    if (mine.length === 0) return [];
    const entries: Zippable = {};
    for (const a of mine) entries[a.name] = [a.bytes, { level: 0 }];
    return [{ category, filename: bundleNames[category], zip: zipSync(entries) }];
  });
}

/** `attachments.zip` of the presigned download: the category ZIPs as its entries. */
export function attachmentsZip(bundles: CategoryBundle[]): Uint8Array {
  const entries: Zippable = {};
  for (const b of bundles) entries[b.filename] = [b.zip, { level: 0 }];
  return zipSync(entries);
}
