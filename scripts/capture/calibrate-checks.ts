/**
 * Prints the numbers behind the scene and recapture thresholds for the real photos of
 * ../shared/data and for simulated screen photographs made from them.
 * Run: npx tsx scripts/capture/calibrate-checks.ts
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon/node";
import { decodePhoto } from "../../src/capture/checks/pixels";
import { sceneMeasures } from "../../src/capture/checks/scene-quality";
import { classicalRecapture } from "../../src/capture/checks/recapture-classical";
import { photographScreen } from "../../test/support/screen-photo";

const root = "../shared/data/photos";
const files = readdirSync(root, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".jpg") && !f.includes("5640"));

for (const file of files) {
  const bytes = new Uint8Array(readFileSync(join(root, file)));
  const decoded = decodePhoto(bytes);
  const natural = classicalRecapture.detect(decoded.detail) as {
    recaptured: boolean;
    evidence: Record<string, unknown>;
  };
  // The same photo as a phone would see it on a screen, re-encoded like the capture page does.
  const img = PhotonImage.new_from_byteslice(bytes);
  const small = resize(img, 640, Math.round((640 * img.get_height()) / img.get_width()), SamplingFilter.Triangle);
  const shot = photographScreen(
    { data: small.get_raw_pixels(), width: small.get_width(), height: small.get_height() },
    { outWidth: 1280, outHeight: 720, pitch: 2.6 + (file.length % 7) * 0.25, angleDeg: (file.length % 5) - 2 },
  );
  img.free();
  small.free();
  subsampleChroma(shot.data, shot.width, shot.height);
  const shotImg = new PhotonImage(shot.data, shot.width, shot.height);
  const jpeg = shotImg.get_bytes_jpeg(92);
  shotImg.free();
  const screen = classicalRecapture.detect(decodePhoto(jpeg).detail) as {
    recaptured: boolean;
    evidence: Record<string, unknown>;
  };
  console.log(
    file.padEnd(55),
    JSON.stringify(sceneMeasures(decoded.overview)),
    "\n   natural",
    natural.recaptured,
    JSON.stringify(natural.evidence),
    "\n   screen ",
    screen.recaptured,
    JSON.stringify(screen.evidence),
  );
}

/** What a camera's 4:2:0 video stream does to colour: chroma averaged over 2×2 blocks. */
function subsampleChroma(d: Uint8Array, w: number, h: number) {
  for (let y = 0; y + 1 < h; y += 2)
    for (let x = 0; x + 1 < w; x += 2) {
      const idx = [(y * w + x) * 4, (y * w + x + 1) * 4, ((y + 1) * w + x) * 4, ((y + 1) * w + x + 1) * 4];
      let cb = 0,
        cr = 0;
      const ys = idx.map((p) => 0.299 * d[p] + 0.587 * d[p + 1] + 0.114 * d[p + 2]);
      idx.forEach((p, i) => {
        cb += (d[p + 2] - ys[i]) / 4;
        cr += (d[p] - ys[i]) / 4;
      });
      idx.forEach((p, i) => {
        const Y = ys[i];
        const R = Y + cr;
        const B = Y + cb;
        const G = (Y - 0.299 * R - 0.114 * B) / 0.587;
        d[p] = Math.max(0, Math.min(255, R));
        d[p + 1] = Math.max(0, Math.min(255, G));
        d[p + 2] = Math.max(0, Math.min(255, B));
      });
    }
}
