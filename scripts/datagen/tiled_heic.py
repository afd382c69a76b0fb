#!/usr/bin/env python3
"""A tiled HEIC as a phone writes it (a `grid` item of 512 x 512 HEVC tiles), from any photo scaled to a size.

Debian's heif-enc (libheif 1.15) writes no grids, so the tiles are encoded by heif-enc as separate images of one
file and this script moves them under a grid item of its own, the primary image, as libheif reads it:
  apt-get install libheif-examples python3-opencv
  python3 scripts/datagen/tiled_heic.py <photo> <width> <height> <quality> <out.heic>
The picture is the photo scaled up (cubic), so mostly smooth with some detail, and small to commit.
"""
import os
import struct
import subprocess
import sys
import tempfile

import cv2
import numpy as np

TILE = 512


def boxes(data, start, end):
    """(type, payload start, box end) of the boxes in data[start:end]."""
    at = start
    while at < end:
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        head = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8 : at + 16])[0]
            head = 16
        yield kind.decode("latin1"), at + head, at + size
        at += size


def child(data, start, end, kind):
    return next((b for b in boxes(data, start, end) if b[0] == kind), None)


def read_items(path):
    """Every image item of heif-enc's file: its coded bytes and its properties' boxes (bytes), in item order."""
    data = open(path, "rb").read()
    _, meta_start, meta_end = child(data, 0, len(data), "meta")
    meta_start += 4  # full box
    _, iloc_at, iloc_end = child(data, meta_start, meta_end, "iloc")
    version = data[iloc_at]
    sizes = data[iloc_at + 4]
    offset_size, length_size = sizes >> 4, sizes & 15
    base_size = data[iloc_at + 5] >> 4
    index_size = data[iloc_at + 5] & 15 if version in (1, 2) else 0
    at = iloc_at + 6
    count = struct.unpack(">H", data[at : at + 2])[0] if version < 2 else struct.unpack(">I", data[at : at + 4])[0]
    at += 2 if version < 2 else 4

    def number(size):
        nonlocal at
        value = int.from_bytes(data[at : at + size], "big") if size else 0
        at += size
        return value

    extents = {}
    for _ in range(count):
        item = number(2 if version < 2 else 4)
        if version in (1, 2):
            number(2)  # construction method
        number(2)  # data reference index
        base = number(base_size)
        parts = []
        for _ in range(number(2)):
            number(index_size)
            offset = number(offset_size)
            length = number(length_size)
            parts.append(data[base + offset : base + offset + length])
        extents[item] = b"".join(parts)
    _, iprp_at, iprp_end = child(data, meta_start, meta_end, "iprp")
    _, ipco_at, ipco_end = child(data, iprp_at, iprp_end, "ipco")
    properties = [data[s - 8 : e] for _, s, e in boxes(data, ipco_at, ipco_end)]
    _, ipma_at, _ = child(data, iprp_at, iprp_end, "ipma")
    wide = data[ipma_at + 3] & 1
    at = ipma_at + 4
    associated = {}
    for _ in range(number(4)):
        item = number(2)
        indices = []
        for _ in range(number(1)):
            value = number(2 if wide else 1)
            indices.append(value & (0x7FFF if wide else 0x7F))
        associated[item] = [properties[i - 1] for i in indices if i > 0]
    items = sorted(i for i in extents if i in associated)
    return [(extents[i], associated[i]) for i in items]


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin1")) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def grid_file(tiles, columns, rows, width, height):
    """ftyp, meta (grid item 1 as the primary image, tiles 2.. hidden, each 512 x 512) and mdat."""
    grid_id = 1
    ids = list(range(2, 2 + len(tiles)))
    properties = []

    def prop(content):
        if content not in properties:
            properties.append(content)
        return properties.index(content) + 1

    grid_ispe = prop(full_box("ispe", 0, 0, struct.pack(">II", width, height)))
    tile_props = [[prop(p) for p in tile_properties] for _, tile_properties in tiles]
    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    entries = full_box("infe", 2, 0, struct.pack(">HH4s", grid_id, 0, b"grid") + b"\0")
    entries += b"".join(full_box("infe", 2, 1, struct.pack(">HH4s", i, 0, b"hvc1") + b"\0") for i in ids)
    iinf = full_box("iinf", 0, 0, struct.pack(">H", 1 + len(ids)) + entries)
    iref = full_box("iref", 0, 0, box("dimg", struct.pack(">HH", grid_id, len(ids)) + b"".join(struct.pack(">H", i) for i in ids)))
    associations = [(grid_id, [grid_ispe])] + list(zip(ids, tile_props))
    ipma = full_box(
        "ipma",
        0,
        1,
        struct.pack(">I", len(associations))
        + b"".join(struct.pack(">HB", i, len(p)) + b"".join(struct.pack(">H", 0x8000 | n) for n in p) for i, p in associations),
    )
    iprp = box("iprp", box("ipco", b"".join(properties)) + ipma)
    hdlr = full_box("hdlr", 0, 0, struct.pack(">I4s12x", 0, b"pict") + b"\0")
    pitm = full_box("pitm", 0, 0, struct.pack(">H", grid_id))
    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    payloads = [grid_data] + [coded for coded, _ in tiles]

    def iloc(first):
        rows_ = b""
        at = first
        for item, payload in zip([grid_id] + ids, payloads):
            rows_ += struct.pack(">HHHII", item, 0, 1, at, len(payload))
            at += len(payload)
        return full_box("iloc", 0, 0, struct.pack(">BBH", 0x44, 0, len(payloads)) + rows_)

    def meta(first):
        return full_box("meta", 0, 0, hdlr + pitm + iloc(first) + iinf + iref + iprp)

    start = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(start) + box("mdat", b"".join(payloads))


def main():
    photo, width, height, quality, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    columns, rows = -(-width // TILE), -(-height // TILE)
    picture = cv2.resize(cv2.imread(photo), (width, height), interpolation=cv2.INTER_CUBIC)
    padded = np.pad(picture, ((0, rows * TILE - height), (0, columns * TILE - width), (0, 0)), mode="edge")
    with tempfile.TemporaryDirectory() as work:
        names = []
        for ty in range(rows):
            for tx in range(columns):
                name = os.path.join(work, f"t{ty:03d}-{tx:03d}.png")
                cv2.imwrite(name, padded[ty * TILE : (ty + 1) * TILE, tx * TILE : (tx + 1) * TILE])
                names.append(name)
        coded = os.path.join(work, "tiles.heic")
        subprocess.run(["heif-enc", "-q", quality, "-o", coded, *names], check=True, stdout=subprocess.DEVNULL)
        tiles = read_items(coded)
    if len(tiles) != columns * rows:
        sys.exit(f"heif-enc wrote {len(tiles)} images, expected {columns * rows}")
    open(out, "wb").write(grid_file(tiles, columns, rows, width, height))


if __name__ == "__main__":
    main()
