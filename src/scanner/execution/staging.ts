import { archiveManifest, type ManifestEntry, type ZipSource } from "../intake";
import type { StagedItem } from "./job";

/** The archive's manifest (for the digest) and its files staged in R2 under `prefix`, one at a time. */
export async function stageArchive(
  bucket: R2Bucket,
  source: ZipSource,
  prefix: string,
): Promise<{ manifest: ManifestEntry[]; items: StagedItem[] }> {
  const items: StagedItem[] = [];
  const manifest = await archiveManifest(source, async (item) => {
    if (!item.ok) {
      items.push(item);
      return;
    }
    const { bytes, ...file } = item.file;
    const key = `${prefix}in/${items.length}`;
    await bucket.put(key, bytes);
    items.push({ ok: true, file: { ...file, key } });
  });
  return { manifest, items };
}
