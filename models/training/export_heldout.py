"""Writes the held-out evaluation sets as raw arrays for `npm run eval` (scripts/eval/ml.eval.ts).

The sets are regenerated deterministically from the held-out source photos with the same seeds the
training scripts used for their held-out metrics, so the eval reproduces those figures from the
committed ONNX files. Usage: /usr/bin/python3 models/training/export_heldout.py OUTDIR
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import train_manipulation  # noqa: E402
import train_recapture  # noqa: E402
from common import list_sources  # noqa: E402


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    x, y, n = train_recapture.heldout_set()
    x.astype(np.uint8).tofile(os.path.join(out, "recapture-x.u8"))
    y.astype(np.uint8).tofile(os.path.join(out, "recapture-y.u8"))
    mx, mm, my, mn = train_manipulation.heldout_set()
    mx.astype(np.uint8).tofile(os.path.join(out, "manipulation-x.u8"))
    cells = mm.reshape(len(mm), mm.shape[1] // 4, 4, mm.shape[2] // 4, 4).mean(axis=(2, 4))
    (cells >= 0.5).astype(np.uint8).tofile(os.path.join(out, "manipulation-cells.u8"))  # truth per heatmap cell
    my.astype(np.uint8).tofile(os.path.join(out, "manipulation-y.u8"))
    sources = list_sources()
    meta = {
        "recapture": {"count": int(len(y)), "size": int(x.shape[1]), "sourcePhotos": n},
        "manipulation": {"count": int(len(my)), "size": int(mx.shape[1]), "sourcePhotos": mn},
        "heldoutPhotos": [s.path for s in sources if s.heldout],
        "trainPhotos": [s.path for s in sources if not s.heldout],
    }
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
