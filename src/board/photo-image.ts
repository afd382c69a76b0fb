import type { Env } from "../env";
import { lazily } from "../lib/isolate-once";

export type PhotoSize = "full" | "thumb";

/** The scanner's thumbnail detector (image decoders) loads with the first thumbnail, not with every board page. */
const thumbnails = lazily(() => import("../scanner/forensics/thumbnail"));

/** A stored photo or its thumbnail, ready to serve. */
export interface PhotoImage {
  body: ReadableStream | Uint8Array;
  contentType: string;
  size: number;
}

/**
 * The photo at `r2Key`, or its thumbnail. A thumbnail is made once, by the scanner's thumbnail
 * analyzer (bounded: strip-decoded for baseline JPEGs and PNGs), and kept next to the photo in R2;
 * when none can be made, the photo itself is served.
 */
export async function photoImage(env: Env, r2Key: string, size: PhotoSize): Promise<PhotoImage | null> {
  if (size === "thumb") {
    const thumbKey = `${r2Key}.thumb.png`;
    const cached = await env.BUCKET.get(thumbKey);
    if (cached) return { body: cached.body, contentType: "image/png", size: cached.size };
    const made = await makeThumbnail(env, r2Key);
    if (made) {
      await env.BUCKET.put(thumbKey, made, { httpMetadata: { contentType: "image/png" } });
      return { body: made, contentType: "image/png", size: made.byteLength };
    }
  }
  const object = await env.BUCKET.get(r2Key);
  if (!object) return null;
  return { body: object.body, contentType: object.httpMetadata?.contentType ?? "image/jpeg", size: object.size };
}

async function makeThumbnail(env: Env, r2Key: string): Promise<Uint8Array | null> {
  const object = await env.BUCKET.get(r2Key);
  if (!object) return null;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const png = r2Key.endsWith(".png");
  const { thumbnailAnalyzer } = await thumbnails();
  const result = await thumbnailAnalyzer.analyze(
    {
      name: r2Key,
      bytes,
      kind: png ? "png" : "jpeg",
      mimeType: png ? "image/png" : "image/jpeg",
      sha256: "",
      size: bytes.byteLength,
    },
    { language: "en", issueDate: null, now: new Date(0), caseNumber: "" },
  );
  return result.attachments?.[0]?.bytes ?? null;
}
