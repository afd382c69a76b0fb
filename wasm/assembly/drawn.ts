// The drawn-picture test of src/scanner/images/drawn-picture.ts `equalNeighbourShare`, value for value: how many
// pixels equal their right-hand neighbour (f32 equality as JavaScript's ===: NaN equals nothing, −0 equals +0).

/**
 * Pixels of the `w` × `h` f32 picture at `picture` equal to their right-hand neighbour, four per `f32x4.eq` (each
 * true lane is −1, taken from the running count).
 */
export function equalNeighbourCount(picture: usize, w: i32, h: i32): i32 {
  let total = 0;
  for (let y = 0; y < h; y++) {
    const row = picture + (<usize>(y * w) << 2);
    let counts = i32x4.splat(0);
    let x = 0;
    for (; x + 4 < w; x += 4) {
      const at = row + (<usize>x << 2);
      counts = i32x4.sub(counts, f32x4.eq(v128.load(at), v128.load(at, 4)));
    }
    total +=
      i32x4.extract_lane(counts, 0) +
      i32x4.extract_lane(counts, 1) +
      i32x4.extract_lane(counts, 2) +
      i32x4.extract_lane(counts, 3);
    for (; x + 1 < w; x++) {
      const at = row + (<usize>x << 2);
      if (load<f32>(at) == load<f32>(at, 4)) total++;
    }
  }
  return total;
}
