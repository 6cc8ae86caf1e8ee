"""A quick camera chain for the reader's tests: what a cheap camera does to a sharp scene
(defocus, Bayer mosaic and demosaic with sensor noise, ISP sharpening halos, JPEG), and
distractor prints (other fiducial families, random 6x6 patterns, QR menus). Drawn in code.
The realistic camera (tests/realcam) is the measurement; this is the fast test double."""

from __future__ import annotations

import cv2
import numpy as np

from vision.marks import ALL_IDS

DISTRACTOR_FAMILIES = ("DICT_4X4_250", "DICT_5X5_250", "DICT_6X6_250", "DICT_7X7_250",
                       "DICT_APRILTAG_36h11", "DICT_ARUCO_ORIGINAL", "DICT_6X6_1000")


def camera(img: np.ndarray, rng: np.random.Generator, *, blur: float = 1.0, sharpen: float = 0.7,
           noise: float = 4.0, jpeg: int = 75) -> np.ndarray:
    img = cv2.GaussianBlur(img, (0, 0), blur) if blur else img
    h, w = img.shape[:2]
    bayer = np.empty((h, w), np.float32)  # RGGB
    bayer[0::2, 0::2] = img[0::2, 0::2, 2]
    bayer[0::2, 1::2] = img[0::2, 1::2, 1]
    bayer[1::2, 0::2] = img[1::2, 0::2, 1]
    bayer[1::2, 1::2] = img[1::2, 1::2, 0]
    bayer = np.clip(bayer + rng.normal(0, noise, bayer.shape), 0, 255).astype(np.uint8)
    img = cv2.cvtColor(bayer, cv2.COLOR_BayerBG2BGR)
    if sharpen:
        img = cv2.addWeighted(img, 1 + sharpen, cv2.GaussianBlur(img, (0, 0), 1.5), -sharpen, 0)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def distractor(rng: np.random.Generator, side: int) -> np.ndarray:
    """One printed square that is NOT one of our codes, with a white margin (grey, uint8)."""
    kind = rng.random()
    if kind < 0.3:  # a random 6x6 pattern in a black border: the worst case
        bits = (rng.random((8, 8)) > 0.5).astype(np.uint8) * 255
        bits[0, :] = bits[-1, :] = bits[:, 0] = bits[:, -1] = 0
        m = cv2.resize(bits, (side, side), interpolation=cv2.INTER_NEAREST)
    elif kind < 0.45:
        qr = cv2.QRCodeEncoder.create().encode(f"https://menu.example/{int(rng.integers(1e6))}")
        return cv2.resize(qr, (side * 2, side * 2), interpolation=cv2.INTER_NEAREST)
    else:
        name = DISTRACTOR_FAMILIES[int(rng.integers(len(DISTRACTOR_FAMILIES)))]
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
        i = int(rng.integers(d.bytesList.shape[0]))
        while name.startswith("DICT_6X6") and i in ALL_IDS:
            i = int(rng.integers(d.bytesList.shape[0]))
        m = cv2.aruco.generateImageMarker(d, i, side)
    pad = max(2, side // 6)
    return cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def scatter(img: np.ndarray, rng: np.random.Generator, marker_px: float, n: int = 40) -> np.ndarray:
    """``img`` with ``n`` distractors printed on it at 0.8-2x the marker size, any angle."""
    out = img.copy()
    h, w = out.shape[:2]
    for _ in range(n):
        m = distractor(rng, int(rng.uniform(0.8, 2.0) * marker_px))
        rot = cv2.getRotationMatrix2D((m.shape[1] / 2, m.shape[0] / 2), rng.uniform(0, 360), 1)
        m = cv2.warpAffine(m, rot, (m.shape[1], m.shape[0]), borderValue=255)
        y, x = int(rng.integers(0, h - m.shape[0])), int(rng.integers(0, w - m.shape[1]))
        out[y:y + m.shape[0], x:x + m.shape[1]] = np.minimum(out[y:y + m.shape[0], x:x + m.shape[1]],
                                                            m[..., None])
    return out
