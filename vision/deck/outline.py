"""The top card found by its outline: a rectangle of a card's size whose four sides are edges.

What changed between two settled frames only says that something happened, and roughly
where: the new card, but also its shadow on the card below, a strip it uncovered, the
lamp's reflection that moved, noise. None of those has a card's outline; the card on top
of the pile always shows all four of its sides (nothing lies over it), the cards below it
only parts of theirs.

So around the change the frame's edges are looked at, in a frame turned to each of the
dominant edge directions: an edge along a side counts for a rectangle of the learnt card
size (a few sizes around it) there, and every position of the rectangle is scored at once
by running sums along the rows and columns. The score is the share of its perimeter lying
on an edge of the frame as it is now, plus half the share lying on an edge that is NEW
(not in the reference frame at the same place): a card dealt on top has both, a card
below it at best the first on the parts still in view. A second card found the same way,
apart from the first and itself new, means two cards were dealt at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.deck.locate import around
from vision.deck.placing import corners, edge_maps, search
from vision.deck.recent import recent
from vision.deck.views import inward_normal

MIN_SUPPORT = 0.55  # of the perimeter on an edge of the frame: a card on top shows ~0.9
SIZES = (1.0, 0.95, 1.05)  # around the expected long side
GROW = 0.4  # the change's box grown by this share of a card's long side: where to look
SURE = 0.85  # of the perimeter on edges at the direction found: less, and the rectangle is tried turned
TURNS = (-9.0, -6.0, -3.0, 3.0, 6.0, 9.0)  # degrees the rectangle is turned to (a card's sides washed out in part)
TURN_PAD = 0.08  # of a card's long side: the search's room around the rectangle, for its corners turned
TURN_GAIN = 0.03  # the turned rectangle's score over the one found: it lies along the card's sides
EXCLUDE_BLUR = 4  # px (Gaussian sigma): the sides of outlines already found blurred away
RECENT = 4  # searches remembered (:func:`vision.deck.recent.recent`): a darker frame's look may search the
# same frames against the same table again (the table judged again, a card come unread looked for there)


@dataclass(frozen=True)
class Outline:
    """A card's rectangle (detail px, 4x2 float32, in order around it) and its evidence."""

    quad: np.ndarray
    support: float  # share of the perimeter on an edge of the current frame
    new: float  # share of the perimeter on an edge that is not in the reference
    long: float  # its long side (detail px)
    straight: np.ndarray | None = None  # turned to fit its sides (:data:`TURNS`): the rectangle found before it

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(axis=0)


