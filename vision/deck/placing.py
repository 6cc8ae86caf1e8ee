"""The outline search's core (:mod:`vision.deck.outline`): the best placed rectangle of given
sizes in a patch turned to given directions, scored on the patch's edges.

In a patch turned so that a direction lies along its rows, the vertical and horizontal edges
(and which of them are new against a reference) are 0/1 maps, and each side of a rectangle
is a run of one of them: a vertical side at column x from row y is ``b`` entries of a
column. Every placement is scored at once by box sums along the rows and columns, over the
part of the maps the scored placements reach. The sums are exact (0/1 maps in integers; the
strength maps' running sums in double hold every bit).
"""

from __future__ import annotations

import cv2
import numpy as np

KX, KY = np.ones((1, 3), np.uint8), np.ones((3, 1), np.uint8)
TAPS_X, TAPS_Y = np.float32([[0.25, 0.5, 0.25]]), np.float32([[0.25], [0.5], [0.25]])


def edge_maps(cur: np.ndarray, ref: np.ndarray | None, level: float) -> tuple[np.ndarray, ...]:
    """In an axis-aligned (turned) patch: where a vertical and a horizontal edge lies now
    (uint8 0/1, each widened a pixel across), which of them are new, and the step's strength
    peaked across the side (float32, 0-1: where in the widened band the side lies)."""
    ax, ay = _steps(cur)
    vert, horiz = _sides(ax, ay, level)
    if ref is None:
        vnew, hnew = vert, horiz
    else:
        # new: no step along the same direction within a pixel in the reference (a step
        # whose contrast only changed, under a reflection that moved, is not new)
        was_v, was_h = _sides(*_steps(ref), level)
        vnew = cv2.bitwise_and(vert, 1 - cv2.dilate(was_v, KX))
        hnew = cv2.bitwise_and(horiz, 1 - cv2.dilate(was_h, KY))
    out = [cv2.dilate(m, k) for m, k in zip((vert, horiz, vnew, hnew), (KX, KY, KX, KY))]
    cap = 4 * level
    vw = cv2.filter2D(np.multiply(np.minimum(ax, cap), vert, dtype=np.float32), -1, TAPS_X)
    hw = cv2.filter2D(np.multiply(np.minimum(ay, cap), horiz, dtype=np.float32), -1, TAPS_Y)
    return (*out, vw / cap, hw / cap)


