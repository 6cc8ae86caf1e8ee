"""Marker family measurement (issue 4: "measure, then choose the default").

For each candidate family: the smallest Hamming distance between the 48 card markers
(best subset, all rotations), and detection of 48 stickers rendered at 2.1-3.0 px/mm with
a 10 mm code (14 mm sticker), rotated, slightly tilted, blurred, noisy, JPEG'd.
``python -m tests.bench.bench_markers`` prints the markdown table kept in docs/vision.md.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.marks import card_dictionary, choose_ids

CANDIDATES = ("DICT_4X4_50", "DICT_5X5_50", "DICT_5X5_100", "DICT_6X6_250", "DICT_APRILTAG_36h11")
CODE_MM = 10.0
PX_PER_MM = (2.1, 2.5, 3.0)
BLURS = (0.6, 1.0)


def _frame(dictionary, n_markers: int, px_mm: float, blur: float, rng: np.random.Generator) -> np.ndarray:
    h, w = 1080, 1920
    img = np.full((h, w), 150, np.uint8)
    img = (img + rng.normal(0, 10, (h // 40 + 1, w // 40 + 1)).repeat(40, 0).repeat(40, 1)[:h, :w]).clip(0, 255).astype(np.uint8)
    sticker_px = 14 * px_mm
    cols = 8
    for i in range(n_markers):
        hi = cv2.aruco.generateImageMarker(dictionary, i, 240, borderBits=1)
        pad = int(240 * 2 / CODE_MM)  # 2 mm white around the code
        hi = cv2.copyMakeBorder(hi, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=235)
        s = hi.shape[0]
        cx = 140 + (i % cols) * 210 + rng.uniform(-20, 20)
        cy = 110 + (i // cols) * 165 + rng.uniform(-20, 20)
        ang = rng.uniform(0, 2 * np.pi)
        k = sticker_px / s
        src = np.float32([[0, 0], [s, 0], [s, s], [0, s]])
        dst = []
        for (x, y) in src:
            x0, y0 = (x - s / 2) * k, (y - s / 2) * k
            tilt = 1 + rng.uniform(-0.06, 0.06)
            dst.append([cx + (x0 * np.cos(ang) - y0 * np.sin(ang)) * tilt, cy + (x0 * np.sin(ang) + y0 * np.cos(ang)) * tilt])
        m = cv2.getPerspectiveTransform(src, np.float32(dst))
        warped = cv2.warpPerspective(hi, m, (w, h), flags=cv2.INTER_AREA, borderValue=0)
        mask = cv2.warpPerspective(np.full_like(hi, 255), m, (w, h), flags=cv2.INTER_LINEAR)
        img = np.where(mask > 127, warped, img)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    img = (img.astype(np.float32) + rng.normal(0, 4, img.shape)).clip(0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE)


def measure(frames_per_cell: int = 2, seed: int = 7) -> list[dict]:
    cv2.setNumThreads(1)
    rows = []
    for family in CANDIDATES:
        dist, ids = choose_ids(family, 48, tries=60)
        dictionary = card_dictionary(family, ids)
        detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
        for px_mm in PX_PER_MM:
            for blur in BLURS:
                rng = np.random.default_rng(seed)
                found = false = 0
                ms = []
                for _ in range(frames_per_cell):
                    img = _frame(dictionary, 48, px_mm, blur, rng)
                    t = time.perf_counter()
                    _, got, _ = detector.detectMarkers(img)
                    ms.append((time.perf_counter() - t) * 1000)
                    got = [] if got is None else got.ravel().tolist()
                    found += len(set(got) & set(range(48)))
                    false += len([g for g in got if not 0 <= g < 48]) + (len(got) - len(set(got)))
                rows.append(dict(family=family, distance=dist, px_mm=px_mm,
                                 cell_px=CODE_MM * px_mm / (dictionary.markerSize + 2), blur=blur,
                                 found=found, total=48 * frames_per_cell, false=false,
                                 ms=float(np.median(ms))))
    return rows


def main() -> None:
    rows = measure()
    print("### Marker families (48 cards, 10 mm code on a 14 mm sticker)\n")
    print("| family | min distance | px/mm | px/cell | blur σ | found | false | ms/frame |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['family']} | {r['distance']} | {r['px_mm']} | {r['cell_px']:.1f} | {r['blur']} | "
              f"{r['found']}/{r['total']} | {r['false']} | {r['ms']:.0f} |")
    print()


if __name__ == "__main__":
    main()
