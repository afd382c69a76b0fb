"""Synthetic manipulations of real photos, with their pixel masks.

One sample is a TILE x TILE crop at "model scale": a region of TILE*f x TILE*f source pixels
(f = 1, 2 or 3, matching the Worker's integer box-downscale of large images) which is
  1. possibly manipulated in one region (random ellipse/polygon/rectangle, 3-30 % of the area):
     splice   - pasted from ANOTHER photo (rescaled, colour-matched a little, edges feathered or hard);
     copymove - copied from elsewhere in the SAME photo (shifted by a non-multiple of 8, sometimes
                scaled/rotated);
     inpaint  - filled by OpenCV inpainting (Telea or Navier-Stokes) like an object removal, or
                blurred and re-noised (retouching);
     resample - the region itself rescaled/rotated about its centre (enlarged/shrunk object);
  2. saved as JPEG at quality 60-95 (the source photos are camera JPEGs already, so unedited
     regions carry a double-compression history and edited ones break it);
  3. box-downscaled by f (the mask likewise, by area).
Half of the samples are unmanipulated and go through the same steps 2-3.
"""
from __future__ import annotations

import cv2
import numpy as np

from common import jpeg, random_crop

TILE = 128
KINDS = ["splice", "copymove", "inpaint", "resample"]


def box_downscale(img: np.ndarray, f: int) -> np.ndarray:
    """Mean over f x f blocks (remainder dropped), float64; the Worker does exactly this."""
    if f == 1:
        return img.astype(np.float64)
    h, w = img.shape[0] // f, img.shape[1] // f
    shape = (h, f, w, f) + img.shape[2:]
    return img[: h * f, : w * f].astype(np.float64).reshape(shape).mean(axis=(1, 3))


def random_mask(size: int, rng: np.random.Generator) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    area = rng.uniform(0.03, 0.3) * size * size
    r = np.sqrt(area / np.pi)
    cx, cy = rng.uniform(r, size - r, 2) if r < size / 2 else (size / 2, size / 2)
    shape = rng.choice(["ellipse", "polygon", "rect"])
    if shape == "ellipse":
        axes = (int(r * rng.uniform(0.6, 1.6)), int(r * rng.uniform(0.6, 1.6)))
        cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 255, -1)
    elif shape == "polygon":
        angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(5, 10))))
        radii = r * rng.uniform(0.6, 1.5, len(angles))
        pts = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1).astype(np.int32)
        cv2.fillPoly(mask, [pts], 255)
    else:
        w, h = r * rng.uniform(1.2, 2.2), r * rng.uniform(0.8, 1.6)
        cv2.rectangle(mask, (int(cx - w / 2), int(cy - h / 2)), (int(cx + w / 2), int(cy + h / 2)), 255, -1)
    return mask


def blend(base: np.ndarray, donor: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    alpha = mask.astype(np.float32) / 255.0
    if rng.random() < 0.6:
        alpha = cv2.GaussianBlur(alpha, (0, 0), rng.uniform(0.5, 3.0))
    alpha = alpha[..., None]
    return np.clip(base * (1 - alpha) + donor * alpha, 0, 255).astype(np.uint8)


def warp_about_centre(img: np.ndarray, scale: float, angle: float, shift: tuple[float, float]) -> np.ndarray:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    m[:, 2] += shift
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def manipulate(crop: np.ndarray, other: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    size = crop.shape[0]
    mask = random_mask(size, rng)
    kind = KINDS[int(rng.integers(len(KINDS)))]
    if kind == "splice":
        span = int(min(min(other.shape[:2]), size * rng.uniform(0.7, 1.4)))
        donor = cv2.resize(random_crop(other, span, rng), (size, size), interpolation=cv2.INTER_AREA if span > size else cv2.INTER_LINEAR)
        if rng.random() < 0.5:  # match the mean colour a little, as a careful forger would
            donor = np.clip(donor.astype(np.float32) - donor.mean((0, 1)) * 0.5 + crop.mean((0, 1)) * 0.5, 0, 255)
        out = blend(crop, donor.astype(np.float32), mask, rng)
    elif kind == "copymove":
        shift = tuple(float(v) for v in rng.uniform(-0.4, 0.4, 2) * size)
        scale, angle = (1.0, 0.0) if rng.random() < 0.6 else (rng.uniform(0.8, 1.25), rng.uniform(-20, 20))
        donor = warp_about_centre(crop, scale, angle, shift)
        out = blend(crop, donor.astype(np.float32), mask, rng)
    elif kind == "inpaint":
        if rng.random() < 0.6:
            method = cv2.INPAINT_TELEA if rng.random() < 0.5 else cv2.INPAINT_NS
            out = cv2.inpaint(crop, mask, 3, method)
        else:
            smooth = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), rng.uniform(1.5, 5.0))
            smooth += rng.normal(0, rng.uniform(0, 3), smooth.shape).astype(np.float32)
            out = blend(crop, smooth, mask, rng)
    else:  # resample
        donor = warp_about_centre(crop, rng.choice([rng.uniform(0.6, 0.9), rng.uniform(1.1, 1.6)]), rng.uniform(-15, 15), (0.0, 0.0))
        out = blend(crop, donor.astype(np.float32), mask, rng)
    return out, mask


def sample(photos: list[np.ndarray], rng: np.random.Generator, manipulated: bool) -> tuple[np.ndarray, np.ndarray]:
    """(TILE x TILE x 3 uint8 as the Worker would see it, TILE x TILE float mask 0..1)."""
    index = int(rng.integers(len(photos)))
    photo = photos[index]
    f = int(rng.choice([1, 2, 3], p=[0.5, 0.3, 0.2]))
    f = min(f, min(photo.shape[:2]) // TILE)
    crop = random_crop(photo, TILE * f, rng).copy()
    mask = np.zeros(crop.shape[:2], np.uint8)
    if manipulated:
        other = photos[(index + 1 + int(rng.integers(len(photos) - 1))) % len(photos)]
        crop, mask = manipulate(crop, other, rng)
    saved = jpeg(crop, int(rng.integers(60, 96)))
    tile = np.clip(np.round(box_downscale(saved, f)), 0, 255).astype(np.uint8) if f > 1 else saved
    return tile, (box_downscale(mask, f) / 255.0).astype(np.float32)


def make_set(photos: list[np.ndarray], count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs, masks, labels = [], [], []
    for i in range(count):
        x, m = sample(photos, rng, manipulated=i % 2 == 0)
        xs.append(x); masks.append(m); labels.append(1.0 if i % 2 == 0 else 0.0)
    return np.stack(xs), np.stack(masks), np.array(labels, np.float32)


if __name__ == "__main__":  # contact sheet: python3 manipulation_sim.py /tmp/manip.png
    import sys

    from common import list_sources, load_rgb

    photos = [load_rgb(s.path, 2000) for s in list_sources()[:12]]
    x, m, y = make_set(photos, 16, seed=5)
    over = [np.hstack([x[i], np.repeat((m[i] * 255).astype(np.uint8)[..., None], 3, 2)]) for i in range(16)]
    sheet = np.vstack([np.hstack(over[r * 4 : r * 4 + 4]) for r in range(4)])
    cv2.imwrite(sys.argv[1], cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
