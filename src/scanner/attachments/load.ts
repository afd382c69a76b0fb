import type { StoredAttachment } from "../execution/results";
import type { LoadedAttachment } from "./bundles";

/** Reads the attachments' bytes from R2 (one object at a time). */
export async function loadAttachments(bucket: R2Bucket, stored: StoredAttachment[]): Promise<LoadedAttachment[]> {
  const loaded: LoadedAttachment[] = [];
  for (const a of stored) {
    const object = await bucket.get(a.key);
    if (!object) continue;
    loaded.push({
      category: a.category,
      name: a.name,
      contentType: a.contentType,
      bytes: new Uint8Array(await object.arrayBuffer()),
    });
  }
  return loaded;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
