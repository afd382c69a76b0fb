/** JPEGs changed in memory for the tests of the decoders and the DC preview. */
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";

/**
 * The file with its last scan (SOS segment and data) repeated until it has `scans` scans: what a file
 * made to cost one pass per scan looks like (refinement scans sent again decode, into garbage).
 */
export function withRepeatedLastScan(bytes: Uint8Array, scans: number): Uint8Array {
  const structure = parseJpegStructure(bytes);
  const end = (structure.eoiEnd as number) - 2;
  const lastSos = structure.segments.filter((s) => s.marker === 0xda).at(-1)?.offset as number;
  const scan = bytes.subarray(lastSos, end);
  const parts = [bytes.subarray(0, end), ...Array(scans - structure.scanStarts.length).fill(scan), bytes.subarray(end)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => {
    out.set(p, at);
    return at + p.length;
  }, 0);
  return out;
}

/** The file with its frame header (SOF2) claiming `width` × `height`. */
export function claimingSize(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const out = bytes.slice();
  const sof = out.findIndex((b, i) => b === 0xff && out[i + 1] === 0xc2);
  out.set([height >> 8, height & 255, width >> 8, width & 255], sof + 5);
  return out;
}

/**
 * The file with `junk` bytes (0x5A) inserted before its first restart marker after `from`: a crafted file
 * whose scan row is longer than the wasm decoders' largest window (they finish such a row in JavaScript).
 */
export function withJunkBeforeRestart(bytes: Uint8Array, from: number, junk: number): Uint8Array {
  const rst = bytes.findIndex((b, i) => i > from && b === 0xff && bytes[i + 1] >= 0xd0 && bytes[i + 1] <= 0xd7);
  if (rst < 0) throw new Error("no restart marker after the given offset");
  const out = new Uint8Array(bytes.length + junk);
  out.set(bytes.subarray(0, rst));
  out.fill(0x5a, rst, rst + junk);
  out.set(bytes.subarray(rst), rst + junk);
  return out;
}
