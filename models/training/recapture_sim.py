"""Synthetic screen/print recaptures and the real-photo negatives they are contrasted with.

A positive is built like the physical process it imitates:
  1. content: a crop of a real photo, resampled to "display pixels";
  2. display: each display pixel becomes a k x k block of subpixels (RGB or BGR stripes with a dark
     black-matrix row, a PenTile-like RG/BG layout) or, for printouts, a CMY halftone dot screen;
     display gamma and white point are shifted;
  3. camera: the subpixel image is seen through a lens (Gaussian blur = optics + defocus) and sampled
     by the sensor at a random scale (0.6-6 camera pixels per display pixel) and angle, which is
     what produces moire when the scale is near or below the Nyquist limit; glare adds a soft bright
     blob;
  4. camera_finish: sensor noise, colour/gamma change and JPEG recompression (also applied to negatives).
Negatives are real photo crops at native or reduced scale through the same camera_finish, and
confounders: the most textured crops of a photo, and synthetic woven/striped textures (fabric,
blinds, meshes) blended into photos, some fine enough to alias in the "camera" too.
"""
from __future__ import annotations

import cv2
import numpy as np

from common import camera_finish, random_crop, to_u8

PATCH = 128


def subpixel_mask(layout: str, k: int) -> np.ndarray:
    """k x k x 3 transmission of one display pixel (1 = open subpixel of that colour)."""
    mask = np.zeros((k, k, 3), np.float32)
    if layout in ("rgb", "bgr"):
        order = [0, 1, 2] if layout == "rgb" else [2, 1, 0]
        cols = np.array_split(np.arange(k), 3)
        for channel, cs in zip(order, cols):
            mask[:, cs, channel] = 1.0
        mask[k - 1, :, :] *= 0.25  # black matrix between rows
    else:  # "pentile": green everywhere at half width, red/blue alternate by row
        half = k // 2
        mask[:, half:, 1] = 1.0
        mask[: k // 2, :half, 0] = 1.0
        mask[k // 2 :, :half, 2] = 1.0
    return mask / mask.mean(axis=(0, 1), keepdims=True).clip(1e-3)  # keep each colour's mean brightness


def halftone(content: np.ndarray, period: float, rng: np.random.Generator) -> np.ndarray:
    """CMY dot-screen print of content (values 0..1) on a grid `period` pixels wide."""
    h, w = content.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = np.ones_like(content)
    for channel, angle in zip(range(3), (15.0, 75.0, 0.0)):
        t = np.deg2rad(angle + rng.uniform(-3, 3))
        u = (xx * np.cos(t) + yy * np.sin(t)) * 2 * np.pi / period
        v = (-xx * np.sin(t) + yy * np.cos(t)) * 2 * np.pi / period
        screen = (np.cos(u) * np.cos(v) + 1) / 2  # 0..1 threshold pattern
        ink = 1.0 - content[..., channel]
        out[..., channel] = np.where(ink > screen, 0.08, 0.95)
    return out


def recapture(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One PATCH x PATCH uint8 RGB photo of a screen or printout showing part of `photo`."""
    cam_per_display = float(np.exp(rng.uniform(np.log(0.6), np.log(6.0))))
    display = int(np.ceil(PATCH / cam_per_display * 1.6)) + 4
    span = int(min(min(photo.shape[:2]), max(8, display * rng.uniform(0.6, 2.5))))
    content = cv2.resize(random_crop(photo, span, rng), (display, display), interpolation=cv2.INTER_AREA)
    content = (content.astype(np.float32) / 255.0) ** np.float32(rng.uniform(0.8, 1.25))
    content *= (1.0 + rng.normal(0, 0.06, 3)).astype(np.float32)

    kind = rng.choice(["rgb", "bgr", "pentile", "print"], p=[0.4, 0.15, 0.2, 0.25])
    k = int(rng.integers(3, 6))
    if kind == "print":
        big = cv2.resize(content, (display * k, display * k), interpolation=cv2.INTER_LINEAR)
        panel = halftone(np.clip(big, 0, 1), period=k * rng.uniform(0.8, 1.6), rng=rng)
    else:
        panel = np.kron(content, np.ones((k, k, 1), np.float32)) * np.tile(subpixel_mask(kind, k), (display, display, 1))

    # Camera: subpixel units per camera pixel, rotation about the patch centre, lens blur before sampling.
    step = k / cam_per_display
    blur = step * rng.uniform(0.15, 0.6) + (rng.uniform(0, 1.5 * k) if rng.random() < 0.25 else 0.0)
    panel = cv2.GaussianBlur(panel, (0, 0), sigmaX=max(blur, 0.3))
    angle = np.deg2rad(rng.uniform(-10, 10)) if rng.random() < 0.8 else np.deg2rad(rng.uniform(-45, 45))
    c, s = np.cos(angle) * step, np.sin(angle) * step
    centre = panel.shape[0] / 2 + rng.uniform(-k, k)
    affine = np.array([[c, -s, centre - (c - s) * PATCH / 2], [s, c, centre - (s + c) * PATCH / 2]], np.float32)
    shot = cv2.warpAffine(panel, affine, (PATCH, PATCH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REFLECT)

    if rng.random() < 0.35:  # glare: a soft specular blob on the glass
        yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32)
        cy, cx = rng.uniform(-0.3, 1.3, 2) * PATCH
        r = rng.uniform(0.2, 1.0) * PATCH
        shot = shot + rng.uniform(0.1, 0.6) * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r * r))[..., None]
    shot = shot * rng.uniform(0.7, 1.1)
    return camera_finish(np.clip(shot, 0, 1), rng)


def real_patch(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A real photo crop: native scale most of the time, sometimes downscaled like a resized upload."""
    scale = 1.0 if rng.random() < 0.6 else rng.uniform(0.3, 1.0)
    span = min(min(photo.shape[:2]), int(round(PATCH / scale)))
    crop = random_crop(photo, span, rng)
    if span != PATCH:
        crop = cv2.resize(crop, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    return camera_finish(crop.astype(np.float32) / 255.0, rng, strength=0.7)


def textured_patch(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Confounder: the most detailed of several crops, or a woven/striped texture over a photo."""
    if rng.random() < 0.5:
        candidates = [random_crop(photo, PATCH, rng) for _ in range(8)]
        detail = [cv2.Laplacian(cv2.cvtColor(c, cv2.COLOR_RGB2GRAY), cv2.CV_32F).var() for c in candidates]
        return camera_finish(candidates[int(np.argmax(detail))].astype(np.float32) / 255.0, rng, strength=0.7)
    base = random_crop(photo, PATCH, rng).astype(np.float32) / 255.0
    yy, xx = np.mgrid[0:PATCH * 2, 0:PATCH * 2].astype(np.float32)
    t = rng.uniform(0, np.pi)
    period_u, period_v = rng.uniform(2.2, 12.0, 2)
    u = np.sin((xx * np.cos(t) + yy * np.sin(t)) * 2 * np.pi / period_u)
    v = np.sin((-xx * np.sin(t) + yy * np.cos(t)) * 2 * np.pi / period_v)
    weave = rng.choice(["fabric", "stripes", "mesh"])
    pattern = {"fabric": u * v, "stripes": np.sign(u), "mesh": np.maximum(np.abs(u), np.abs(v)) ** 4}[weave]
    pattern = cv2.GaussianBlur(pattern.astype(np.float32), (0, 0), rng.uniform(0.3, 1.2))
    pattern = cv2.resize(pattern, (PATCH, PATCH), interpolation=cv2.INTER_LINEAR if rng.random() < 0.5 else cv2.INTER_AREA)
    colour = rng.uniform(0.2, 1.0, 3).astype(np.float32)
    alpha = rng.uniform(0.3, 1.0)
    textured = base * (1 - alpha) + alpha * colour * (0.5 + 0.45 * pattern[..., None])
    return camera_finish(np.clip(textured, 0, 1), rng, strength=0.7)


def make_set(photos: list[np.ndarray], count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`count` patches (half recaptures, half real of which a third are confounders), NHWC uint8."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for i in range(count):
        photo = photos[int(rng.integers(len(photos)))]
        if i % 2 == 0:
            xs.append(recapture(photo, rng)); ys.append(1)
        elif i % 6 == 1:
            xs.append(textured_patch(photo, rng)); ys.append(0)
        else:
            xs.append(real_patch(photo, rng)); ys.append(0)
    return np.stack(xs), np.array(ys, np.float32)


if __name__ == "__main__":  # writes a contact sheet to look at: python3 recapture_sim.py /tmp/sheet.png
    import sys

    from common import list_sources, load_rgb

    photos = [load_rgb(s.path, 2000) for s in list_sources()[:12]]
    x, y = make_set(photos, 48, seed=7)
    rows = [np.hstack(list(x[r * 8 : r * 8 + 8])) for r in range(6)]
    cv2.imwrite(sys.argv[1], cv2.cvtColor(np.vstack(rows), cv2.COLOR_RGB2BGR))
    print(y.reshape(6, 8))
