#!/usr/bin/env python3
"""An A4 colour scan at 300 dpi (2480 x 3508, 8.7 MP) as a scanner writes it: RGB TIFF, Deflate with the
horizontal predictor, in strips of 16 rows (or, with --tiles, in tiles of 256 x 256). The page is white
paper with lines of "text" (dark bars) and a photo printed on it, so it packs to a few hundred KB.
  python3 scripts/datagen/scan_tiff.py <photo> <out.tiff> [--tiles]
"""
import struct
import sys
import zlib

import cv2
import numpy as np

WIDTH, HEIGHT, ROWS_PER_STRIP, TILE = 2480, 3508, 16, 256


def page(photo):
    rng = np.random.default_rng(17)
    paper = np.full((HEIGHT, WIDTH, 3), 246, np.uint8)
    for y in range(300, HEIGHT - 300, 60):  # lines of words: bars of random lengths
        x = 250
        while x < WIDTH - 400:
            word = int(rng.integers(60, 260))
            paper[y : y + 28, x : x + word] = 40
            x += word + 35
    picture = cv2.resize(cv2.imread(photo), (400, 300), interpolation=cv2.INTER_AREA)
    paper[1200 : 1200 + 300, 1040 : 1040 + 400] = picture[:, :, ::-1]  # BGR -> RGB
    return paper


def predicted(block):
    """TIFF predictor 2: each sample minus the same sample of the pixel to its left (mod 256)."""
    out = block.astype(np.int16)
    out[:, 1:] -= block[:, :-1].astype(np.int16)
    return (out & 255).astype(np.uint8)


def write(pixels, out, tiles):
    chunks = []
    if tiles:
        padded = np.pad(pixels, ((0, -HEIGHT % TILE), (0, -WIDTH % TILE), (0, 0)), mode="edge")
        for ty in range(0, HEIGHT, TILE):
            for tx in range(0, WIDTH, TILE):
                chunks.append(zlib.compress(predicted(padded[ty : ty + TILE, tx : tx + TILE]).tobytes(), 9))
    else:
        for y in range(0, HEIGHT, ROWS_PER_STRIP):
            chunks.append(zlib.compress(predicted(pixels[y : y + ROWS_PER_STRIP]).tobytes(), 9))
    data = b"".join(chunks)
    offsets, at = [], 8
    for c in chunks:
        offsets.append(at)
        at += len(c)
    arrays = 8 + len(data)  # out-of-line values follow the pixel data
    bits_at = arrays
    offsets_at = bits_at + 8
    counts_at = offsets_at + 4 * len(chunks)
    resolution_at = counts_at + 4 * len(chunks)
    ifd_at = resolution_at + 16
    location = (324, 325) if tiles else (273, 279)
    entries = [
        (256, 4, 1, WIDTH),
        (257, 4, 1, HEIGHT),
        (258, 3, 3, bits_at),
        (259, 3, 1, 8),
        (262, 3, 1, 2),
        (277, 3, 1, 3),
        (282, 5, 1, resolution_at),
        (283, 5, 1, resolution_at + 8),
        (284, 3, 1, 1),
        (296, 3, 1, 2),
        (317, 3, 1, 2),
        (location[0], 4, len(chunks), offsets_at),
        (location[1], 4, len(chunks), counts_at),
    ]
    entries += [(322, 3, 1, TILE), (323, 3, 1, TILE)] if tiles else [(278, 4, 1, ROWS_PER_STRIP)]
    entries.sort()
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        ifd += struct.pack("<HHI", tag, kind, count) + (struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value))
    ifd += struct.pack("<I", 0)
    with open(out, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd_at) + data)
        f.write(struct.pack("<HHHH", 8, 8, 8, 0))
        f.write(struct.pack(f"<{len(chunks)}I", *offsets) + struct.pack(f"<{len(chunks)}I", *map(len, chunks)))
        f.write(struct.pack("<IIII", 300, 1, 300, 1))
        f.write(ifd)


if __name__ == "__main__":
    write(page(sys.argv[1]), sys.argv[2], "--tiles" in sys.argv[3:])
