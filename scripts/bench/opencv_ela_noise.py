#!/usr/bin/python3
"""OpenCV reference for the image bench: the same ELA (quality-90 re-compression, mean |diff| per
8x8 block) and noise map (4-neighbour high-pass residual, mean |r| per 8x8 block) on the same
files, timed including decoding, and the four together on one decode (decode, ELA, noise map, thumbnail:
"pipeline"). Prints JSON {file: {megapixels, decode_ms, ela_ms, noise_ms, pipeline_ms}}.
Usage: /usr/bin/python3 scripts/bench/opencv_ela_noise.py FILE..."""
import json
import sys
import time

import cv2
import numpy as np

cv2.setNumThreads(1)  # one core, like a Worker isolate


def block_mean(a):
    h, w = a.shape[:2]
    a = a[: h - h % 8, : w - w % 8]
    return a.reshape(a.shape[0] // 8, 8, a.shape[1] // 8, 8, *a.shape[2:]).mean(axis=(1, 3))


def ela(path):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    again = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return block_mean(cv2.absdiff(img, again))


def noise(path):
    gray = cv2.imread(path, cv2.IMREAD_GRAYSCALE).astype(np.float32)
    kernel = np.array([[0, -0.25, 0], [-0.25, 1, -0.25], [0, -0.25, 0]], np.float32)
    return block_mean(np.abs(cv2.filter2D(gray, -1, kernel)))


def pipeline(path):
    """What a native tool does for one photo: decode once, ELA, noise map, a 320 px thumbnail."""
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    block_mean(cv2.absdiff(img, cv2.imdecode(enc, cv2.IMREAD_COLOR)))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    kernel = np.array([[0, -0.25, 0], [-0.25, 1, -0.25], [0, -0.25, 0]], np.float32)
    block_mean(np.abs(cv2.filter2D(gray, -1, kernel)))
    h, w = img.shape[:2]
    s = 320 / max(h, w)
    cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)


def timed(fn, path, runs=3):
    best = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(path)
        best.append((time.perf_counter() - t) * 1000)
    return sorted(best)[len(best) // 2]


out = {}
for path in sys.argv[1:]:
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    out[path] = {
        "megapixels": img.shape[0] * img.shape[1] / 1e6,
        "decode_ms": timed(lambda p: cv2.imread(p, cv2.IMREAD_COLOR), path),
        "ela_ms": timed(ela, path),
        "noise_ms": timed(noise, path),
        "pipeline_ms": timed(pipeline, path),
    }
print(json.dumps(out))
