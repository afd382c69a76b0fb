import { SELF } from "cloudflare:test";
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { photographScreen } from "../support/screen-photo";

/**
 * Fixture bytes inside workerd: test files import real images from ../shared/data with Vite's
 * `?inline` suffix (a base64 data URL, see fixtures.d.ts) and decode them here.
 */
export function bytesOf(dataUrl: string): Uint8Array {
  const binary = atob(dataUrl.slice(dataUrl.indexOf(",") + 1));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * What the page's canvas does to a camera frame: decode, scale to the stream size, encode as
 * a bare JPEG (no EXIF). Returns the bytes and their size.
 */
export function asCanvasJpeg(bytes: Uint8Array, width = 1280): { jpeg: Uint8Array; width: number; height: number } {
  const image = PhotonImage.new_from_byteslice(bytes);
  const height = Math.round((width * image.get_height()) / image.get_width());
  const scaled = resize(image, width, height, SamplingFilter.Triangle);
  try {
    return { jpeg: scaled.get_bytes_jpeg(92), width, height };
  } finally {
    image.free();
    scaled.free();
  }
}

/** The photo shown on a simulated LCD (640 px wide) and photographed at 1024 × 768 as a JPEG (see test/support/screen-photo.ts). */
export function screenPhotoJpeg(dataUrl: string, pitch: number, angleDeg = 1): Uint8Array {
  const image = PhotonImage.new_from_byteslice(bytesOf(dataUrl));
  const small = resize(image, 640, Math.round((640 * image.get_height()) / image.get_width()), SamplingFilter.Triangle);
  const source = { data: small.get_raw_pixels(), width: small.get_width(), height: small.get_height() };
  image.free();
  small.free();
  return rgbaToJpeg(photographScreen(source, { outWidth: 1024, outHeight: 768, pitch, angleDeg }));
}

export function rgbaToJpeg(rgba: { data: Uint8Array; width: number; height: number }): Uint8Array {
  const image = new PhotonImage(rgba.data, rgba.width, rgba.height);
  try {
    return image.get_bytes_jpeg(92);
  } finally {
    image.free();
  }
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}

export const POSITION = { latitude: 52.52, longitude: 13.405, accuracy: 12, timestamp: Date.now() };

/** An account and a case with the given scenes; returns the token and ids. */
export async function newCase(scenes: string[] = ["Front of the car", "Damage close up", "Number plate"]) {
  const { apiKey } = await createAccount();
  const caseNumber = uniqueCaseNumber("CP");
  const res = await postJson(
    "/capture/link",
    {
      caseNumber,
      scenes: scenes.map((description) => ({ description })),
      customNote: "Please include the dent on the left door.",
    },
    { "x-api-key": apiKey },
  );
  const body = await res.json<{ captureLink: string; ticketId: string }>();
  const token = body.captureLink.split("/c/")[1];
  return { apiKey, caseNumber, token, ticketId: body.ticketId };
}

export async function status(apiKey: string, ticketId: string) {
  const res = await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } });
  return res.json<{
    status: string;
    lastResult: string;
    attemptCount: number;
    closed: boolean;
    finalDecision: string | null;
    scenes: { completed: boolean }[];
    events: { action: string; actor: string }[];
  }>();
}

export function pageFetch(token: string, path: string, init: RequestInit = {}) {
  return SELF.fetch(`${BASE}/c/${token}${path}`, init);
}

export async function nonce(token: string): Promise<string> {
  const res = await pageFetch(token, "/nonce", { method: "POST" });
  if (res.status !== 201) throw new Error(`nonce ${res.status} ${await res.text()}`);
  return (await res.json<{ nonce: string }>()).nonce;
}

export interface ShotOptions {
  scenePosition?: number | null;
  position?: typeof POSITION | null;
  cameraLabel?: string;
  trackWidth?: number;
  trackHeight?: number;
  declaredSha256?: string;
  nonce?: string;
  /** Repeat only the final step (its answer was lost). */
  onlyComplete?: boolean;
}

/** Uploads `jpeg` as the page does (chunks + complete) and returns the complete response. */
export async function sendShot(
  token: string,
  jpeg: Uint8Array,
  size: { width: number; height: number },
  opts: ShotOptions = {},
) {
  const n = opts.nonce ?? (await nonce(token));
  const chunkBytes = 256 * 1024;
  const chunks = Math.max(1, Math.ceil(jpeg.length / chunkBytes));
  for (let i = 0; i < (opts.onlyComplete ? 0 : chunks); i++) {
    const res = await pageFetch(token, `/uploads/${n}/${i}`, {
      method: "PUT",
      body: jpeg.slice(i * chunkBytes, (i + 1) * chunkBytes),
    });
    if (res.status !== 204) return res;
  }
  return pageFetch(token, `/uploads/${n}/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      sha256: opts.declaredSha256 ?? (await sha256Hex(jpeg)),
      chunks,
      scenePosition: opts.scenePosition === undefined ? 1 : opts.scenePosition,
      capturedAt: Date.now(),
      cameraLabel: opts.cameraLabel ?? "camera2 0, facing back",
      deviceLabel: "Mozilla/5.0 (Linux; Android 14; Pixel 7) test",
      trackWidth: opts.trackWidth ?? size.width,
      trackHeight: opts.trackHeight ?? size.height,
      position: opts.position === undefined ? { ...POSITION, timestamp: Date.now() } : opts.position,
    }),
  });
}
