"""The squares a marker detector found: their shape and size, which are new across two
searches, and which of those it could not read reach the soft decision (``soft_look``).

The soft decision (vision.softdecode) is the costly step of a read on a busy table, so the
squares are sorted out before it by what costs little: their shape, their size against the
other stickers read (in px) or against the printed size (in mm through the mat's
homography), and a cheap look at all of them at once (``looks_like_marker``).
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.game import DECK
from vision.softdecode import SoftDecoder, looks_like_marker

MIN_SOFT_SIDE_PX = 10.0  # under 1.25 px per cell no decision has a margin (12 px already loses cards)
# a sticker's square on the table, measured in mm through the mat's homography: the true
# outline within 0.98-1.06 of the printed marker on the realistic camera (a pile lifts it a
# little), the detector's squares of a sticker within 0.87-1.15 (a pixel or so inside). A
# cloth's check or a menu's box of another size goes no further than this (the soft
# decision was most of a frame's time on a checked cloth at 720p)
SOFT_SIZE = (0.75, 1.25)
MAX_SOFT_CANDIDATES = 200  # a busy table shows ~100 squares; bounded time on clutter


NEXT = [1, 2, 3, 0]  # each corner's next one, round the quad


def side_lengths(q: np.ndarray) -> np.ndarray:
    """The four side lengths of a quad (plain arithmetic: called a thousand times a frame)."""
    q = q.reshape(4, 2)
    d = q[NEXT] - q
    return np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])


def mean_side(q: np.ndarray) -> float:
    return float(side_lengths(q).mean())


def sides_of(quads: list[np.ndarray]) -> np.ndarray:
    """The mean side of each quad, all at once."""
    a = np.array(quads, np.float32).reshape(-1, 4, 2)
    return np.linalg.norm(a[:, NEXT] - a, axis=2).mean(axis=1)


def new_squares(fresh, before: list[np.ndarray]) -> np.ndarray:
    """Which of ``fresh`` (quads, or an (n, 4, 2) array) are not squares found ``before`` (the
    same marker across the edge of two searches: centres closer than half a side)."""
    if not len(fresh) or not len(before):
        return np.ones(len(fresh), bool)
    a, b = np.array(fresh, np.float32), np.array(before, np.float32)
    side = np.linalg.norm(b[:, NEXT] - b, axis=2).mean(axis=1)
    d = np.linalg.norm(a.mean(axis=1)[:, None] - b.mean(axis=1)[None], axis=2)
    return ~(d < 0.5 * side[None]).any(axis=1)


def quad_ok(q: np.ndarray) -> tuple[bool, float, str]:
    """Convex, roughly square; returns (ok, mean side in px, why not)."""
    sides = side_lengths(q)
    if sides.min() < 4:
        return False, 0.0, "tiny"
    if sides.max() / sides.min() > 1.6:
        return False, float(sides.mean()), "not square"
    if not cv2.isContourConvex(q.astype(np.float32).reshape(-1, 1, 2)):
        return False, float(sides.mean()), "not convex"
    diag = np.linalg.norm(q[0] - q[2]), np.linalg.norm(q[1] - q[3])
    if max(diag) / min(diag) > 1.4:
        return False, float(sides.mean()), "skewed"
    return True, float(sides.mean()), ""


def sticker_sized(shape: tuple[int, ...], corners, ids, quads: np.ndarray, *, marker_mm: float,
                  to_mm: np.ndarray | None = None) -> np.ndarray:
    """Which of ``quads`` ((n, 4, 2), squares not read) have a sticker's shape and size: against
    the card markers read (``corners``, ``ids``: 0.6-1.6 of their median side) or, with the mat
    in view (``to_mm``), in mm (SOFT_SIZE). Before the cheap look, which the sensor's noise sways."""
    sides = [mean_side(q) for q, i in zip(corners, ids) if i < len(DECK)]
    typical = float(np.median(sides)) if sides else None
    lo, hi = (0.6 * typical, 1.6 * typical) if typical else (MIN_SOFT_SIDE_PX, 0.25 * min(shape[:2]))
    lo = max(lo, MIN_SOFT_SIDE_PX)
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    edges = np.linalg.norm(quads[:, NEXT] - quads, axis=2)  # (n, 4) side lengths
    side = edges.mean(axis=1)
    shaped = (side >= lo) & (side <= hi) & (edges.min(axis=1) >= 4) & (edges.max(axis=1) <= 1.6 * edges.min(axis=1))
    if to_mm is not None and shaped.any():
        mm = cv2.perspectiveTransform(quads[shaped].reshape(-1, 1, 2).astype(np.float64), to_mm).reshape(-1, 4, 2)
        side_mm = np.linalg.norm(mm[:, NEXT] - mm, axis=2).mean(axis=1) / marker_mm
        shaped[np.nonzero(shaped)[0]] = (side_mm >= SOFT_SIZE[0]) & (side_mm <= SOFT_SIZE[1])
    return shaped


def soft_look(gray: np.ndarray, decoder: SoftDecoder, corners, ids, unread, *, marker_mm: float,
              to_mm: np.ndarray | None = None) -> tuple[list, list, list, list, list]:
    """Squares the detector found but could not read: soft decision (vision.softdecode)
    on each one of a sticker's size and shape that looks like a marker at all (a cheap
    look at all of them at once: a tablecloth's checks stop there) and does not overlap
    a marker already read. With the mat in view (``to_mm``: image px -> mat mm) a
    sticker's size is known in mm (SOFT_SIZE). Returns (corners, ids, margins) read, the
    marker-like squares refused ("seen but not read"), and those of them a card's code fits
    but for a cell or two (``SoftRead.doubted``: a card to ask about however clear it looks)."""
    quads = np.array([q.reshape(4, 2) for q in unread], np.float32)
    shaped = sticker_sized(gray.shape, corners, ids, quads, marker_mm=marker_mm, to_mm=to_mm)
    side = np.linalg.norm(quads[:, NEXT] - quads, axis=2).mean(axis=1)
    order = np.nonzero(shaped)[0]
    order = order[np.argsort(-side[order], kind="stable")]
    order = order[looks_like_marker(gray, quads[order])][:MAX_SOFT_CANDIDATES]
    taken_c = [q.reshape(4, 2).mean(axis=0) for q in corners]
    taken_s = [mean_side(q) for q in corners]
    out_c, out_i, out_m, refused, doubted = [], [], [], [], []
    for k in order:
        q = quads[k]
        if not quad_ok(q)[0]:
            continue
        c = q.mean(axis=0)
        if taken_c and (np.linalg.norm(np.array(taken_c) - c, axis=1)
                        < 0.5 * np.maximum(np.array(taken_s), side[k])).any():
            continue  # the same square at another threshold, or a marker already read
        taken_c.append(c)
        taken_s.append(float(side[k]))
        got = decoder.decode(gray, q)
        if got.read:
            out_c.append(got.corners.reshape(1, 4, 2))
            out_i.append(int(got.index))
            out_m.append(got.margin)
        else:
            refused.append(got.corners)
            if got.doubted:
                doubted.append(got.corners)
    return out_c, out_i, out_m, refused, doubted
