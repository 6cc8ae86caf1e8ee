"""A card in a learning photo that goes on past what was seen: across the photo's edge, or
past a side of its outline.

Every side of a whole card's outline has the paper on one side of it only.

A card lying across both the photo's edge and the mat's edge shows, on the mat, a part of
it that differs from the mat's colour and may be card-shaped: the mat's edge closes it. That
side has the same paper on both sides of it; the card goes on past it. Learning that part
would poison every later read: a card that goes on off the photo is refused as cut.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.locate import Blob, quad_mask
from vision.deck.views import order_quad

BUSY = 0.02  # of a region's pixels on strong edges: printed (a card), not a patch of the table
CUT_SOLID = 0.7  # of its convex hull a region cut by the photo's edge fills to be a card's corner
SAME_PAPER = 8.0  # CIELAB distance: the paper just outside a side is the paper just inside it
# ... and much nearer the paper than the table's colour (cream paper on the pale mat: 9-12 apart)
NEARER = 0.3
OFFSETS = (2.0, 3.0, 4.0, 5.0)  # px (at the learner's work width) either side of a side
ALONG = np.linspace(0.2, 0.8, 16)  # of a side's length: clear of its corners


def open_side(lab: np.ndarray, glare: np.ndarray, quad: np.ndarray, table: np.ndarray) -> int | None:
    """The side (i: from corner i to i + 1 of ``order_quad(quad)``) past which the same paper
    goes on, or None. ``lab``: the photo in CIELAB, ``glare``: its clipped pixels (never
    paper), ``table``: the table's colour."""
    q = order_quad(np.float32(quad))
    h, w = lab.shape[:2]
    centre = q.mean(axis=0)
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1.0)
        n = np.float32([d[1], -d[0]])
        if np.dot((a + b) / 2 - centre, n) < 0:
            n = -n
        pts = a + np.outer(ALONG, b - a)
        sides = []
        for sign in (-1.0, 1.0):
            p = np.concatenate([pts + sign * k * n for k in OFFSETS])
            x, y = np.round(p[:, 0]).astype(int), np.round(p[:, 1]).astype(int)
            keep = (x >= 0) & (y >= 0) & (x < w) & (y < h)
            keep[keep] &= ~glare[y[keep], x[keep]]
            sides.append(lab[y[keep], x[keep]] if keep.mean() >= 0.5 else None)
        inside, outside = sides
        if inside is None or outside is None:
            continue
        paper, past = np.median(inside, axis=0), np.median(outside, axis=0)
        if np.linalg.norm(past - paper) <= min(SAME_PAPER, NEARER * np.linalg.norm(past - table)):
            return i
    return None


def runs_off(quad: np.ndarray, side: int, shape: tuple[int, int]) -> np.ndarray | None:
    """The card an outline is part of, grown past its open ``side`` by its long side, when it
    then runs off the photo (``shape``: h, w); else None."""
    q = order_quad(np.float32(quad))
    h, w = shape
    a, b = q[side], q[(side + 1) % 4]
    centre = q.mean(axis=0)
    d = (b - a) / max(float(np.linalg.norm(b - a)), 1.0)
    n = np.float32([d[1], -d[0]])
    if np.dot((a + b) / 2 - centre, n) < 0:
        n = -n
    long = float(max(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)))
    grown = q.copy()
    grown[side] += n * long
    grown[(side + 1) % 4] += n * long
    if (grown < 0).any() or (grown[:, 0] > w - 1).any() or (grown[:, 1] > h - 1).any():
        return grown
    return None


def busy(grey: np.ndarray, b: Blob) -> float:
    """How much is printed inside ``b``: its share of strong edges (a card's pips and indices)."""
    inside = quad_mask(grey.shape, b.quad, 1)
    edges = cv2.Canny(grey, 60, 160)
    return np.count_nonzero(edges[inside > 0]) / max(np.count_nonzero(inside), 1)


def convex_at_edge(mask: np.ndarray) -> np.ndarray | None:
    """The outline (its rotated rectangle) of a card-sized, convex region cut by the photo's
    edge, the most convex one, or None."""
    h, w = mask.shape
    best, quad = CUT_SOLID, None
    for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        area = cv2.contourArea(c)
        x, y, bw, bh = cv2.boundingRect(c)
        if not 0.004 * mask.size <= area <= 0.08 * mask.size or not (x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1):
            continue
        solid = area / max(cv2.contourArea(cv2.convexHull(c)), 1.0)
        (_, _), (rw, rh), _ = rect = cv2.minAreaRect(c)
        if solid >= best and max(rw, rh) <= 4.0 * max(min(rw, rh), 1.0):
            best, quad = solid, cv2.boxPoints(rect).astype(np.float32)
    return quad