def grey(bgr: np.ndarray) -> np.ndarray:
    """Brightness for edges: the brightest channel (a red print on white shows in it less
    than in green; the mat's green against white paper strongly)."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _angles(cur: np.ndarray, ref: np.ndarray | None, level: float, weight_mask: np.ndarray | None,
            n: int = 3) -> list[float]:
    """The dominant edge directions (degrees, mod 90) of the patch, best first: new edges
    weigh most, so the card dealt last sets the direction."""
    gx = cv2.Sobel(cur, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(cur, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = cv2.magnitude(gx, gy)
    # the table's own texture (felt, wood grain) has many weak edges along the sensor's
    # rows and columns; a card's sides are among the strongest steps in view
    inside = mag[weight_mask > 0] if weight_mask is not None and weight_mask.any() else mag
    strong = max(level, 0.25 * float(np.percentile(inside, 98)))
    w = np.where(mag > strong, np.minimum(mag, 4 * strong), 0)
    if ref is not None:
        rx = cv2.Sobel(ref, cv2.CV_32F, 1, 0, ksize=3) / 8
        ry = cv2.Sobel(ref, cv2.CV_32F, 0, 1, ksize=3) / 8
        w = w * (0.1 + np.clip(cv2.magnitude(gx - rx, gy - ry) / np.maximum(mag, 1e-3), 0, 1))
    if weight_mask is not None:
        w = w * (0.2 + weight_mask)
    # (the direction only where a step weighs: the others add nothing to the histogram)
    keep = w > 0
    ang = np.degrees(np.arctan2(gy[keep], gx[keep])) % 90.0
    hist = np.bincount(np.minimum((ang * 2).astype(np.int32), 179), weights=w[keep], minlength=180)
    # (smoothed over a few degrees: the table's texture at a side tilts its steps either way)
    hist = np.concatenate([hist[-12:], hist, hist[:12]])
    hist = cv2.GaussianBlur(hist.astype(np.float64).reshape(1, -1), (25, 1), 4).ravel()[12:-12]
    out = []
    for _ in range(n):
        k = int(np.argmax(hist))
        if hist[k] <= 0:
            break
        near = np.arange(k - 4, k + 5)
        wts = hist[near % 180]
        out.append(((float(np.dot(near, wts) / wts.sum()) + 0.5) / 2) % 90.0)
        for d in range(-10, 11):
            hist[(k + d) % 180] = 0
    return out


def find_outlines(current: np.ndarray, reference: np.ndarray | None, changed: np.ndarray,
                  long_px: float, *, level: float, aspect: float, sizes: tuple[float, ...] = SIZES,
                  box: tuple[int, int, int, int] | None = None, exclude: list[np.ndarray] = (),
                  directions: int = 3, turns: tuple[float, ...] = TURNS, least: float = MIN_SUPPORT) -> list[Outline]:
    """The best card rectangle (``long_px`` long, ``aspect`` long/short) around the change
    ``changed`` (uint8 mask, detail size) in ``current``, against ``reference`` (None: the
    current frame's edges are all new). ``level``: an edge's least step per pixel (above the
    frames' noise). ``exclude``: outlines already found (their sides are not counted again).
    ``directions``: how many of the patch's dominant edge directions are tried; ``turns``: the
    degrees an outline whose sides barely hold is tried turned by, around them; ``least``: the
    share of its perimeter on edges an outline needs. Returns at most one outline, or none when
    nothing there has a card's four sides."""
    if box is None and not exclude:  # (the same frames searched alike again: the outlines found)
        return list(_searched(current, reference, changed, long_px=long_px, level=level, aspect=aspect, sizes=sizes,
                              directions=directions, turns=turns, least=least))
    return _find(current, reference, changed, long_px, level=level, aspect=aspect, sizes=sizes, box=box,
                 exclude=exclude, directions=directions, turns=turns, least=least)


@recent(RECENT)
def _searched(current: np.ndarray, reference: np.ndarray | None, changed: np.ndarray, *, long_px: float,
              **options) -> tuple[Outline, ...]:
    """:func:`_find`'s outlines, kept for the same frames (the very objects: never written after
    they are made) searched with the same options."""
    return tuple(_find(current, reference, changed, long_px, **options))


def _find(current: np.ndarray, reference: np.ndarray | None, changed: np.ndarray, long_px: float, *,
          level: float, aspect: float, sizes: tuple[float, ...], box: tuple[int, int, int, int] | None = None,
          exclude: list[np.ndarray] = (), directions: int, turns: tuple[float, ...], least: float) -> list[Outline]:
    """:func:`find_outlines`, searched afresh."""
    h, w = current.shape[:2]
    if box is None:
        box = _where(changed, long_px, aspect)
        if box is None:
            return []
    g = int(GROW * long_px) + 4
    x0, y0 = max(box[0] - g, 0), max(box[1] - g, 0)
    x1, y1 = min(box[2] + g, w), min(box[3] + g, h)
    if x1 - x0 < long_px / aspect or y1 - y0 < long_px / aspect:
        return []
    cur = grey(current[y0:y1, x0:x1])
    ref = grey(reference[y0:y1, x0:x1]) if reference is not None else None
    mask = (changed[y0:y1, x0:x1] > 0).astype(np.uint8)
    if exclude:
        drop = np.zeros_like(mask)
        for q in exclude:
            cv2.polylines(drop, [np.round(q - (x0, y0)).astype(np.int32)], True, 1, 5)
        cur = _blurred_at(cur, drop)
        if ref is not None:
            ref = _blurred_at(ref, drop)
    # first at half size (every direction and size: a quarter of the pixels), then the
    # direction from the sides themselves and the place at full size
    half = [None if im is None else cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2),
                                               interpolation=cv2.INTER_AREA) for im in (cur, ref)]
    hmask = cv2.resize(cv2.dilate(mask, np.ones((3, 3), np.uint8)), (cur.shape[1] // 2, cur.shape[0] // 2),
                       interpolation=cv2.INTER_NEAREST)
    sizes_px = []
    for k in sizes:
        long_, short = int(round(long_px * k / 2)), int(round(long_px * k / aspect / 2))
        sizes_px += [(long_, short), (short, long_)]
    angles = _angles(half[0], half[1], level, hmask.astype(np.float32), directions)
    best = search(half[0], half[1], hmask, angles, sizes_px, level)
    if best is None or best[1] < least:
        return []
    rough = corners(best) * 2
    ang = best[-1] + _turn(cur, rough, level, reach=5.0)
    k = max(best[5:7]) * 2 / long_px  # the size found, at full size
    a, b = int(round(long_px * k)), int(round(long_px * k / aspect))
    if best[5] < best[6]:
        a, b = b, a
    # the full-size search only around the rough rectangle
    gx0, gy0 = np.maximum(rough.min(axis=0) - 8, 0).astype(int)
    gx1, gy1 = np.minimum(rough.max(axis=0) + 9, cur.shape[::-1]).astype(int)
    near = np.zeros_like(mask)
    cv2.fillPoly(near, [np.round(rough).astype(np.int32)], 1)
    fine = search(cur[gy0:gy1, gx0:gx1], None if ref is None else ref[gy0:gy1, gx0:gx1],
                   near[gy0:gy1, gx0:gx1], [ang], [(a, b)], level)
    straight = None
    if fine is not None and fine[1] < SURE and turns:
        # (under a moving reflection or a shadow the patch's strongest directions may be the
        # light's or the pile's, and the card's own sides, washed out in part, too short for
        # :func:`_turn`: the outline came out turned 7-11 degrees. Its direction is fitted
        # where the card lies: the rectangle turned either way, kept if its sides hold better)
        pad = 8 + int(np.ceil(TURN_PAD * long_px))
        tx0, ty0 = np.maximum(rough.min(axis=0) - pad, 0).astype(int)
        tx1, ty1 = np.minimum(rough.max(axis=0) + pad + 1, cur.shape[::-1]).astype(int)
        turned = search(cur[ty0:ty1, tx0:tx1], None if ref is None else ref[ty0:ty1, tx0:tx1],
                         near[ty0:ty1, tx0:tx1], [ang + d for d in turns], [(a, b)], level)
        if turned is not None and turned[0] > fine[0] + TURN_GAIN:
            if fine[1] >= least:  # (the card may still be named surer at it)
                straight = (corners(fine) + np.float32([x0 + gx0, y0 + gy0])).astype(np.float32)
            fine, gx0, gy0 = turned, tx0, ty0
    if fine is None or fine[1] < least:
        return []
    quad = corners(fine) + np.float32([x0 + gx0, y0 + gy0])
    return [Outline(quad.astype(np.float32), fine[1], fine[2], float(max(a, b)), straight)]


def _blurred_at(image: np.ndarray, drop: np.ndarray) -> np.ndarray:
    """``image`` (float32) blurred (Gaussian, sigma :data:`EXCLUDE_BLUR`) where ``drop`` is set: the blur
    made only over the box around those pixels and its kernel's reach (OpenCV's 4 sigmas each way, and a
    pixel more), where it gives them the very values the whole patch blurred would."""
    out = image.copy()
    box = around(drop, int(4 * EXCLUDE_BLUR + 1))
    if box is not None:
        part = image[box]
        out[box] = np.where(drop[box] > 0, cv2.GaussianBlur(part, (0, 0), EXCLUDE_BLUR), part)
    return out


def _where(changed: np.ndarray, long_px: float, aspect: float) -> tuple[int, int, int, int] | None:
    """The box around the change's big pieces (pieces within a third of a card's short side
    of one another joined; specks of noise and small flecks of light left out)."""
    short = long_px / aspect
    step = 4
    small = cv2.resize(changed, (changed.shape[1] // step, changed.shape[0] // step), interpolation=cv2.INTER_AREA)
    k = max(3, int(short / 3 / step)) | 1
    joined = cv2.dilate((small > 0).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    mass = np.bincount(labels.ravel(), weights=small.ravel().astype(np.float64), minlength=n) / 255 * step * step
    big = [i for i in range(1, n) if mass[i] >= 0.15 * long_px * short]
    if not big:
        return None
    x0 = min(stats[i, 0] for i in big) * step
    y0 = min(stats[i, 1] for i in big) * step
    x1 = max(stats[i, 0] + stats[i, 2] for i in big) * step
    y1 = max(stats[i, 1] + stats[i, 3] for i in big) * step
    return int(x0), int(y0), int(x1), int(y1)


def _turn(grey: np.ndarray, quad: np.ndarray, level: float, reach: float = 4.0) -> float:
    """How many degrees the rectangle ``quad`` is to be turned to lie along its sides: a
    line through the strongest step across each side (within ``reach`` px), their mean
    direction. (A side can go to a printed line inside the card, parallel to its edge: the
    direction is right all the same.)"""
    q = np.asarray(quad, np.float64)
    centre = q.mean(axis=0)
    ts = np.linspace(0.1, 0.9, 24)
    ks = np.arange(-reach, reach + 0.01, 0.5)
    turns, weights = [], []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        along = (b - a) / max(np.linalg.norm(b - a), 1e-6)
        normal = inward_normal(a, b, centre)
        base = a[None] + ts[:, None] * (b - a)[None]
        pts = base[:, None, :] + ks[None, :, None] * normal[None, None, :]
        prof = cv2.remap(grey, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        step = np.abs(np.diff(prof, axis=1)) / 0.5
        k = np.argmax(step, axis=1)
        ok = step[np.arange(len(ts)), k] >= level
        if np.count_nonzero(ok) < 8:
            continue
        found = base[ok] + (ks[k[ok]] + 0.25)[:, None] * normal[None]
        vx, vy = cv2.fitLine(np.float32(found), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()[:2]
        if np.dot((vx, vy), along) < 0:
            vx, vy = -vx, -vy
        d = np.degrees(np.arctan2(vy, vx) - np.arctan2(along[1], along[0]))
        d = (d + 180) % 360 - 180
        if abs(d) < 4:
            turns.append(d)
            weights.append(np.count_nonzero(ok))
    if len(turns) < 2:
        return 0.0
    return float(np.average(turns, weights=weights))


def card_in_view(detail: np.ndarray, long_px: float, *, level: float, aspect: float,
                 sizes: tuple[float, ...] = SIZES, exclude: list[np.ndarray] = ()) -> Outline | None:
    """A card's whole outline anywhere in view, nothing to compare with (every edge counts
    as new): searched at half size, the whole view being searched (``exclude``: outlines
    already found, detail px: their sides are not counted again)."""
    half = cv2.resize(detail, (detail.shape[1] // 2, detail.shape[0] // 2), interpolation=cv2.INTER_AREA)
    # (the whole view's strongest directions may be a printed mat's or the table's, a wood's grain,
    # the mat's sides: more are tried; with 6, a card lying plain on the mat at gain 7 was found in
    # one frame and not in the next, its directions ranked below the grain's by the noise)
    found = find_outlines(half, None, np.full(half.shape[:2], 255, np.uint8), long_px / 2, level=level,
                          aspect=aspect, sizes=sizes, directions=12, exclude=[q / 2 for q in exclude])
    if not found:
        return None
    straight = None if found[0].straight is None else found[0].straight * 2
    return Outline(found[0].quad * 2, found[0].support, found[0].new, found[0].long * 2, straight)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Overlap of two convex quads over their union."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    union = cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def new_edge_share(current: np.ndarray, reference: np.ndarray, changed: np.ndarray, long_px: float, *,
                   level: float, aspect: float) -> float:
    """How much NEW edge (a step not in ``reference`` at the same place and direction) lies
    where the table changed, in card perimeters of ``long_px``: a card dealt brings its
    sides and its print (well over one), the lamp's reflection moving over the pile or a
    shadow's soft edge next to none. What says "something came" when no outline is found."""
    pts = cv2.findNonZero(changed)
    if pts is None:
        return 0.0
    x, y, w, h = cv2.boundingRect(pts)
    g = 4
    h_, w_ = current.shape[:2]
    x0, y0, x1, y1 = max(x - g, 0), max(y - g, 0), min(x + w + g, w_), min(y + h + g, h_)
    cur, ref = grey(current[y0:y1, x0:x1]), grey(reference[y0:y1, x0:x1])
    _, _, vnew, hnew, _, _ = edge_maps(cur, ref, level)
    near = cv2.dilate((changed[y0:y1, x0:x1] > 0).astype(np.uint8), np.ones((5, 5), np.uint8))
    fresh = cv2.countNonZero(cv2.bitwise_and(cv2.bitwise_or(vnew, hnew), near))
    return fresh / (3.0 * 2.0 * (long_px + long_px / aspect))  # (an edge is widened to 3 px across)
