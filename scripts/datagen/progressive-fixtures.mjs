// Progressive JPEG fixtures for test/forensics/image/progressive-decoder.test.ts, made with libjpeg-turbo's
// own tools (Debian libjpeg-turbo-progs: cjpeg, jpegtran, djpeg) from a crop of leuvenA.jpg:
//   <case>.jpg        the progressive file
//   <case>.base.jpg   jpegtran's lossless transcode to one baseline scan (the same quantised coefficients)
//   <case>.djpeg.png  libjpeg-turbo's decode of the progressive file (djpeg -dct int), RGB or grey
// Usage: node scripts/datagen/progressive-fixtures.mjs (needs the three tools on PATH).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const OUT = "test/fixtures/generated/progressive";
const SOURCE = "../shared/data/photos/opencv-doc/leuvenA.jpg";
/** Odd size: partial MCUs on both edges, several MCU rows between restart markers. */
const CROP = "157x123+301+211";

/** Scans: DC per component (Cb, Cr with Al = 1, never refined), luma AC split 1–5 / 6–63 at Al = 2 and refined twice. */
const SCRIPT = `0: 0 0 0 0;
1: 0 0 0 1;
2: 0 0 0 1;
0: 1 5 0 2;
0: 6 63 0 2;
1: 1 63 0 1;
2: 1 63 0 0;
0: 1 63 2 1;
0: 1 63 1 0;
1: 1 63 1 0;
`;

const cases = {
  "p420-restart": ["-sample", "2x2", "-progressive", "-restart", "3B"],
  p422: ["-sample", "2x1", "-progressive"],
  p440: ["-sample", "1x2", "-progressive"],
  "p444-restart": ["-sample", "1x1", "-progressive", "-restart", "1"],
  "gray-restart": ["-grayscale", "-progressive", "-restart", "1B"],
  "scan-script": ["-sample", "2x2", "-scans", "SCRIPT"],
};

const dir = mkdtempSync(join(tmpdir(), "progressive-"));
const crop = join(dir, "crop.jpg");
writeFileSync(crop, execFileSync("jpegtran", ["-crop", CROP, SOURCE]));
const ppm = execFileSync("djpeg", ["-ppm", crop]);
writeFileSync(join(dir, "scans.txt"), SCRIPT);

for (const [name, options] of Object.entries(cases)) {
  const args = ["-quality", "88", ...options.map((o) => (o === "SCRIPT" ? join(dir, "scans.txt") : o))];
  const jpeg = execFileSync("cjpeg", args, { input: ppm });
  writeFileSync(join(OUT, `${name}.jpg`), jpeg);
  writeFileSync(join(OUT, `${name}.base.jpg`), execFileSync("jpegtran", ["-optimize"], { input: jpeg }));
  writeFileSync(join(OUT, `${name}.djpeg.png`), pnmToPng(execFileSync("djpeg", ["-dct", "int"], { input: jpeg })));
}
// Arithmetic-coded progressive: valid JPEG, not read by our decoders (they report why).
writeFileSync(join(OUT, "arithmetic.jpg"), execFileSync("jpegtran", ["-arithmetic", "-progressive", crop]));

/** A binary PPM (P6) or PGM (P5) as an 8-bit RGB or grey PNG (filter 0 on every row). */
function pnmToPng(pnm) {
  const fields = [];
  let pos = 0;
  while (fields.length < 4) {
    while (pnm[pos] === 0x20 || pnm[pos] === 0x0a) pos++;
    let s = "";
    while (pnm[pos] !== 0x20 && pnm[pos] !== 0x0a) s += String.fromCharCode(pnm[pos++]);
    fields.push(s);
  }
  const channels = fields[0] === "P5" ? 1 : 3;
  const [width, height] = [Number(fields[1]), Number(fields[2])];
  const pixels = pnm.subarray(pos + 1);
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++)
    pixels.copy(raw, y * (width * channels + 1) + 1, y * width * channels, (y + 1) * width * channels);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 1 ? 0 : 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
