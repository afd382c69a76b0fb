/**
 * double-quantisation.ts `emShare` of the first-step candidates of one frequency that can reach the minimum share
 * (`canReachMinShare`), by the kernel of wasm/assembly/dq-fit.ts (two candidates per f64x2): the same shares, bit for
 * bit. double-quantisation.ts stays the reference (`fitFrequency(…, { reference: true })`);
 * test/forensics/image/double-quantisation.test.ts compares them. Wasm memory: 16 bytes per pair of candidates and counted bin (≤ 24 pairs × 128 bins: 48 KB).
 */
import { kernels, scratchRegions } from "../images/wasm-kernels";

/**
 * The EM share of each of `candidates` first steps: `count` and `ps` per counted bin, `pds` the candidates'
 * probabilities one after the other (count.length each), `total` the counted values.
 */
export function mixtureSharesWasm(
  count: Float64Array,
  ps: Float64Array,
  pds: Float64Array,
  candidates: number,
  total: number,
): Float64Array {
  const n = count.length;
  const pairs = Math.ceil(candidates / 2);
  const k = kernels();
  const { at, buffer } = scratchRegions({ counts: n * 8, ps: n * 8, pds: pairs * n * 16, out: pairs * 16 }, k);
  new Float64Array(buffer, at.counts, n).set(count);
  new Float64Array(buffer, at.ps, n).set(ps);
  // Bin by bin, the pair's two candidates side by side; an odd count's last lane repeats the last candidate.
  const paired = new Float64Array(buffer, at.pds, pairs * n * 2);
  for (let c = 0; c < pairs * 2; c++) {
    const from = Math.min(c, candidates - 1) * n;
    const to = (c >> 1) * n * 2 + (c & 1);
    for (let j = 0; j < n; j++) paired[to + 2 * j] = pds[from + j];
  }
  k.dqMixtureShares(at.counts, at.ps, at.pds, n, candidates, total, at.out);
  return new Float64Array(buffer, at.out, candidates).slice();
}
