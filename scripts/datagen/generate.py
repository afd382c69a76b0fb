#!/usr/bin/python3
"""
Seeded generator of manipulated JPEG variants for calibrating and testing the image detectors.

For every untouched camera photo in SOURCES (camera firmware only, no editor in EXIF Software):
  1. crop a window of at most 1024x768 at an offset that is a multiple of 16, so the crop keeps
     the camera's 8x8 JPEG grid (its compression traces survive the crop),
  2. make five variants and save each as a JPEG with OpenCV at a random quality 80-95:
       resave    the crop, unchanged                 (editor-like re-save, no local edit)
       splice    a patch from another photo pasted at a random, grid-misaligned position
       copymove  a patch of the same photo copied to another place
       blur      a Gaussian blur (sigma 2.5-4) over a rectangle
       bright    a local brightness/contrast change over a rectangle (retouching)
  3. write the region (x, y, w, h) of every local edit to manifest.json.

Usage: /usr/bin/python3 scripts/datagen/generate.py [out_dir=.tmp/generated] [--small N] [--seed S]
  --seed S   another seed (default 20261122): the eval's held-out sets (.tmp/generated-heldout, seed 20261125;
             .tmp/generated-heldout-2, seed 20261129; .tmp/generated-heldout-3, seed 20261130; .tmp/generated-heldout-4, seed 20261201) have other crops, edit rectangles, patches and qualities
             from the same source photos.
  --small N  writes N small (512x384) cases per kind instead (used for test/fixtures/generated),
             plus restart-interval.jpg / restart-none.jpg: the same 320x256 crop saved with and
             without restart markers (RST every 3 MCUs), for the entropy decoder tests, and
             grayscale.jpg (250x203, one component) for the pixel decoder tests, and two progressive
             files made losslessly from them with jpegtran (libjpeg-turbo-progs) for the DC preview:
             progressive/grayscale.jpg (jpegtran's default scans) and
             progressive/separate-dc-restart.jpg (one DC scan per component, Al = 1 for Y and Cb then
             a refinement scan, RST every 7 MCUs; PROGRESSIVE_SCANS below), and png/*.png: every PNG
             colour type and bit depth from one 131x97 crop (Pillow, OpenCV, ImageMagick), plus an
             interlaced one, for the PNG strip decoder.
Deterministic: seed 20261122; same inputs -> same bytes (OpenCV's libjpeg is deterministic).
"""
import json
import os
import random
import subprocess
import sys

import cv2
import numpy as np

SEED = 20261122
DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")
# Untouched camera photos (EXIF Software is camera firmware or absent; baseline JPEGs).
SOURCES = [
    "photos/mate-backgrounds/Dune.jpg",
    "photos/mate-backgrounds/Wood.jpg",
    "photos/opencv-doc/leuvenA.jpg",
    "photos/opencv-doc/leuvenB.jpg",
    "photos/opencv-doc/scenetext02.jpg",
    "photos/opencv-doc/scenetext06.jpg",
    "photos/opencv-doc/scenetext_segmented_word01.jpg",
    "photos/opencv-doc/scenetext_segmented_word02.jpg",
    "photos/plasma-workspace-wallpapers/BytheWater-2560x1600.jpg",
    "exif-samples/jpg/gps/DSCN0010.jpg",
    "exif-samples/jpg/gps/DSCN0012.jpg",
    "exif-samples/jpg/gps/DSCN0021.jpg",
    "exif-samples/jpg/gps/DSCN0025.jpg",
    "exif-samples/jpg/gps/DSCN0027.jpg",
    "exif-samples/jpg/gps/DSCN0029.jpg",
    "exif-samples/jpg/gps/DSCN0038.jpg",
    "exif-samples/jpg/gps/DSCN0040.jpg",
    "exif-samples/jpg/gps/DSCN0042.jpg",
    "exif-samples/jpg/hdr/canon_hdr_NO.jpg",
    "exif-samples/jpg/hdr/iphone_hdr_NO.jpg",
    "exif-samples/jpg/tests/22-canon_tags.jpg",
    "exif-samples/jpg/tests/36-memory_error.jpg",
    "exif-samples/jpg/tests/42_IndexError.jpg",
    "exif-samples/jpg/orientation/landscape_1.jpg",
    "exif-samples/jpg/exif-org/nikon-e950.jpg",
    "exif-samples/jpg/exif-org/canon-ixus.jpg",
]
KINDS = ["resave", "splice", "copymove", "blur", "bright"]


