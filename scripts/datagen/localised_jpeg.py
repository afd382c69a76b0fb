#!/usr/bin/python3
"""
Small fixtures for the localised JPEG detectors (test/forensics/image/jpeg-localised.test.ts), written to
test/fixtures/generated/localised/: a 512x384 crop of a camera JPEG (DSCN0010, quality about 84) on the
camera's 8x8 grid, saved again with OpenCV at quality 92 as it is (resave.jpg), with a 160x120 patch of
another camera photo pasted off the grid (splice.jpg, region in manifest.json) and with a rectangle
brightened (bright.jpg). The camera's quantisation survives in the untouched area of all three.

Usage: /usr/bin/python3 scripts/datagen/localised_jpeg.py  (deterministic: no randomness)
"""
import json
import os

import cv2
import numpy as np

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "generated", "localised")
QUALITY = 92


def main():
    base = cv2.imread(os.path.join(DATA, "exif-samples/jpg/gps/DSCN0010.jpg"), cv2.IMREAD_COLOR)[64 : 64 + 384, 64 : 64 + 512].copy()
    other = cv2.imread(os.path.join(DATA, "photos/opencv-doc/scenetext02.jpg"), cv2.IMREAD_COLOR)
    os.makedirs(OUT, exist_ok=True)
    splice_region = {"x": 203, "y": 101, "w": 160, "h": 120}
    bright_region = {"x": 283, "y": 45, "w": 144, "h": 112}
    spliced = base.copy()
    r = splice_region
    spliced[r["y"] : r["y"] + r["h"], r["x"] : r["x"] + r["w"]] = other[37 : 37 + r["h"], 91 : 91 + r["w"]]
    brightened = base.copy()
    r = bright_region
    patch = brightened[r["y"] : r["y"] + r["h"], r["x"] : r["x"] + r["w"]].astype(np.float32)
    brightened[r["y"] : r["y"] + r["h"], r["x"] : r["x"] + r["w"]] = np.clip(patch * 1.2 + 8, 0, 255).astype(np.uint8)
    cases = [("resave.jpg", base, None), ("splice.jpg", spliced, splice_region), ("bright.jpg", brightened, bright_region)]
    for name, image, _ in cases:
        cv2.imwrite(os.path.join(OUT, name), image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"generator": "scripts/datagen/localised_jpeg.py", "quality": QUALITY, "cases": [{"file": n, "region": r} for n, _, r in cases]}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
