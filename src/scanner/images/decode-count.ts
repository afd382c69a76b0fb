/**
 * How often each file's bytes were decoded: to pixels (a strip decoder read from its first band, or a
 * photon decode) and to luminance coefficients (a Huffman pass of jpeg-coefficients.ts). Keyed by the
 * byte array, held weakly. The pipeline decodes a file once for all detectors (file-decode.ts); the
 * tests read these counts to prove it, like the models' inferenceRuns (ml/ort.ts).
 */
export interface DecodeCounts {
  pixels: number;
  coefficients: number;
}

const counts = new WeakMap<Uint8Array, DecodeCounts>();

export function countDecode(bytes: Uint8Array, kind: keyof DecodeCounts): void {
  let entry = counts.get(bytes);
  if (!entry) {
    entry = { pixels: 0, coefficients: 0 };
    counts.set(bytes, entry);
  }
  entry[kind]++;
}

/** The decodes of `bytes` so far. */
export function decodesOf(bytes: Uint8Array): DecodeCounts {
  return { pixels: 0, coefficients: 0, ...counts.get(bytes) };
}