def crop(img, rng, max_w, max_h):
    h, w = img.shape[:2]
    cw, ch = min(max_w, w - w % 16), min(max_h, h - h % 16)
    x = rng.randrange(0, (w - cw) // 16 + 1) * 16
    y = rng.randrange(0, (h - ch) // 16 + 1) * 16
    return img[y : y + ch, x : x + cw].copy()


def rect(rng, w, h):
    rw = rng.randint(max(48, w // 6), max(64, w // 4))
    rh = rng.randint(max(48, h // 6), max(64, h // 4))
    return rng.randint(0, w - rw), rng.randint(0, h - rh), rw, rh


def make_variant(kind, img, other, rng):
    out = img.copy()
    h, w = img.shape[:2]
    if kind == "resave":
        return out, None
    x, y, rw, rh = rect(rng, w, h)
    x += 3 if x % 8 == 0 else 0  # off the 8x8 grid, as a pasted object usually is
    x = min(x, w - rw)
    if kind == "splice":
        oh, ow = other.shape[:2]
        sx, sy = rng.randint(0, max(0, ow - rw)), rng.randint(0, max(0, oh - rh))
        patch = cv2.resize(other, (ow, oh))[sy : sy + rh, sx : sx + rw]
        out[y : y + patch.shape[0], x : x + patch.shape[1]] = patch
        rw, rh = patch.shape[1], patch.shape[0]
    elif kind == "copymove":
        for _ in range(50):
            sx, sy = rng.randint(0, w - rw), rng.randint(0, h - rh)
            if abs(sx - x) > rw or abs(sy - y) > rh:
                break
        out[y : y + rh, x : x + rw] = img[sy : sy + rh, sx : sx + rw]
        return out, {"x": x, "y": y, "w": rw, "h": rh, "source": {"x": sx, "y": sy}}
    elif kind == "blur":
        sigma = rng.uniform(2.5, 4.0)
        out[y : y + rh, x : x + rw] = cv2.GaussianBlur(img, (0, 0), sigma)[y : y + rh, x : x + rw]
    elif kind == "bright":
        region = img[y : y + rh, x : x + rw].astype(np.float32)
        out[y : y + rh, x : x + rw] = np.clip(region * rng.uniform(1.15, 1.3) + rng.uniform(5, 15), 0, 255).astype(np.uint8)
    return out, {"x": x, "y": y, "w": rw, "h": rh}


# jpegtran -scans script: DC first scans per component (Y, Cb at Al = 1, Cr at Al = 0), full AC, DC refinements.
PROGRESSIVE_SCANS = """0: 0 0 0 1;
1: 0 0 0 1;
2: 0 0 0 0;
0: 1 63 0 0;
1: 1 63 0 0;
2: 1 63 0 0;
0: 0 0 1 0;
1: 0 0 1 0;
"""


def write_progressive(out_dir):
    os.makedirs(os.path.join(out_dir, "progressive"), exist_ok=True)
    with open(os.path.join(out_dir, "progressive", "grayscale.jpg"), "wb") as f:
        subprocess.run(["jpegtran", "-progressive", "-copy", "none", os.path.join(out_dir, "grayscale.jpg")], stdout=f, check=True)
    scans = os.path.join(out_dir, "progressive", "scans.txt")
    with open(scans, "w") as f:
        f.write(PROGRESSIVE_SCANS)
    with open(os.path.join(out_dir, "progressive", "separate-dc-restart.jpg"), "wb") as f:
        subprocess.run(["jpegtran", "-scans", scans, "-restart", "7B", "-copy", "none", os.path.join(out_dir, "restart-none.jpg")], stdout=f, check=True)
    os.remove(scans)


def write_pngs(out_dir, bgr):
    """Every PNG colour type and bit depth (Pillow, OpenCV's libpng and ImageMagick) from one crop, for
    the PNG strip decoder's tests; the odd width leaves partial bytes at 1, 2 and 4 bits per pixel."""
    from PIL import Image

    png_dir = os.path.join(out_dir, "png")
    os.makedirs(png_dir, exist_ok=True)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    alpha = np.tile(np.linspace(0, 255, w).astype(np.uint8), (h, 1))
    colour = Image.fromarray(rgb)
    gray = colour.convert("L")
    path = lambda name: os.path.join(png_dir, name)
    gray.convert("1").save(path("gray-1bit.png"))
    gray.save(path("gray-8bit.png"))
    gray.save(path("gray-8bit-trns.png"), transparency=int(np.asarray(gray)[0, 0]))
    Image.merge("LA", (gray, Image.fromarray(alpha))).save(path("gray-alpha-8bit.png"))
    colour.save(path("rgb-8bit.png"))
    colour.save(path("rgb-8bit-trns.png"), transparency=tuple(int(v) for v in rgb[0, 0]))
    Image.merge("RGBA", (*colour.split(), Image.fromarray(alpha))).save(path("rgba-8bit.png"))
    for colours, bits in ((4, 2), (16, 4), (200, 8)):
        palette = colour.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        palette.save(path(f"palette-{bits}bit-trns.png"), bits=bits, transparency=bytes(range(0, 256, 256 // colours))[:colours])
    wide = rgb.astype(np.uint16) * 257 + np.arange(w, dtype=np.uint16)[None, :, None] % 251
    Image.fromarray(wide[:, :, 1], mode="I;16").save(path("gray-16bit.png"))
    cv2.imwrite(path("rgb-16bit.png"), cv2.cvtColor(wide, cv2.COLOR_RGB2BGR))
    cv2.imwrite(path("rgba-16bit.png"), np.dstack([cv2.cvtColor(wide, cv2.COLOR_RGB2BGR), alpha.astype(np.uint16) * 257]))
    magick = ["convert", path("rgb-8bit.png"), "+set", "date:create", "+set", "date:modify", "-define", "png:exclude-chunks=date,time"]
    subprocess.run([*magick, "-colorspace", "Gray", "-depth", "4", "-define", "png:color-type=0", "-define", "png:bit-depth=4", path("gray-4bit.png")], check=True)
    subprocess.run([*magick, "-interlace", "PNG", path("rgb-8bit-interlaced.png")], check=True)
    # Pillow and libpng never chose the Average filter here: row y of this one uses filter y mod 5.
    write_png_every_filter(path("rgba-8bit-every-filter.png"), np.dstack([rgb, alpha]))


def write_png_every_filter(path, rgba):
    """An 8-bit RGBA PNG whose row y is filtered with type y mod 5 (PNG spec section 9.2), by hand."""
    import struct
    import zlib

    h, w = rgba.shape[:2]
    rows = rgba.reshape(h, w * 4).astype(np.int32)
    out = bytearray()
    for y in range(h):
        x = rows[y]
        up = rows[y - 1] if y else np.zeros_like(x)
        left = np.concatenate([np.zeros(4, np.int32), x[:-4]])
        upleft = np.concatenate([np.zeros(4, np.int32), up[:-4]])
        p = left + up - upleft
        pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
        paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
        predictor = [np.zeros_like(x), left, up, (left + up) // 2, paeth][y % 5]
        out += bytes([y % 5]) + ((x - predictor) % 256).astype(np.uint8).tobytes()
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))


def main():
    args = sys.argv[1:]
    small = None
    if "--small" in args:
        i = args.index("--small")
        small = int(args[i + 1])
        del args[i : i + 2]
    seed = SEED
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i : i + 2]
    out_dir = args[0] if args else ".tmp/generated"
    rng = random.Random(seed)
    sources = [s for s in SOURCES if os.path.exists(os.path.join(DATA, s))]
    if small:
        sources = sources[:small]
    max_w, max_h = (512, 384) if small else (1024, 768)
    images = {s: cv2.imread(os.path.join(DATA, s), cv2.IMREAD_COLOR) for s in sources}
    manifest = []
    for kind in KINDS:
        os.makedirs(os.path.join(out_dir, kind), exist_ok=True)
    for i, src in enumerate(sources):
        base = crop(images[src], rng, max_w, max_h)
        other = images[sources[(i + 1) % len(sources)]]
        stem = os.path.splitext(os.path.basename(src))[0]
        for kind in KINDS:
            variant, region = make_variant(kind, base, other, rng)
            quality = rng.randint(80, 95)
            name = f"{kind}/{stem}.jpg"
            cv2.imwrite(os.path.join(out_dir, name), variant, [cv2.IMWRITE_JPEG_QUALITY, quality])
            manifest.append({"file": name, "kind": kind, "source": src, "quality": quality, "region": region, "width": variant.shape[1], "height": variant.shape[0]})
    if small:
        crop_img = images[sources[-1]][0:256, 0:320]
        cv2.imwrite(os.path.join(out_dir, "restart-interval.jpg"), crop_img, [cv2.IMWRITE_JPEG_QUALITY, 85, cv2.IMWRITE_JPEG_RST_INTERVAL, 3])
        cv2.imwrite(os.path.join(out_dir, "restart-none.jpg"), crop_img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        # Odd-sized single-component file (partial blocks) for the pixel decoder's grayscale path.
        gray = cv2.cvtColor(images[sources[-1]][0:203, 0:250], cv2.COLOR_BGR2GRAY)
        cv2.imwrite(os.path.join(out_dir, "grayscale.jpg"), gray, [cv2.IMWRITE_JPEG_QUALITY, 90])
        write_progressive(out_dir)
        write_pngs(out_dir, images[sources[-1]][0:97, 0:131])
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"seed": seed, "generator": "scripts/datagen/generate.py", "cases": manifest}, f, indent=1)
    print(f"{len(manifest)} files in {out_dir}")


if __name__ == "__main__":
    main()
