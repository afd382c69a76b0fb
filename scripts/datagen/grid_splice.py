#!/usr/bin/python3
"""
Fixture for the earlier-JPEG-grid check (test/forensics/image/jpeg-grid.test.ts), written to
test/fixtures/generated/grid/: the 512x384 camera crop of localised_jpeg.py (DSCN0010 on the camera's 8x8
grid) with a 160x120 patch of a coarsely saved JPEG (scenetext02, DC step 13) pasted so that the patch's
own grid lies 3 px right and 5 px lower than the picture's (splice-shifted.jpg, region and offset in
manifest.json), saved with OpenCV at quality 92; and a 512x384 crop of scenetext02 itself 3 px right and 5 px
lower than its grid (crop-shifted.jpg): the earlier grid is everywhere, so no area stands out.

Usage: /usr/bin/python3 scripts/datagen/grid_splice.py  (deterministic: no randomness)
"""
import json
import os
import sys

import cv2

sys.path.insert(0, os.path.dirname(__file__))
from localised_jpeg import DATA, QUALITY  # noqa: E402  the same camera crop and quality as the localised fixtures

GRID_OUT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "generated", "grid")


def main():
    base = cv2.imread(os.path.join(DATA, "exif-samples/jpg/gps/DSCN0010.jpg"), cv2.IMREAD_COLOR)[64 : 64 + 384, 64 : 64 + 512].copy()
    other = cv2.imread(os.path.join(DATA, "photos/opencv-doc/scenetext02.jpg"), cv2.IMREAD_COLOR)
    region = {"x": 203, "y": 101, "w": 160, "h": 120}
    source = {"x": 200, "y": 96}  # (203 - 200, 101 - 96) = (3, 5): the patch's grid offset in the picture
    spliced = base.copy()
    spliced[region["y"] : region["y"] + region["h"], region["x"] : region["x"] + region["w"]] = other[
        source["y"] : source["y"] + region["h"], source["x"] : source["x"] + region["w"]
    ]
    os.makedirs(GRID_OUT, exist_ok=True)
    cv2.imwrite(os.path.join(GRID_OUT, "splice-shifted.jpg"), spliced, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    cv2.imwrite(os.path.join(GRID_OUT, "crop-shifted.jpg"), other[5 : 5 + 384, 3 : 3 + 512], [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    cases = [
        {"file": "splice-shifted.jpg", "region": region, "gridOffset": {"dx": 3, "dy": 5}},
        {"file": "crop-shifted.jpg", "region": None, "gridOffset": {"dx": 5, "dy": 3}},
    ]
    with open(os.path.join(GRID_OUT, "manifest.json"), "w") as f:
        json.dump({"generator": "scripts/datagen/grid_splice.py", "quality": QUALITY, "cases": cases}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
