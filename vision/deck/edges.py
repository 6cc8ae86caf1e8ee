"""A card's outline to a fraction of a pixel: each side fitted to where the mat ends.

Every dealt card is compared with the learnt views, so a learnt outline a few pixels off
costs every read of that card some of its margin. A threshold on the colour distance to the
mat snaps to whatever is most unlike the mat: on a card whose paper is close to the mat's
colour that is the printed frame, millimetres inside the edge. Here each side is found
separately: along short profiles across it, from the mat inwards, the first place the
colour leaves the mat's by half as much as the card's own paper does (its margin between
edge and frame); a robust line through those places, and the corners where the lines meet.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.rim import paper_like
from vision.deck.views import inward_normal

SAMPLES = 24  # profiles per side, clear of the rounded corners
REACH = 0.12  # each way across the side, as a share of the card's short side
STEPS = 49
# how far a kept edge point may lie off the line: a pixel at 1080p (0.5 mm), as much of
# the card in a photo of any other resolution
TRIM_SHORT = 0.008  # of the card's short side
TRIM_MIN_PX = 1.0
HUE_CLEARER = 1.5  # the hue's fit is taken when the paper stands out this much more clearly there
# a side's line turned from the rough outline's side by more than this (tan): the grain of
# glossy wood or a reflection's halo beside the card, not its edge (the rough outline, found at
# 640 px, is within a degree; perspective turns a side by about as much)
MAX_TURN = 0.05
MAX_MOVE = 0.2  # of the short side: a corner moved further means the fit went astray (an
# outline on the moderna frame, 3 mm inside, moves a corner by up to 0.13)


def _line_through(points: np.ndarray, within_px: float, along: np.ndarray | None) -> np.ndarray | None:
    """A line through the side's edge points, the strays left out: a profile can cross a
    pip's shadow or a speck of the mat first and put its point millimetres off, and a few
    of those pull even a robust fit by several pixels. So every line through two of the
    points is tried, the one most points lie within ``within_px`` of is kept, and the line is
    fitted to those points alone. Only lines within ``MAX_TURN`` of ``along`` (the rough side's
    direction, a unit vector; None: any) are tried."""
    if len(points) < SAMPLES // 2:
        return None
    p = points.astype(np.float64)
    i, j = np.triu_indices(len(p), 1)
    d = p[j] - p[i]
    length = np.linalg.norm(d, axis=1)
    ok = length > 1e-6
    if along is not None:
        ok &= np.abs(d[:, 0] * along[1] - d[:, 1] * along[0]) <= MAX_TURN * length
    i, j, d, length = i[ok], j[ok], d[ok], length[ok]
    # distance of every point to every candidate line (pairs x points)
    off = np.abs((p[None, :, 0] - p[i, None, 0]) * d[:, None, 1]
                 - (p[None, :, 1] - p[i, None, 1]) * d[:, None, 0]) / length[:, None]
    inliers = off <= within_px
    if not len(inliers):
        return None
    keep = inliers[int(np.argmax(inliers.sum(axis=1)))]
    if keep.sum() < SAMPLES // 3:
        return None
    vx, vy, x0, y0 = cv2.fitLine(p[keep].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.float64([vx, vy, x0, y0])


def _meet(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    (ux, uy, ax, ay), (vx, vy, bx, by) = a, b
    det = ux * (-vy) - uy * (-vx)
    if abs(det) < 1e-6:
        return None
    t = ((bx - ax) * (-vy) - (by - ay) * (-vx)) / det
    return np.float64([ax + t * ux, ay + t * uy])


def fit_edges(image: np.ndarray, quad: np.ndarray, mat_lab: np.ndarray) -> np.ndarray:
    """``quad`` (4x2, in order around the card) refined to the card's edges in ``image``
    (BGR), or returned as it was when the card's paper cannot be told from the mat."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    h, w = image.shape[:2]
    short = min(np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4))
    pad = int(REACH * short) + 3
    x0, y0 = np.maximum(q.min(axis=0) - pad, 0).astype(int)
    x1, y1 = np.minimum(q.max(axis=0) + pad, (w - 1, h - 1)).astype(int)
    roi = cv2.GaussianBlur(image[y0:y1 + 1, x0:x1 + 1], (3, 3), 0)
    diff = cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).astype(np.float32) - np.float32(mat_lab)
    # the colour's whole distance from the mat; its hue alone (a cream paper on white
    # marble: the marble's grey veins differ in lightness, the paper in hue) where that
    # tells the paper from what lies around the card much more clearly
    whole = _fit(np.linalg.norm(diff, axis=2), q, x0, y0, short, mat_lab)
    hue = _fit(np.linalg.norm(diff[..., 1:], axis=2), q, x0, y0, short, mat_lab)
    if hue is not None and (whole is None or hue[1] > HUE_CLEARER * whole[1]):
        return hue[0]
    return quad if whole is None else whole[0]


def _fit(dist: np.ndarray, q: np.ndarray, x0: int, y0: int, short: float,
         mat_lab: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The outline fitted on one distance map, and how clearly the paper stands out there
    (paper over the spread of what lies outside), or None."""
    local = q - (x0, y0)
    centre = local.mean(axis=0)
    ts = np.linspace(0.12, 0.88, SAMPLES)
    ks = np.linspace(-REACH * short, REACH * short, STEPS)  # outside (-) to inside (+)
    sides = []
    for i in range(4):
        a, b = local[i], local[(i + 1) % 4]
        inward = inward_normal(a, b, centre)
        base = a[None] + ts[:, None] * (b - a)[None]
        pts = base[:, None, :] + ks[None, :, None] * inward[None, None, :]  # SAMPLES x STEPS x 2
        prof = cv2.remap(dist, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        sides.append((base, inward, prof))
    # the card's own paper: what lies just inside the edges, well clear of the mat
    inner = np.concatenate([p[:, STEPS * 3 // 4:] for _, _, p in sides]).ravel()
    paper = float(np.percentile(inner, 30))
    outer = np.concatenate([p[:, :STEPS // 5] for _, _, p in sides]).ravel()
    floor = float(np.median(outer))
    if paper - floor < 6.0:  # paper and mat alike: nothing to fit to
        return None
    clarity = (paper - floor) / max(float(np.percentile(outer, 90)) - floor, 1.0)
    level = floor + 0.5 * (paper - floor)
    lines = []
    for base, inward, prof in sides:
        found = []
        for j in range(SAMPLES):
            above = np.nonzero(prof[j] >= level)[0]
            if not len(above) or above[0] == 0:
                continue
            k = above[0]
            lo, hi = prof[j, k - 1], prof[j, k]
            f = (level - lo) / max(hi - lo, 1e-6)
            found.append(base[j] + (ks[k - 1] + f * (ks[k] - ks[k - 1])) * inward)
        # (not on a paper-like table: the rough outline there may be a tinted panel's, which the
        # fit moves out to the paper's edge, turning it)
        along = None if paper_like(np.float32(mat_lab)) else np.float64([inward[1], -inward[0]])
        line = _line_through(np.array(found), max(TRIM_MIN_PX, TRIM_SHORT * short), along)
        if line is None:
            return None
        lines.append(line)
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return None
    out = np.array(corners) + (x0, y0)
    if np.max(np.linalg.norm(out - q, axis=1)) > MAX_MOVE * short:
        return None
    return out.astype(np.float32), clarity
