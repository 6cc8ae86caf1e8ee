"""Where the card is: one card alone on the mat (learning), or what changed on the table.

Learning: the mat's colour is taken from the photo's edges; whatever differs from it
enough is the card. Dealing: the difference with the last settled frame is the new card;
its outline must be a card-shaped rectangle, not touch the frame's edge (a hand and arm
always do), and be the size of one card (two cards dealt together make a bigger, broken
shape).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.deck.errors import EnrolmentError

CARD_ASPECT = 95.0 / 61.0
ASPECT_TOLERANCE = 0.18
MIN_RECTANGULAR = 0.86  # blob area / its rotated bounding box: a hand or two cards are less


@dataclass(frozen=True)
class Blob:
    """One region that changed (or differs from the mat), in the coordinates it was found in."""

    quad: np.ndarray  # 4x2 float32, the rotated rectangle's corners
    area: float  # pixels inside the outline
    rect_area: float
    aspect: float  # long side / short side
    touches_edge: bool

    @property
    def rectangular(self) -> float:
        return self.area / self.rect_area if self.rect_area else 0.0

    @property
    def card_shaped(self) -> bool:
        return (self.rectangular >= MIN_RECTANGULAR
                and abs(self.aspect - CARD_ASPECT) <= ASPECT_TOLERANCE * CARD_ASPECT)

    @property
    def long_side(self) -> float:
        return float(np.sqrt(self.rect_area * self.aspect))


def blobs_of(mask: np.ndarray, *, min_area: float) -> list[Blob]:
    """The outlines in a binary mask, biggest first."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        area = float(cv2.contourArea(cv2.convexHull(c)))
        if area < min_area:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        x, y, bw, bh = cv2.boundingRect(c)
        edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        quad = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
        long_, short = max(rw, rh), max(min(rw, rh), 1.0)
        out.append(Blob(quad, float(cv2.contourArea(c)), float(rw * rh), long_ / short, edge))
    out.sort(key=lambda b: -b.area)
    return out


def _clean(mask: np.ndarray, k: int) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)


def find_card_on_mat(image: np.ndarray, *, work_width: int = 640) -> np.ndarray:
    """The quadrilateral (full-resolution pixels) of the one card lying on the mat.

    Raises :class:`EnrolmentError` when there is no card, or it is cut by the frame's edge.
    """
    h, w = image.shape[:2]
    scale = work_width / w
    small = cv2.resize(image, (work_width, int(round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:6].reshape(-1, 3), lab[-6:].reshape(-1, 3),
                             lab[:, :6].reshape(-1, 3), lab[:, -6:].reshape(-1, 3)])
    mat = np.median(border, axis=0)
    dist = np.linalg.norm(lab - mat, axis=2)
    level, _ = cv2.threshold(np.clip(dist, 0, 255).astype(np.uint8), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (dist > max(level, 18.0)).astype(np.uint8) * 255
    mask = _clean(mask, 5)
    blobs = blobs_of(mask, min_area=0.004 * mask.size)
    cards = [b for b in blobs if b.card_shaped]
    if not cards:
        if any(b.touches_edge for b in blobs):
            raise EnrolmentError("the card is not wholly inside the photo")
        raise EnrolmentError("no card found on the mat")
    card = cards[0]
    if card.touches_edge:
        raise EnrolmentError("the card is not wholly inside the photo")
    return card.quad / scale


def change_groups(mask: np.ndarray, *, join_px: int, min_area: float) -> list[Blob]:
    """The changed regions, each the convex hull of the changes close to one another.

    A card dealt onto a pile changes only where it differs from what it covers: white
    over white does not change, so one card's change is broken into pieces (its pips,
    its index, its edge over the mat). Their hull is the card's outline again."""
    h, w = mask.shape
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (join_px, join_px))
    groups = cv2.dilate(mask, k)
    n, labels = cv2.connectedComponents(groups)
    out = []
    for i in range(1, n):
        ys, xs = np.nonzero((labels == i) & (mask > 0))
        if len(xs) < 3:
            continue
        pts = np.stack([xs, ys], axis=1).astype(np.int32)
        hull = cv2.convexHull(pts)
        area = float(cv2.contourArea(hull))
        if area < min_area:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(hull)
        edge = xs.min() <= 1 or ys.min() <= 1 or xs.max() >= w - 2 or ys.max() >= h - 2
        quad = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
        long_, short = max(rw, rh), max(min(rw, rh), 1.0)
        out.append(Blob(quad, area, float(rw * rh), long_ / short, bool(edge)))
    out.sort(key=lambda b: -b.area)
    return out


def change_mask(reference: np.ndarray, current: np.ndarray, *, level: int = 18,
                min_pixels: int = 6) -> np.ndarray:
    """Where ``current`` differs from ``reference`` (both lightly blurred BGR frames).

    No morphological opening: a card's thin printed frame line is often all that differs
    where it lies over another white card, and opening would erase it. Specks of noise
    are dropped by size instead."""
    d = cv2.absdiff(reference, current).max(axis=2)
    mask = (d > level).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] >= min_pixels
    big[0] = False
    return (big[labels]).astype(np.uint8) * 255
