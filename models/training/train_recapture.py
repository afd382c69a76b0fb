"""Trains the recapture classifier, exports models/recapture.onnx and writes its held-out metrics.

Run with Debian's interpreter: `nice -n 10 /usr/bin/python3 models/training/train_recapture.py`.
"""
from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from common import REPO, auc, export_onnx, list_sources, load_rgb, update_manifest  # noqa: E402
from recapture_model import PATCH, RecaptureNet  # noqa: E402
from recapture_sim import make_set  # noqa: E402

SEED = 20261122
VERSION = "1.1.0"
TRAIN_COUNT = int(os.environ.get("RECAPTURE_TRAIN", 6000))
HELDOUT_COUNT = 1200
EPOCHS = int(os.environ.get("RECAPTURE_EPOCHS", 10))


def heldout_set() -> tuple[np.ndarray, np.ndarray, int]:
    """The held-out patches: only from held-out source photos, with their own seed (eval uses this too)."""
    photos = [load_rgb(s.path, 2000) for s in list_sources() if s.heldout]
    x, y = make_set(photos, HELDOUT_COUNT, seed=SEED + 1)
    return x, y, len(photos)


def train() -> None:
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    started = time.time()
    train_photos = [load_rgb(s.path, 2000) for s in list_sources() if not s.heldout]
    x_train, y_train = make_set(train_photos, TRAIN_COUNT, seed=SEED)
    x_held, y_held, held_sources = heldout_set()
    print(f"data: {len(x_train)} train patches from {len(train_photos)} photos, {len(x_held)} held-out from {held_sources}; {time.time() - started:.0f}s", flush=True)

    model = RecaptureNet()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=EPOCHS * (len(x_train) // 64))
    loss_fn = torch.nn.BCELoss()
    rng = np.random.default_rng(SEED)
    for epoch in range(EPOCHS):
        model.train()
        order = rng.permutation(len(x_train))
        total = 0.0
        for b in range(len(x_train) // 64):
            idx = order[b * 64 : (b + 1) * 64]
            batch = torch.from_numpy(x_train[idx]).permute(0, 3, 1, 2).float() / 255.0
            flips = torch.from_numpy(rng.random(len(idx)) < 0.5)
            batch[flips] = batch[flips].flip(3)  # mirror: screens and scenes are symmetric in this sense
            optimiser.zero_grad()
            loss = loss_fn(model(batch).squeeze(1), torch.from_numpy(y_train[idx]))
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        scores = predict(model, x_held)
        print(f"epoch {epoch + 1}: loss {total / (len(x_train) // 64):.4f} held-out AUC {auc(scores, y_held):.4f} ({time.time() - started:.0f}s)", flush=True)

    scores = predict(model, x_held)
    metrics = {
        "heldout_patches": int(len(y_held)),
        "heldout_source_photos": held_sources,
        "train_patches": int(len(y_train)),
        "train_source_photos": len(train_photos),
        "auc": round(auc(scores, y_held), 4),
        "accuracy_at_0_5": round(float(((scores >= 0.5) == (y_held == 1)).mean()), 4),
        "seed": SEED,
        "epochs": EPOCHS,
    }
    print(json.dumps(metrics))
    with open(os.path.join(REPO, "models", "recapture.metrics.json"), "w") as f:
        json.dump(metrics, f, indent=2)
    os.makedirs(os.path.join(os.path.dirname(__file__), "weights"), exist_ok=True)
    torch.save(model.state_dict(), os.path.join(os.path.dirname(__file__), "weights", "recapture.pt"))
    onnx_path = os.path.join(REPO, "models", "recapture.onnx")
    export_onnx(model, torch.zeros(1, 3, PATCH, PATCH), onnx_path,
                ["image"], ["probability"], {"image": {0: "batch"}, "probability": {0: "batch"}})
    update_manifest("recapture", "recapture-cnn", VERSION, onnx_path)


def predict(model: RecaptureNet, x: np.ndarray) -> np.ndarray:
    model.eval()
    out = []
    with torch.no_grad():
        for b in range(0, len(x), 128):
            batch = torch.from_numpy(x[b : b + 128]).permute(0, 3, 1, 2).float() / 255.0
            out.append(model(batch).squeeze(1).numpy())
    return np.concatenate(out)


if __name__ == "__main__":
    train()
