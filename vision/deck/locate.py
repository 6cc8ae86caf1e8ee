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


CARD_ASPECT = 95.0 / 61.0
ASPECT_TOLERANCE = 0.18
MAT_DISTANCE = 16.0  # CIELAB distance from the mat's colour that is "something on the mat"
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


def _blob(points: np.ndarray, area: float, shape: tuple[int, int]) -> Blob:
    h, w = shape
    hull = cv2.convexHull(points)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(hull)
    xs, ys = points[:, 0], points[:, 1]
    edge = bool(xs.min() <= 1 or ys.min() <= 1 or xs.max() >= w - 2 or ys.max() >= h - 2)
    quad = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
    long_, short = max(rw, rh), max(min(rw, rh), 1.0)
    return Blob(quad, area, float(rw * rh), long_ / short, edge)


def blobs_of(mask: np.ndarray, *, min_area: float, max_area: float | None = None,
             convex: bool = False) -> list[Blob]:
    """The connected regions of a binary mask (holes filled), biggest first. ``convex``:
    each region's area is its convex hull's (a card whose paper is close to the mat's colour
    shows as its printed frame, whose breaks open the outline)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, bw, bh, count = stats[i]
        if count < min_area or (max_area is not None and count > max_area):
            continue
        sub = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        c = max(contours, key=cv2.contourArea)
        pts = c.reshape(-1, 2) + (x, y)
        area = cv2.contourArea(cv2.convexHull(c) if convex else c)
        out.append(_blob(pts.astype(np.int32), float(area), mask.shape))
    out.sort(key=lambda b: -b.area)
    return out


def change_groups(mask: np.ndarray, *, join_px: int, min_area: float) -> list[Blob]:
    """The changed regions, each the convex hull of the changes close to one another.

    A card dealt onto a pile changes only where it differs from what it covers: white
    over white does not change, so one card's change is broken into pieces (its pips,
    its index, its edge over the mat). Their hull is the card's outline again."""
    # a square kernel: separable, so its cost does not grow with the card's size
    groups = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (join_px, join_px)))
    _, labels = cv2.connectedComponents(groups)
    contours, _ = cv2.findContours(groups, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        # the changes' hull lies inside the group's: a group too small for a card is
        # dropped without looking at its pixels (most groups are specks, hands' edges)
        if cv2.contourArea(cv2.convexHull(c)) < min_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        label = labels[c[0, 0, 1], c[0, 0, 0]]
        mine = cv2.bitwise_and(mask[y:y + h, x:x + w], (labels[y:y + h, x:x + w] == label).view(np.uint8))
        pts = cv2.findNonZero(mine)
        if pts is None or len(pts) < 3:
            continue
        pts = pts.reshape(-1, 2) + np.int32([x, y])
        area = float(cv2.contourArea(cv2.convexHull(pts)))
        if area >= min_area:
            out.append(_blob(pts, area, mask.shape))
    out.sort(key=lambda b: -b.area)
    return out


def change_mask(reference: np.ndarray, current: np.ndarray, *, level: int = 18,
                min_pixels: int = 6) -> np.ndarray:
    """Where ``current`` differs from ``reference`` (both lightly blurred BGR frames).

    No morphological opening: a card's thin printed frame line is often all that differs
    where it lies over another white card, and opening would erase it. Specks of noise
    are dropped by size instead (counted over the changed pixels only: the frame is mostly
    unchanged, and per-component statistics over all of it cost twice as much)."""
    return _pieces(reference, current, level, min_pixels)[0]


def change_at_edge(reference: np.ndarray, current: np.ndarray, *, level: int = 18,
                   min_pixels: int = 6) -> np.ndarray:
    """The pieces of :func:`change_mask` that reach the frame's edge (uint8 0/255): what came
    into view (a hand and its arm always reach the edge)."""
    mask, labels, (at, of), specks = _pieces(reference, current, level, min_pixels)
    out = np.zeros_like(mask)
    if at is None:
        return out
    edge = np.zeros(len(specks), bool)
    for side in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        edge[side] = True
    edge &= ~specks
    edge[0] = False  # (the background)
    out.reshape(-1)[at[edge[of]]] = 255
    return out


def _pieces(reference: np.ndarray, current: np.ndarray, level: int, min_pixels: int) -> tuple:
    """:func:`change_mask` (specks dropped), the difference's 8-connected pieces (labels), the
    changed pixels (their flat indices and the piece each is in; None when none changed) and
    which pieces are specks (fewer than ``min_pixels``)."""
    _, mask = cv2.threshold(channel_max(cv2.absdiff(reference, current)), level, 255, cv2.THRESH_BINARY)
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    at = np.flatnonzero(mask.reshape(-1) > 0)  # (numpy finds a bool map's set pixels several times faster)
    if not len(at):
        return mask, labels, (None, None), np.ones(n, bool)
    of = labels.reshape(-1)[at]
    small = np.bincount(of, minlength=n) < min_pixels
    mask.reshape(-1)[at[small[of]]] = 0
    return mask, labels, (at, of), small


def channel_max(bgr: np.ndarray) -> np.ndarray:
    """The largest of the three channels, per pixel (numpy's max over the last axis is
    several times slower on a frame; so is cv2.split, measured ~1 ms against ~0.1 ms at 960x540:
    each channel is taken out alone)."""
    return cv2.max(cv2.max(cv2.extractChannel(bgr, 0), cv2.extractChannel(bgr, 1)), cv2.extractChannel(bgr, 2))


def turned_quad(quad: np.ndarray, deg: float) -> np.ndarray:
    """``quad`` (4x2 px) turned ``deg`` degrees about its middle, in its own dtype."""
    c = quad.mean(axis=0)
    r = np.deg2rad(deg)
    m = np.float64([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    return ((quad - c) @ m.T + c).astype(quad.dtype)


def around(mask: np.ndarray, reach: int) -> tuple[slice, slice] | None:
    """The box (rows, columns) round ``mask``'s set pixels and ``reach`` px more each way, inside
    the view; None when nothing is set. (An operation whose reach is no more than ``reach`` gives
    the very same pixels worked out over that box only as over the whole view.)"""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return None
    return (slice(max(y - reach, 0), min(y + h + reach, mask.shape[0])),
            slice(max(x - reach, 0), min(x + w + reach, mask.shape[1])))


def quad_mask(shape: tuple[int, ...], quad: np.ndarray, value: int = 255) -> np.ndarray:
    """A mask of ``shape``'s height and width: ``value`` inside ``quad`` (px, rounded), 0 outside."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], value)
    return mask


def card_rectangle(quad: np.ndarray, want_long: float) -> tuple[np.ndarray, float]:
    """A card's rectangle from the outline of what changed (``quad``), and its long side.

    Over another white card a card's white margin changes nothing, so the change can stop
    at its printed frame line, millimetres inside the edge: a change from 3/4 of a card's
    long side (``want_long``: the size a card has there) up to just over it is grown to a
    whole card's size about its centre."""
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(np.asarray(quad, np.float32))
    long_, short = max(rw, rh), min(rw, rh)
    if want_long and 0.75 * want_long <= long_ <= 1.02 * want_long:
        k = want_long / long_
        long_, short = want_long, max(short * k, want_long / CARD_ASPECT)
    size = (long_, short) if rw >= rh else (short, long_)
    return cv2.boxPoints(((cx, cy), size, ang)).astype(np.float32), float(long_)


def every(image: np.ndarray, step: int) -> np.ndarray:
    """``image[::step, ::step]``, contiguous (taken by OpenCV, where the sizes allow: the very
    same pixels, without numpy's strided copy)."""
    h, w = image.shape[:2]
    if h % step or w % step:
        return image[::step, ::step]
    return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)


def shrunk(frame: np.ndarray, width: int, blur: int) -> np.ndarray:
    """``frame`` at ``width`` (at most its own), blurred by a ``blur`` px Gaussian: what
    frames are compared at."""
    h, w = frame.shape[:2]
    width = min(width, w)
    # by a whole factor INTER_AREA is a fast box filter; by 4/3 (720p -> 960) it is five
    # times slower than bilinear, whose aliasing the blur that follows takes out anyway
    whole = w % width == 0
    small = cv2.resize(frame, (width, int(round(h * width / w))),
                       interpolation=cv2.INTER_AREA if whole else cv2.INTER_LINEAR)
    return cv2.GaussianBlur(small, (blur, blur), 0)


def off_edge(mask: np.ndarray) -> np.ndarray:
    """``mask`` (uint8 0/255) without its parts that reach the view's edge (a hand and its arm do)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh = (stats[:, i] for i in range(4))
    kept = ~((x <= 1) | (y <= 1) | (x + bw >= w - 1) | (y + bh >= h - 1))
    kept[0] = False
    return (kept[labels] * 255).astype(np.uint8)
