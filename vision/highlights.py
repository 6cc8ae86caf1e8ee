"""Burnt-out highlights of the lamp on the mat: where a marker cannot be read.

Both the set-up check (:mod:`vision.setup_check`, "card in glare") and the reader's asks
(:mod:`vision.asked`, "move the circled card") measure glare the same way, from here.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.result import ReadResult

GLARE_LEVEL = 250  # grey level of a burnt-out highlight
GLARE_CONTRAST = 60  # a sticker with less contrast than this cannot be read


def in_glare(gray: np.ndarray, quad: np.ndarray) -> bool:
    """A sticker's quad washed out by a burnt-out highlight (too little contrast left to read)."""
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    patch = gray[y0:y1, x0:x1]
    if patch.size < 16 or patch.max() < GLARE_LEVEL:  # both tests below need a burnt-out pixel
        return False
    lo, hi = np.percentile(patch, (5, 95))
    return bool((patch >= GLARE_LEVEL).mean() > 0.05 and hi - lo < GLARE_CONTRAST * 2) or bool(
        hi >= GLARE_LEVEL and hi - lo < GLARE_CONTRAST)


def glare_patches(gray: np.ndarray, result: ReadResult, min_side_px: float) -> list[np.ndarray]:
    """Burnt-out patches on the mat at least ``min_side_px`` across (a sticker washed out
    may not even be found as a square): their boxes as corner quads. Searched on every
    other pixel (every fourth for patches 16 px and up): the live video checks every frame,
    and the patch is still 4 px or more there."""
    step = 4 if min_side_px >= 16 else 2 if min_side_px >= 8 else 1
    small = np.ascontiguousarray(gray[::step, ::step])
    mask = (small >= GLARE_LEVEL).astype(np.uint8)
    if not mask.any():
        return []
    if result.mat_corners is not None:
        inside = np.zeros_like(mask)
        cv2.fillConvexPoly(inside, (result.mat_corners / step).astype(np.int32), 1)
        mask &= inside
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    out = []
    for x, y, w, h, area in stats[1:n]:
        if area * step * step >= min_side_px ** 2:
            x, y, w, h = x * step, y * step, w * step, h * step
            out.append(np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]))
    return out
