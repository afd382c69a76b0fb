"""Trains the manipulation localiser, exports models/manipulation.onnx and writes its held-out metrics.

Run with Debian's interpreter: `nice -n 10 /usr/bin/python3 models/training/train_manipulation.py`.
"""
from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from common import REPO, auc, export_onnx, list_sources, load_rgb, update_manifest  # noqa: E402
from manipulation_model import ManipulationNet  # noqa: E402
from manipulation_sim import TILE, make_set  # noqa: E402

SEED = 20261123
VERSION = "1.0.0"
TRAIN_COUNT = int(os.environ.get("MANIPULATION_TRAIN", 5000))
HELDOUT_COUNT = 800
EPOCHS = int(os.environ.get("MANIPULATION_EPOCHS", 6))


def heldout_set():
    photos = [load_rgb(s.path, 3000) for s in list_sources() if s.heldout]
    x, m, y = make_set(photos, HELDOUT_COUNT, seed=SEED + 1)
    return x, m, y, len(photos)


def to_tensor(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255.0


def predict(model: ManipulationNet, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    model.eval()
    heat, score = [], []
    with torch.no_grad():
        for b in range(0, len(x), 64):
            h, s = model(to_tensor(x[b : b + 64]))
            heat.append(h.squeeze(1).numpy()); score.append(s.squeeze(1).numpy())
    return np.concatenate(heat), np.concatenate(score)


def pixel_metrics(heat: np.ndarray, masks: np.ndarray, labels: np.ndarray) -> dict:
    """Pixel-level AUC and mean IoU@0.5 on manipulated held-out tiles (mask at heatmap resolution)."""
    small = masks.reshape(len(masks), TILE // 4, 4, TILE // 4, 4).mean(axis=(2, 4))
    pos = labels == 1
    truth = (small[pos] >= 0.5).ravel().astype(np.float32)
    ious = []
    for h, m in zip(heat[pos], small[pos] >= 0.5):
        pred = h >= 0.5
        union = (pred | m).sum()
        ious.append((pred & m).sum() / union if union else 1.0)
    return {"pixel_auc": round(auc(heat[pos].ravel(), truth), 4), "mean_iou_at_0_5": round(float(np.mean(ious)), 4)}


def train() -> None:
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    started = time.time()
    photos = [load_rgb(s.path, 3000) for s in list_sources() if not s.heldout]
    x_train, m_train, y_train = make_set(photos, TRAIN_COUNT, seed=SEED)
    x_held, m_held, y_held, held_sources = heldout_set()
    print(f"data: {len(x_train)} train tiles from {len(photos)} photos, {len(x_held)} held-out from {held_sources}; {time.time() - started:.0f}s", flush=True)
    targets = torch.from_numpy(m_train.reshape(len(m_train), TILE // 4, 4, TILE // 4, 4).mean(axis=(2, 4)))

    model = ManipulationNet()
    steps = EPOCHS * (len(x_train) // 32)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    rng = np.random.default_rng(SEED)
    for epoch in range(EPOCHS):
        model.train()
        order = rng.permutation(len(x_train))
        total = 0.0
        for b in range(len(x_train) // 32):
            idx = order[b * 32 : (b + 1) * 32]
            heat, score = model(to_tensor(x_train[idx]))
            # Pixel loss weights manipulated blocks up (they are a minority) + an image-level loss.
            target = targets[idx]
            weight = 1.0 + 4.0 * target
            loss = F.binary_cross_entropy(heat.squeeze(1), target, weight=weight) + 0.5 * F.binary_cross_entropy(score.squeeze(1), torch.from_numpy(y_train[idx]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        _, scores = predict(model, x_held)
        print(f"epoch {epoch + 1}: loss {total / (len(x_train) // 32):.4f} held-out image AUC {auc(scores, y_held):.4f} ({time.time() - started:.0f}s)", flush=True)

    heat, scores = predict(model, x_held)
    metrics = {
        "heldout_tiles": int(len(y_held)),
        "heldout_source_photos": held_sources,
        "train_tiles": int(len(y_train)),
        "train_source_photos": len(photos),
        "image_auc": round(auc(scores, y_held), 4),
        "image_accuracy_at_0_5": round(float(((scores >= 0.5) == (y_held == 1)).mean()), 4),
        **pixel_metrics(heat, m_held, y_held),
        "seed": SEED,
        "epochs": EPOCHS,
    }
    print(json.dumps(metrics))
    with open(os.path.join(REPO, "models", "manipulation.metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
    os.makedirs(os.path.join(os.path.dirname(__file__), "weights"), exist_ok=True)
    torch.save(model.state_dict(), os.path.join(os.path.dirname(__file__), "weights", "manipulation.pt"))
    onnx_path = os.path.join(REPO, "models", "manipulation.onnx")
    export_onnx(model, torch.zeros(1, 3, 256, 256), onnx_path, ["image"], ["heatmap", "score"],
                {"image": {0: "batch", 2: "height", 3: "width"}, "heatmap": {0: "batch", 2: "h4", 3: "w4"}, "score": {0: "batch"}})
    update_manifest("manipulation", "manipulation-fcn", VERSION, onnx_path)


if __name__ == "__main__":
    train()
