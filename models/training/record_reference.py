"""Writes the parity fixtures and the outputs the Worker must reproduce (test/ml/*.parity.test.ts).

Fixtures are lossless PNGs (so photon in the Worker and OpenCV here decode identical pixels); the
recorded outputs come from the trained PyTorch weights that were exported to ONNX, passed through the
same preprocessing functions the Worker reimplements in TypeScript.
Run: /usr/bin/python3 models/training/record_reference.py
"""
from __future__ import annotations

import json
import os
import sys

import cv2
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import REPO, SHARED_DATA, load_rgb  # noqa: E402
import recapture_model as rm  # noqa: E402
from recapture_sim import recapture  # noqa: E402

FIXTURES = os.path.join(REPO, "test", "ml", "fixtures")
WEIGHTS = os.path.join(os.path.dirname(__file__), "weights")


def write_png(name: str, rgb: np.ndarray) -> np.ndarray:
    cv2.imwrite(os.path.join(FIXTURES, name), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return cv2.cvtColor(cv2.imread(os.path.join(FIXTURES, name)), cv2.COLOR_BGR2RGB)


def fixtures() -> dict[str, np.ndarray]:
    """Small images from HELD-OUT opencv-doc photos (Apache-2.0/BSD-3-Clause, see test/ml/fixtures/SOURCES.md)."""
    rng = np.random.default_rng(99)
    scene = load_rgb(f"{SHARED_DATA}/photos/opencv-doc/scenetext02.jpg")
    real = scene[300:600, 400:800].copy()                    # 400 x 300 real photo crop
    shown = load_rgb(f"{SHARED_DATA}/photos/opencv-doc/scenetext01.jpg")
    tiles = [recapture(shown, rng) for _ in range(6)]
    screen = np.vstack([np.hstack(tiles[:3]), np.hstack(tiles[3:])])  # 384 x 256 recaptured tiles
    screen = np.vstack([screen, np.full((100, 384, 3), 128, np.uint8)])  # + a flat band (skipped patches)
    write_png("tiny.png", scene[:80, :100].copy())  # below one patch: must be refused, not inferred
    return {"real-crop.png": write_png("real-crop.png", real), "screen-tiles.png": write_png("screen-tiles.png", screen)}


def recapture_reference(images: dict[str, np.ndarray]) -> dict:
    model = rm.RecaptureNet()
    model.load_state_dict(torch.load(os.path.join(WEIGHTS, "recapture.pt")))
    model.eval()
    out = {}
    for name, rgb in images.items():
        tensor, origins, flat = rm.image_patches(rgb)
        with torch.no_grad():
            probabilities = model(torch.from_numpy(tensor)).squeeze(1).numpy()
        out[name] = {
            "origins": [list(o) for o in origins],
            "flat": flat,
            "probabilities": [float(p) for p in probabilities],
            "probability": rm.aggregate(probabilities),
        }
    return out


if __name__ == "__main__":
    torch.set_num_threads(1)
    os.makedirs(FIXTURES, exist_ok=True)
    images = fixtures()
    reference = {"recapture": recapture_reference(images)}
    if os.path.exists(os.path.join(WEIGHTS, "manipulation.pt")):
        from record_manipulation import manipulation_reference

        reference["manipulation"] = manipulation_reference(images)
        import manipulation_model as mm

        reference["manipulationTileAxes"] = {str(n): list(mm.tile_axis(n)) for n in (64, 100, 259, 260, 700, 1023, 1024)}
    with open(os.path.join(FIXTURES, "reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
    print(json.dumps(reference)[:600])
