"""Manipulation localiser and the tiling the Worker reproduces (src/scanner/ml/manipulation-input.ts)."""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from manipulation_sim import box_downscale

MAX_SIDE = 1024   # larger images are box-downscaled by an integer factor to at most this
TILE = 256        # inference tile (training uses 128; the network is fully convolutional)
MIN_SIDE = 64
OVERLAP = 32      # neighbouring tiles overlap at least this much, so tile borders can be discarded


class ManipulationNet(nn.Module):
    """Input N x 3 x H x W RGB 0..1 (H, W multiples of 4). Outputs:
    heatmap N x 1 x H/4 x W/4 - P(pixel block manipulated); score N x 1 - P(tile manipulated)."""

    def __init__(self) -> None:
        super().__init__()
        def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        self.features = nn.Sequential(
            *block(6, 12), *block(12, 24, stride=2), *block(24, 32, stride=2), *block(32, 32, dilation=2), *block(32, 32, dilation=4),
        )
        self.head = nn.Conv2d(32, 1, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # Noise residual: the image minus its 3x3 local mean, per channel, amplified. Part of the graph,
        # so the Worker feeds plain RGB and cannot get the residual wrong.
        residual = (x - F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, stride=1)) * 8.0
        logits = self.head(self.features(torch.cat([x - 0.5, residual], dim=1)))
        pooled = F.avg_pool2d(logits, 3, stride=1, padding=1, count_include_pad=False)
        score = torch.sigmoid(torch.amax(pooled, dim=(2, 3)))
        return torch.sigmoid(logits), score


def tile_axis(size: int) -> tuple[int, list[int]]:
    """Tile length (a multiple of 4, at most TILE) and the tile starts along one axis, evenly spread
    with at least OVERLAP pixels of overlap (the Worker keeps the cells farthest from tile borders)."""
    length = min(TILE, size - size % 4)
    if length >= size - 3:
        return length, [0]
    count = 1 + -(-(size - length) // (length - OVERLAP))
    return length, [(i * (size - length)) // (count - 1) for i in range(count)]


def model_input(rgb: np.ndarray) -> tuple[np.ndarray, int]:
    """The image at model scale: float64 0..255 (H x W x 3) and the integer factor used."""
    h, w = rgb.shape[:2]
    factor = max(1, -(-max(h, w) // MAX_SIDE))
    return box_downscale(rgb[..., :3], factor), factor


def tiles(scaled: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """(x, y, 1 x 3 x th x tw float32 0..1) for every tile, row by row."""
    h, w = scaled.shape[:2]
    tw, xs = tile_axis(w)
    th, ys = tile_axis(h)
    out = []
    for y in ys:
        for x in xs:
            tile = scaled[y : y + th, x : x + tw] / 255.0
            out.append((x, y, np.transpose(tile, (2, 0, 1))[None].astype(np.float32)))
    return out
