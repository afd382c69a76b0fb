"""Recapture classifier and the patch sampling that the Worker reproduces (src/scanner/ml/recapture-input.ts)."""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

PATCH = 128
GRID_MAX = 6          # at most GRID_MAX x GRID_MAX patches per image
FLAT_LUMA_STD = 2.0   # patches flatter than this (0..255 luma) say nothing about a screen


class RecaptureNet(nn.Module):
    """Input N x 3 x 128 x 128 RGB in 0..1 (native resolution, no resampling); output P(recapture)."""

    def __init__(self) -> None:
        super().__init__()
        def block(cin: int, cout: int, stride: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        self.features = nn.Sequential(
            *block(3, 12, 1), *block(12, 24, 2), *block(24, 32, 2), *block(32, 48, 2), *block(48, 64, 2),
        )
        self.head = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.features(x - 0.5)
        return torch.sigmoid(self.head(features.mean(dim=(2, 3))))


def patch_origins(width: int, height: int) -> list[tuple[int, int]]:
    """Top-left corners of the evenly spread patch grid, row by row (same rule as the Worker)."""
    def axis(size: int) -> list[int]:
        count = min(GRID_MAX, size // PATCH)
        if count <= 1:
            return [(size - PATCH) // 2]
        return [(i * (size - PATCH)) // (count - 1) for i in range(count)]
    return [(x, y) for y in axis(height) for x in axis(width)]


def luma_std(rgb_patch: np.ndarray) -> float:
    """Population standard deviation of 0.299R + 0.587G + 0.114B, computed in float64."""
    p = rgb_patch.astype(np.float64)
    luma = 0.299 * p[..., 0] + 0.587 * p[..., 1] + 0.114 * p[..., 2]
    return float(luma.std())


def image_patches(rgb: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]], int]:
    """Informative patches as N x 3 x 128 x 128 float32 in 0..1, their origins, and how many were flat."""
    height, width = rgb.shape[:2]
    kept, origins, flat = [], [], 0
    for x, y in patch_origins(width, height):
        patch = rgb[y : y + PATCH, x : x + PATCH, :3]
        if luma_std(patch) < FLAT_LUMA_STD:
            flat += 1
            continue
        kept.append(np.transpose(patch, (2, 0, 1)).astype(np.float32) / np.float32(255.0))
        origins.append((x, y))
    tensor = np.stack(kept) if kept else np.zeros((0, 3, PATCH, PATCH), np.float32)
    return tensor, origins, flat


def aggregate(probabilities: np.ndarray) -> float:
    """Image score: mean of the upper half of the patch probabilities (a screen rarely fills the
    whole frame, so the bezel and room must not dilute it; one odd texture patch must not decide)."""
    ordered = np.sort(probabilities)[::-1]
    top = ordered[: (len(ordered) + 1) // 2]
    return float(top.mean())
