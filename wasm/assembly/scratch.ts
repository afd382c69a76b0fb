// One scratch area after the static data, grown on demand. Every kernel call is synchronous and
// stateless: the caller copies its inputs in, calls, and copies the results out, so several
// decoders alive at the same time never share state here (no allocator, nothing to free).

const PAGE: i32 = 65536;

/** Start of the scratch area (16-byte aligned) with at least `bytes` behind it. */
export function scratch(bytes: i32): usize {
  const base = (__heap_base + 15) & ~(<usize>15);
  const needed = <i32>((base + <usize>bytes + <usize>(PAGE - 1)) / <usize>PAGE);
  const have = memory.size();
  if (needed > have && memory.grow(needed - have) < 0) unreachable();
  return base;
}