def _steps(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The step per pixel across columns and across rows (float32, absolute)."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8
    return np.abs(gx, out=gx), np.abs(gy, out=gy)


def _sides(ax: np.ndarray, ay: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a vertical and a horizontal step lies (uint8 0/1): above ``level`` and clearly
    along one direction."""
    vert = (ax > level) & (ax > 1.5 * ay)
    horiz = (ay > level) & (ay > 1.5 * ax)
    return vert.view(np.uint8), horiz.view(np.uint8)


def _box_sums(m: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Sums of ``length`` consecutive entries of ``m`` along ``axis`` (for every start)."""
    ksize = (1, length) if axis == 0 else (length, 1)
    out = cv2.boxFilter(m, cv2.CV_32F, ksize, anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT)
    return out[:m.shape[0] - length + 1] if axis == 0 else out[:, :m.shape[1] - length + 1]


def best_in(maps: tuple[np.ndarray, ...], a: int, b: int, inside: np.ndarray | None
            ) -> tuple[float, float, float, int, int] | None:
    """The best placed ``a`` x ``b`` (width x height) rectangle in the turned patch: its
    score, supports and top-left corner. Only the placements whose centre lies where
    ``inside`` is set are scored (the rest score 0: the first one is returned when none
    scores, as an argmax over all placements)."""
    h, w = maps[0].shape
    if a + 2 >= w or b + 2 >= h:
        return None
    per = 2.0 * (a + b)
    ny, nx = h - b, w - a
    y0, x0, y1, x1 = 0, 0, ny, nx
    centres = None
    if inside is not None:
        centres = inside[b // 2:b // 2 + ny, a // 2:a // 2 + nx]
        x0, y0, cw, ch = cv2.boundingRect(centres)  # (the box round its set pixels)
        if cw == 0:
            return _first(maps, a, b, per)
        x1, y1 = x0 + cw, y0 + ch
    # the sides' sums only over the maps those placements reach (a vertical side at column x
    # spanning rows y..y+b: box sums along rows; exact sums, wherever they start)
    vs, hs, vns, hns, vws, hws = _side_sums(maps, a, b, y0, x0, y1, x1)
    ny, nx = y1 - y0, x1 - x0
    sup = _sums(vs, hs, ny, nx, a, b, per)
    new = _sums(vns, hns, ny, nx, a, b, per)
    score = sup + 0.5 * new + 0.2 * _sums(vws, hws, ny, nx, a, b, per)
    if centres is not None:  # the rectangle's centre where the table changed
        score = np.where(centres[y0:y1, x0:x1] > 0, score, 0)
    k = int(np.argmax(score))
    y, x = divmod(k, nx)
    if score[y, x] <= 0:  # (argmax over all placements: the first one)
        return _first(maps, a, b, per)
    return float(score[y, x]), float(sup[y, x]), float(new[y, x]), x + x0, y + y0


def _side_sums(maps: tuple[np.ndarray, ...], a: int, b: int, y0: int, x0: int, y1: int, x1: int
               ) -> tuple[np.ndarray, ...]:
    """The box sums of the maps for the placements y0:y1, x0:x1 (top-left corners of ``a`` x
    ``b`` rectangles), indexed from (y0, x0): vertical sides' along ``b`` rows, horizontal
    sides' along ``a`` columns."""
    vert, horiz, vnew, hnew, vw, hw = [m[y0:y1 + b, x0:x1 + a] for m in maps]
    return (_box_sums(vert, b, 0), _box_sums(horiz, a, 1), _box_sums(vnew, b, 0), _box_sums(hnew, a, 1),
            _box_sums(vw, b, 0), _box_sums(hw, a, 1))


def _first(maps: tuple[np.ndarray, ...], a: int, b: int, per: float) -> tuple[float, float, float, int, int]:
    """The first placement, scoring 0 (what an argmax over none that scores returns)."""
    vs, hs, vns, hns, _, _ = _side_sums(maps, a, b, 0, 0, 1, 1)
    return 0.0, float(_sums(vs, hs, 1, 1, a, b, per)[0, 0]), float(_sums(vns, hns, 1, 1, a, b, per)[0, 0]), 0, 0


def _sums(vs: np.ndarray, hs: np.ndarray, ny: int, nx: int, a: int, b: int, per: float) -> np.ndarray:
    """A rectangle's four sides' box sums over the perimeter, for the placements 0:ny, 0:nx
    (left, right, top, bottom: float32, in that order)."""
    return (vs[:ny, :nx] + vs[:ny, a:a + nx] + hs[:ny, :nx] + hs[b:b + ny, :nx]) / per


def search(cur: np.ndarray, ref: np.ndarray | None, mask: np.ndarray, angles: list[float],
           sizes_px: list[tuple[int, int]], level: float) -> tuple | None:
    """The best rectangle over the ``angles`` (degrees) and sizes (width, height px) in the
    patch: (score, support, new, x, y, width, height, turn matrix, angle) or None."""
    best: tuple | None = None
    ph, pw = cur.shape
    centre = (pw / 2, ph / 2)
    for ang in angles:
        rot = cv2.getRotationMatrix2D(centre, ang, 1.0)
        # the turned patch big enough to hold all of the patch
        c, s = abs(rot[0, 0]), abs(rot[0, 1])
        nw, nh = int(pw * c + ph * s) + 2, int(pw * s + ph * c) + 2
        rot[0, 2] += nw / 2 - centre[0]
        rot[1, 2] += nh / 2 - centre[1]
        tc = cv2.warpAffine(cur, rot, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        tr = None if ref is None else cv2.warpAffine(ref, rot, (nw, nh), flags=cv2.INTER_LINEAR,
                                                      borderMode=cv2.BORDER_REPLICATE)
        tm = cv2.warpAffine(mask, rot, (nw, nh), flags=cv2.INTER_NEAREST)
        tm = cv2.dilate(tm, np.ones((5, 5), np.uint8))
        maps = edge_maps(tc, tr, level)
        for a, b in sizes_px:
            got = best_in(maps, a, b, tm)
            if got is not None and (best is None or got[0] > best[0] + 0.01):  # (ties: the first size, the biggest)
                best = (*got, a, b, rot, ang)
    return best


def corners(best: tuple) -> np.ndarray:
    """A search result's rectangle in the patch's own pixels (4x2, in order around it)."""
    x, y, a, b, rot = best[3:8]
    quad = np.float32([[x + 0.5, y + 0.5], [x + a + 0.5, y + 0.5], [x + a + 0.5, y + b + 0.5],
                       [x + 0.5, y + b + 0.5]])
    return cv2.transform(quad[None], cv2.invertAffineTransform(rot))[0]
