/** Facts read from the encoded bytes without decoding pixels (cheap, before any decode). */
export interface ImageBytesInfo {
  type: "jpeg" | "png";
  width: number;
  height: number;
  /** Metadata segments found (EXIF, XMP, Photoshop, ICC, comments); a canvas JPEG carries at most ICC. */
  metadataSegments: string[];
  /** Names of editing software found in those segments. */
  softwareHints: string[];
}

const SOFTWARE = [
  "photoshop",
  "gimp",
  "lightroom",
  "snapseed",
  "picsart",
  "affinity",
  "paint.net",
  "pixelmator",
  "faceapp",
  "facetune",
];

/** The image type by magic bytes, or null: the declared content type is never trusted. */
export function sniffImageType(bytes: Uint8Array): "jpeg" | "png" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "png";
  return null;
}

/** Dimensions and metadata segments, or null when the header is unreadable. */
export function readImageInfo(bytes: Uint8Array): ImageBytesInfo | null {
  const type = sniffImageType(bytes);
  if (type === "png") return readPng(bytes);
  if (type === "jpeg") return readJpeg(bytes);
  return null;
}

function readPng(bytes: Uint8Array): ImageBytesInfo | null {
  if (bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const segments: string[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const name = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (["eXIf", "iTXt", "tEXt", "zTXt", "iCCP"].includes(name)) segments.push(name);
    at += 12 + length;
  }
  return {
    type: "png",
    width: view.getUint32(16),
    height: view.getUint32(20),
    metadataSegments: segments,
    softwareHints: softwareIn(bytes.subarray(0, 65536)),
  };
}

function readJpeg(bytes: Uint8Array): ImageBytesInfo | null {
  const segments: string[] = [];
  const hints = new Set<string>();
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    const body = bytes.subarray(at + 4, at + 2 + length);
    const name = segmentName(marker, body);
    if (name) {
      segments.push(name);
      for (const hint of softwareIn(body)) hints.add(hint);
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (body.length < 5) return null;
      return {
        type: "jpeg",
        height: (body[1] << 8) | body[2],
        width: (body[3] << 8) | body[4],
        metadataSegments: segments,
        softwareHints: [...hints],
      };
    }
    if (marker === 0xda) return null; // scan before frame header: broken file
    at += 2 + length;
  }
  return null;
}

function segmentName(marker: number, body: Uint8Array): string | null {
  const head = String.fromCharCode(...body.subarray(0, 12));
  if (marker === 0xe1 && head.startsWith("Exif")) return "EXIF";
  if (marker === 0xe1 && head.startsWith("http://ns.ad")) return "XMP";
  if (marker === 0xe2 && head.startsWith("ICC_PROFILE")) return "ICC";
  if (marker === 0xed) return "Photoshop";
  if (marker === 0xfe) return "comment";
  if (marker >= 0xe1 && marker <= 0xef) return `APP${marker - 0xe0}`;
  return null;
}

function softwareIn(bytes: Uint8Array): string[] {
  const text = new TextDecoder("latin1").decode(bytes).toLowerCase();
  return SOFTWARE.filter((name) => text.includes(name));
}
