"""The marker detector on a busy frame, a part at a time (``detect_tiled``).

Before it decodes them, OpenCV's ArUco detector pairs every square it found with every other
one (it groups the same square at two thresholds) and then every square kept with every
other one again (which lies inside which): its time grows with the square of the number of
squares. A black-and-white checked cloth shows 800 squares of a sticker's size, 1,600 at the
two thresholds, and most of the frame's time went there. On four quarters of the frame the
pairs are a quarter; a square across a cut is found on a strip along it, searched as well.

Squares the size of the mat's corner markers are not looked for on the strips (they would
have to be three times as wide): the cuts are laid clear of the corner markers in view.
"""

from __future__ import annotations

import numpy as np

from vision.squares import NEXT

# the cut's position is moved off the middle by up to this share of the side, to clear the
# mat's corner markers
CUT_ROOM = 0.25


def _cut(length: int, strip_px: int, avoid: list[tuple[float, float]]) -> int | None:
    """A cut near the middle of ``length`` px whose strip crosses no span of ``avoid`` (None:
    none within CUT_ROOM of the middle, or the length too short for two parts and a strip)."""
    if length < 4 * strip_px:
        return None
    mid = length // 2
    for d in range(0, int(CUT_ROOM * length), 4):
        for at in (mid - d, mid + d):
            if all(at + strip_px // 2 < lo or at - strip_px // 2 > hi for lo, hi in avoid):
                return at
    return None


def detect_tiled(detect, image: np.ndarray, *, strip_px: int, avoid: list[np.ndarray] = (), tune=None):
    """``detect`` (an ArUco detector's ``detectMarkers``) on ``image`` in quarters, and on a
    strip ``2 * strip_px`` wide along each cut (a square of up to ``(strip_px - 8) / 1.42`` px across
    a cut lies whole in it, clear of the strip's own edges). The cuts keep clear of the quads
    in ``avoid`` (the mat's corner markers). Returns (corners, ids, squares not read) as the
    detector does, each square once (``one_per_square``); the whole image in one call when no
    cut clears them. ``tune(longest_px)``, called before each part: the detector's contour
    sizes are rates of the longest side of the image it is given, a part's here."""
    h, w = image.shape[:2]
    xc = _cut(w, strip_px, [(float(q[:, 0].min()), float(q[:, 0].max())) for q in avoid])
    yc = _cut(h, strip_px, [(float(q[:, 1].min()), float(q[:, 1].max())) for q in avoid])
    xs = [0, w] if xc is None else [0, xc, w]
    ys = [0, h] if yc is None else [0, yc, h]
    boxes = [(x0, y0, x1, y1) for x0, x1 in zip(xs, xs[1:]) for y0, y1 in zip(ys, ys[1:])]
    tiles = len(boxes)
    if xc is not None:
        boxes.append((xc - strip_px, 0, xc + strip_px, h))
    if yc is not None:
        boxes.append((0, yc - strip_px, w, yc + strip_px))
    return one_per_square(detect_parts(detect, image, boxes, tune=tune), first_strip=tiles)


def detect_parts(detect, image: np.ndarray, boxes: list[tuple[int, int, int, int]], *, tune=None,
                 prepare=None) -> list[tuple]:
    """``detect`` on each part ``(x0, y0, x1, y1)`` of ``image``: one answer (corners, ids, squares
    not read) a part, in ``image``'s pixels. ``tune(longest_px)`` before each part (the detector's
    contour sizes are rates of its image's longest side); ``prepare(part)``: what the detector
    is given of the part (the reader's light blur)."""
    found = []
    for x0, y0, x1, y1 in boxes:
        if tune is not None:
            tune(max(x1 - x0, y1 - y0))
        part = image[y0:y1, x0:x1]
        c, i, u = detect(part if prepare is None else prepare(part))
        at = np.float32([x0, y0])
        found.append(([q.reshape(4, 2) + at for q in c], i, [q.reshape(4, 2) + at for q in u]))
    return found


def one_per_square(found: list[tuple], *, first_strip: int | None = None) -> tuple[list, np.ndarray | None, list]:
    """The detector's answers (corners, ids, squares not read) of several calls on parts of one
    image as one answer, each square once. Of two squares of two calls closer than half a side
    (one square seen twice), one read wins over one not read, then one found on a strip (calls
    from ``first_strip`` on: its thresholds are the whole image's there), then the bigger."""
    quads, ids, call = [], [], []
    for n, (c, i, u) in enumerate(found):
        got = [] if i is None else np.asarray(i).ravel().tolist()
        quads += [q.reshape(4, 2) for q in c] + [q.reshape(4, 2) for q in u]
        ids += got + [-1] * len(u)
        call += [n] * (len(got) + len(u))
    if not quads:
        return [], None, []
    a = np.array(quads, np.float32)
    k = np.array(ids)
    n = np.array(call)
    edges = np.linalg.norm(a[:, NEXT] - a, axis=2)
    strip = n >= (len(found) if first_strip is None else first_strip)
    rank = edges.sum(axis=1) + np.where(strip, 1e4, 0.0) + np.where(k >= 0, 1e6, 0.0)
    centre = a.mean(axis=1)
    side = edges.mean(axis=1)
    keep = np.ones(len(a), bool)
    for m in range(first_strip or 1, len(found)):  # each strip against the calls before it
        this, before = np.nonzero(n == m)[0], np.nonzero(n < m)[0]
        if not len(this) or not len(before):
            continue
        d = np.linalg.norm(centre[this, None] - centre[None, before], axis=2)
        near = d < 0.5 * np.maximum(side[this, None], side[None, before])
        for t, o in zip(*np.nonzero(near)):
            x, y = this[t], before[o]
            if keep[x] and keep[y]:
                keep[y if rank[x] > rank[y] else x] = False
    read = np.nonzero(keep & (k >= 0))[0]
    ids_out = k[read].astype(np.int32).reshape(-1, 1) if len(read) else None
    return [a[j][None] for j in read], ids_out, [a[j][None] for j in np.nonzero(keep & (k < 0))[0]]
