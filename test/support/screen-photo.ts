/**
 * Simulates photographing an LCD that shows a photo. shared/data holds no photographed screens,
 * so recapture positives are made from its real photos by modelling what a phone sees:
 * the picture shown on a display of `screenWidth` pixels, each pixel three vertical R/G/B
 * sub-pixel stripes with a dark matrix gap, sampled by the camera at a slight angle and a
 * non-integer pitch (which aliases into moiré), then softened by the lens and given sensor noise.
 * Pure TypeScript on RGBA so it runs in workerd tests and in Node scripts alike.
 */
export interface Rgba {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface ScreenOptions {
  outWidth: number;
  outHeight: number;
  /** Camera pixels per screen pixel (non-integer → moiré). */
  pitch?: number;
  /** Rotation of the screen in the camera frame, degrees. */
  angleDeg?: number;
  /** Seed for the sensor noise. */
  seed?: number;
}

export function photographScreen(source: Rgba, options: ScreenOptions): Rgba {
  const { outWidth: W, outHeight: H, pitch = 3.3, angleDeg = 1.5, seed = 7 } = options;
  const cos = Math.cos((angleDeg * Math.PI) / 180);
  const sin = Math.sin((angleDeg * Math.PI) / 180);
  const screenW = Math.ceil(W / pitch) + 4;
  const screenH = Math.ceil(H / pitch) + 4;
  const raw = new Float32Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Camera pixel → screen coordinates (rotated about the centre).
      const cx = x - W / 2,
        cy = y - H / 2;
      const sx = (cx * cos - cy * sin) / pitch + screenW / 2;
      const sy = (cx * sin + cy * cos) / pitch + screenH / 2;
      const px = Math.floor(sx),
        py = Math.floor(sy);
      const fx = sx - px,
        fy = sy - py;
      const channel = Math.min(2, Math.floor(fx * 3));
      const lit = fy < 0.82 && (fx * 3) % 1 < 0.8 ? 1 : 0.06; // black matrix between cells
      const srcX = Math.min(source.width - 1, Math.max(0, Math.floor((px / screenW) * source.width)));
      const srcY = Math.min(source.height - 1, Math.max(0, Math.floor((py / screenH) * source.height)));
      const value = source.data[(srcY * source.width + srcX) * 4 + channel];
      const o = (y * W + x) * 3;
      raw[o + channel] = value * lit * 1.35;
      // Neighbouring sub-pixels bleed a little light.
      raw[o + ((channel + 1) % 3)] = value * 0.12;
      raw[o + ((channel + 2) % 3)] = value * 0.12;
    }
  }
  return { data: toRgba(blur(raw, W, H), W, H, seed), width: W, height: H };
}

/** 3×3 binomial blur per channel: the lens and the sensor's optical low-pass filter. */
function blur(raw: Float32Array, W: number, H: number): Float32Array {
  const out = new Float32Array(raw.length);
  const k = [1, 2, 1];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      for (let ch = 0; ch < 3; ch++) {
        let sum = 0,
          weight = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const yy = y + dy,
              xx = x + dx;
            if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
            const w = k[dy + 1] * k[dx + 1];
            sum += raw[(yy * W + xx) * 3 + ch] * w;
            weight += w;
          }
        }
        out[(y * W + x) * 3 + ch] = sum / weight;
      }
    }
  }
  return out;
}

function toRgba(rgb: Float32Array, W: number, H: number, seed: number): Uint8Array {
  let state = seed >>> 0 || 1;
  const noise = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 4294967296 - 0.5) * 6;
  };
  const out = new Uint8Array(W * H * 4);
  for (let i = 0; i < W * H; i++) {
    for (let ch = 0; ch < 3; ch++) out[i * 4 + ch] = Math.max(0, Math.min(255, Math.round(rgb[i * 3 + ch] + noise())));
    out[i * 4 + 3] = 255;
  }
  return out;
}
