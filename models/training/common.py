"""Shared pieces of the training code: sources, held-out split, camera pipeline, ONNX export.

Every random choice goes through a numpy Generator seeded from a fixed integer, so one command
(`models/training/train_all.sh`) rebuilds identical data sets and, up to floating-point
non-determinism of the CPU kernels, identical weights.
"""
from __future__ import annotations

import glob
import hashlib
import os
from dataclasses import dataclass

import cv2
import numpy as np

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED_DATA = os.path.abspath(os.path.join(REPO, "..", "shared", "data"))
# Extra photos unpacked from Debian packages by fetch_extra.sh (optional; see the model cards).
EXTRA_DIR = os.environ.get("ML_EXTRA_PHOTOS", "/tmp/ml-extra-photos")
MIN_SIDE = 400  # smaller sources (thumbnails) carry too little texture to crop from


@dataclass
class Source:
    path: str
    heldout: bool


def list_sources() -> list[Source]:
    """All usable source photos, each assigned to train or held-out by a hash of its name.

    The split is by SOURCE PHOTO: no crop, simulation or manipulation of a held-out photo is ever
    seen in training. Same-shot pairs (Elephants at three sizes, ela_original/ela_modified,
    leuvenA/B, the orientation and HDR sample series) are grouped under one key so they land on the same side.
    """
    patterns = [
        f"{SHARED_DATA}/photos/**/*.jpg",
        f"{SHARED_DATA}/exif-samples/jpg/**/*.jpg",
        f"{EXTRA_DIR}/**/*.jpg",
    ]
    seen_groups: set[str] = set()
    sources = []
    for pattern in patterns:
        for path in sorted(p for p in glob.glob(pattern, recursive=True) if "/invalid/" not in p):
            key = group_key(path)
            if pattern.startswith(EXTRA_DIR) and key in seen_groups:
                continue  # the same shot already comes from shared/data
            img = cv2.imread(path, cv2.IMREAD_REDUCED_COLOR_8)  # cheap size probe
            if img is None or min(img.shape[:2]) * 8 < MIN_SIDE:
                continue
            seen_groups.add(key)
            sources.append(Source(path, heldout=hashlib.sha256(key.encode()).digest()[0] % 5 == 0))
    return sources



def group_key(path: str) -> str:
    name = os.path.splitext(os.path.basename(path))[0].lower()
    for prefix in ("elephants", "ela_", "leuven", "landscape_", "portrait_", "iphone_hdr"):
        if name.startswith(prefix):
            return prefix
    return name


def load_rgb(path: str, max_side: int = 4000) -> np.ndarray:
    """Decoded RGB uint8; very large sources are halved by area averaging to keep memory small."""
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    while max(img.shape[:2]) > max_side:
        img = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def to_u8(linear01: np.ndarray) -> np.ndarray:
    return np.clip(linear01 * 255.0 + 0.5, 0, 255).astype(np.uint8)


def camera_finish(img01: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Sensor noise, a mild colour/gamma change and JPEG: applied to positives AND negatives,
    so that none of these alone separates the classes."""
    img = img01.astype(np.float32)
    gains = 1.0 + rng.normal(0, 0.04 * strength, size=3).astype(np.float32)
    img = np.clip(img * gains, 0, 1) ** np.float32(rng.uniform(1 - 0.12 * strength, 1 + 0.12 * strength))
    sigma = rng.uniform(0.002, 0.02 * strength)
    img = img + rng.normal(0, 1, img.shape).astype(np.float32) * np.sqrt(sigma**2 + 0.01 * sigma * img)
    return jpeg(to_u8(img), int(rng.integers(60, 96)))


def random_crop(img: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    y = int(rng.integers(0, h - size + 1))
    x = int(rng.integers(0, w - size + 1))
    return img[y : y + size, x : x + size]


def export_onnx(model, example, path: str, input_names, output_names, dynamic_axes) -> None:
    import torch

    model.eval()
    torch.onnx.export(model, example, path, opset_version=13, input_names=input_names,
                      output_names=output_names, dynamic_axes=dynamic_axes, do_constant_folding=True)
    import onnx

    onnx.checker.check_model(onnx.load(path))


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve by the rank-sum formula (ties get average rank)."""
    order = np.argsort(scores, kind="mergesort")
    ranks = np.empty(len(scores), dtype=np.float64)
    sorted_scores = scores[order]
    i = 0
    while i < len(scores):
        j = i
        while j + 1 < len(scores) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def update_manifest(key: str, name: str, version: str, onnx_path: str) -> None:
    """Records name, version and SHA-256 of an exported model in models/manifest.json (read by the Worker)."""
    import json

    path = os.path.join(REPO, "models", "manifest.json")
    manifest = json.load(open(path)) if os.path.exists(path) else {}
    with open(onnx_path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    manifest[key] = {"name": name, "version": version, "file": os.path.basename(onnx_path), "sha256": digest}
    with open(path, "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
