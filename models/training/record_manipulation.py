"""Reference outputs of the manipulation model for the parity test (called by record_reference.py)."""
from __future__ import annotations

import os

import numpy as np
import torch

import manipulation_model as mm

WEIGHTS = os.path.join(os.path.dirname(__file__), "weights")


def manipulation_reference(images: dict[str, np.ndarray]) -> dict:
    model = mm.ManipulationNet()
    model.load_state_dict(torch.load(os.path.join(WEIGHTS, "manipulation.pt")))
    model.eval()
    out = {}
    for name, rgb in images.items():
        scaled, factor = mm.model_input(rgb)
        tiles = []
        for x, y, tensor in mm.tiles(scaled):
            with torch.no_grad():
                heat, score = model(torch.from_numpy(tensor))
            heat = heat[0, 0].numpy()
            tiles.append({
                "x": x, "y": y, "width": tensor.shape[3], "height": tensor.shape[2],
                "score": float(score[0, 0]),
                # A fixed sample of heatmap cells (every 7th) keeps the file small but covers the tile.
                "heatSample": [float(v) for v in heat.ravel()[::7]],
            })
        out[name] = {"factor": factor, "width": scaled.shape[1], "height": scaled.shape[0], "tiles": tiles}
    return out
