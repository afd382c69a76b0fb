// The double-quantisation fit's mixture shares (src/scanner/forensics/double-quantisation.ts `fitAlpha` is the
// JavaScript reference): per first-step candidate, 30 EM steps of the share α of double-quantised values over the
// counted bins, two candidates per f64x2 (one per lane, each lane the reference's operations in its order).

/**
 * The EM shares of `candidates` first steps over `n` counted bins: `counts` and `ps` (n f64 each: the bins' counts
 * and single-quantisation probabilities), `pds` the candidates' double-quantisation probabilities in pairs (pair p,
 * bin j: candidate 2p at pds + (p·n + j)·16, candidate 2p + 1 eight bytes on; an odd count's last pair has any
 * finite values in its second lane), `total` the counted values. Writes each candidate's α to `out` (f64, in
 * candidate order, pairs rounded up: 8 bytes more room for an odd count).
 */
export function dqMixtureShares(
  counts: usize,
  ps: usize,
  pds: usize,
  n: i32,
  candidates: i32,
  total: f64,
  out: usize,
): void {
  const pairBytes = <usize>n << 4;
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const totals = f64x2.splat(total);
  for (let c = 0; c < candidates; c += 2) {
    const pd = pds + (<usize>c >> 1) * pairBytes;
    let alpha = f64x2.splat(0.5);
    for (let iter = 0; iter < 30; iter++) {
      let r = f64x2.splat(0);
      const rest = f64x2.sub(one, alpha);
      for (let j = 0; j < n; j++) {
        const o = <usize>j << 3;
        // r += (count · a) / (a + (1 − α) · ps), a = α · pd: the reference's operations, per lane.
        const a = f64x2.mul(alpha, v128.load(pd + (o << 1)));
        const q = f64x2.add(a, f64x2.mul(rest, v128.load64_splat(ps + o)));
        r = f64x2.add(r, f64x2.div(f64x2.mul(v128.load64_splat(counts + o), a), q));
      }
      // Math.min(1, Math.max(0, r / total)): NaN stays NaN, −0 becomes +0, as f64x2.max/min give it.
      alpha = f64x2.min(one, f64x2.max(zero, f64x2.div(r, totals)));
    }
    v128.store(out + (<usize>c << 3), alpha);
  }
}
