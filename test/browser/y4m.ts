/**
 * Writes Y4M videos for Chromium's fake camera (`--use-file-for-fake-video-capture`) from real
 * photos: a slow pan over the photo with fresh sensor noise in every frame, so no two shots are
 * pixel-identical, like a phone held in the hand. Y4M is a text header plus raw I420 frames.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { readFileSync } from "node:fs";
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon/node";
import { photographScreen, type Rgba } from "../support/screen-photo";

export interface VideoOptions {
  width: number;
  height: number;
  frames: number;
  fps: number;
}

/** Decodes a photo and scales it so that it covers width+pan × height. */
export function loadPhoto(path: string, width: number, height: number, pan: number): Rgba {
  const image = PhotonImage.new_from_byteslice(new Uint8Array(readFileSync(path)));
  const scale = Math.max((width + pan) / image.get_width(), height / image.get_height());
  const w = Math.ceil(image.get_width() * scale),
    h = Math.ceil(image.get_height() * scale);
  const scaled = resize(image, w, h, SamplingFilter.Lanczos3);
  const out = { data: scaled.get_raw_pixels(), width: w, height: h };
  image.free();
  scaled.free();
  return out;
}

/** The photo as a phone would see it on an LCD (simulation, see test/support/screen-photo.ts). */
export function onScreen(photo: Rgba, width: number, height: number, pitch = 2.9): Rgba {
  return photographScreen(photo, { outWidth: width, outHeight: height, pitch, angleDeg: 1.2 });
}

export function writeY4m(path: string, source: Rgba, opts: VideoOptions): void {
  const { width: W, height: H, frames, fps } = opts;
  const fd = openSync(path, "w");
  writeSync(fd, `YUV4MPEG2 W${W} H${H} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const maxPan = Math.max(0, source.width - W);
  let seed = 12345;
  const noise = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) / 4294967296 - 0.5) * 4;
  };
  for (let f = 0; f < frames; f++) {
    const offset = maxPan === 0 ? 0 : Math.round((f / Math.max(1, frames - 1)) * maxPan);
    const y = new Uint8Array(W * H),
      u = new Uint8Array((W / 2) * (H / 2)),
      v = new Uint8Array((W / 2) * (H / 2));
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const p = (Math.min(r, source.height - 1) * source.width + c + offset) * 4;
        const R = source.data[p],
          G = source.data[p + 1],
          B = source.data[p + 2];
        y[r * W + c] = clamp(0.299 * R + 0.587 * G + 0.114 * B + noise());
        if (r % 2 === 0 && c % 2 === 0) {
          const i = (r / 2) * (W / 2) + c / 2;
          u[i] = clamp(128 - 0.168736 * R - 0.331264 * G + 0.5 * B);
          v[i] = clamp(128 + 0.5 * R - 0.418688 * G - 0.081312 * B);
        }
      }
    }
    writeSync(fd, "FRAME\n");
    writeSync(fd, y);
    writeSync(fd, u);
    writeSync(fd, v);
  }
  closeSync(fd);
}

const clamp = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
