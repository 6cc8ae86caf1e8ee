"""The outline search's core (:mod:`vision.deck.outline`): the best placed rectangle of given
sizes in a patch turned to given directions, scored on the patch's edges.

In a patch turned so that a direction lies along its rows, the vertical and horizontal edges
(and which of them are new against a reference) are 0/1 maps, and each side of a rectangle
is a run of one of them: a vertical side at column x from row y is ``b`` entries of a
column. Every placement is scored at once by the runs' sums along the rows and columns, over
the part of the maps the scored placements reach: box sums per size, or, when many sizes are
tried in each direction, the differences of running sums made once for all of them.

The sums are exact, so both ways give the very same scores: the 0/1 maps' in integers, the
strength maps' in double (they are float32 between 1/16 and 1 where not 0, so every bit of a
sum over the patch fits), each run's sum then rounded to float32. The edges and the new edges
of a direction are summed as one integer, the edges' count in the upper bits (a side is far
shorter than 65536 px, so neither count spills into the other), and a rectangle's four sides'
counts added before they are taken apart (integers: the order does not matter). A size whose
counts alone show it cannot score above the best rectangle so far is not scored further.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KX, KY = np.ones((1, 3), np.uint8), np.ones((3, 1), np.uint8)
TAPS_X, TAPS_Y = np.float32([[0.25, 0.5, 0.25]]), np.float32([[0.25], [0.5], [0.25]])
EDGE_BIT = 16  # a packed count: the edges' from this bit up, the new edges' below it
LOW = (1 << EDGE_BIT) - 1
# a widened (edge + new edge) map, 0-2 (every new edge is an edge), to the packed counts
PACK = np.zeros(256, np.int32)
PACK[1], PACK[2] = 1 << EDGE_BIT, (1 << EDGE_BIT) + 1
RUNNING = 2  # more sizes than this in a direction: running sums made once serve them all
REACH = 4  # px around the placements' sides: a map's pixel depends on the patch's within 3 (a step, its
# side, the reference's side widened, the new side widened), so its edges come out there as over the whole patch


@dataclass(frozen=True)
class Sides:
    """A turned patch's edges as :func:`best_in` sums them (h x w px). ``running``: the
    vertical maps' running sums down every column ((h + 1) x w, from 0) D and the horizontal
    ones' along every row (h x (w + 1)) A, the edges and the new edges packed in one int32
    (:data:`EDGE_BIT`), kept as D + A and D - A (h x w: a rectangle's four sides' counts are
    then two differences of each, one at its corners), then the vertical and the horizontal
    strength's running sums (double); else the widened maps themselves (packed alike, the
    strength float32). ``at``: where the maps' top-left pixel lies in the turned patch (x, y):
    they may cover only the part of it the scored placements reach."""

    h: int
    w: int
    maps: tuple[np.ndarray, ...]
    running: bool
    at: tuple[int, int] = (0, 0)


def edge_maps(cur: np.ndarray, ref: np.ndarray | None, level: float) -> tuple[np.ndarray, ...]:
    """In an axis-aligned (turned) patch: where a vertical and a horizontal edge lies now
    (uint8 0/1, each widened a pixel across), which of them are new, and the step's strength
    peaked across the side (float32, 0-1: where in the widened band the side lies)."""
    vert, horiz, vnew, hnew, vw, hw = _found(cur, ref, level)
    out = [cv2.dilate(m, k) for m, k in zip((vert, horiz, vnew, hnew), (KX, KY, KX, KY))]
    return (*out, vw, hw)


def scored_edges(cur: np.ndarray, ref: np.ndarray | None, level: float, running: bool,
                 at: tuple[int, int] = (0, 0)) -> Sides:
    """The patch's :class:`Sides` (its :func:`edge_maps`); ``at``: where it lies in the turned patch."""
    h, w = cur.shape
    vert, horiz, vnew, hnew, vw, hw = _found(cur, ref, level)
    if running:
        down, along = _down(cv2.dilate(vert, KX)), _along(cv2.dilate(horiz, KY))
        if ref is None:  # (every edge is new: the same sums twice)
            down_new, along_new = down, along
        else:
            down_new, along_new = _down(cv2.dilate(vnew, KX)), _along(cv2.dilate(hnew, KY))
        vertical, horizontal = ((down << EDGE_BIT) + down_new)[:h], ((along << EDGE_BIT) + along_new)[:, :w]
        maps = (vertical + horizontal, vertical - horizontal, _down(vw), _along(hw))
    else:
        # (widened: 2 where a new edge is within a pixel, else 1 where an edge is: the very
        # pixels each map widened alone holds)
        maps = (cv2.LUT(cv2.dilate(cv2.add(vert, vnew), KX), PACK), cv2.LUT(cv2.dilate(cv2.add(horiz, hnew), KY), PACK),
                vw, hw)
    return Sides(h, w, maps, running, at)


def _found(cur: np.ndarray, ref: np.ndarray | None, level: float) -> tuple[np.ndarray, ...]:
    """:func:`edge_maps`' maps, the edges not yet widened."""
    # (the steps are taken 8 times over, as the Sobel filter sums them, and the level and the
    # cap with them: a scaling by 8 is exact, so every comparison and strength is the same)
    ax, ay = _steps(cur)
    level = 8 * level
    vert, horiz = _sides(ax, ay, level)
    if ref is None:
        vnew, hnew = vert, horiz
    else:
        # new: no step along the same direction within a pixel in the reference (a step
        # whose contrast only changed, under a reflection that moved, is not new)
        was_v, was_h = _sides(*_steps(ref), level)
        vnew = cv2.bitwise_and(vert, 1 - cv2.dilate(was_v, KX))
        hnew = cv2.bitwise_and(horiz, 1 - cv2.dilate(was_h, KY))
    cap = 4 * level
    # (the steps, no longer needed, capped and kept on the sides in place)
    vw = cv2.filter2D(np.multiply(np.minimum(ax, cap, out=ax), vert, out=ax), -1, TAPS_X)
    hw = cv2.filter2D(np.multiply(np.minimum(ay, cap, out=ay), horiz, out=ay), -1, TAPS_Y)
    return vert, horiz, vnew, hnew, np.divide(vw, cap, out=vw), np.divide(hw, cap, out=hw)


def _down(m: np.ndarray) -> np.ndarray:
    """Running sums down every column of ``m`` (a 0/1 map: int32; a float32 one: double)."""
    s = cv2.integral(m, sdepth=cv2.CV_32S if m.dtype == np.uint8 else cv2.CV_64F)
    return s[:, 1:] - s[:, :-1]


def _along(m: np.ndarray) -> np.ndarray:
    """Running sums along every row of ``m`` (as :func:`_down`)."""
    s = cv2.integral(m, sdepth=cv2.CV_32S if m.dtype == np.uint8 else cv2.CV_64F)
    return s[1:] - s[:-1]


def _steps(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """8 times the step per pixel across columns and across rows (float32, absolute: the Sobel
    filter's sums)."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return np.abs(gx, out=gx), np.abs(gy, out=gy)


def _sides(ax: np.ndarray, ay: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a vertical and a horizontal step lies (uint8 0/1): above ``level`` and clearly
    along one direction."""
    vert = (ax > level) & (ax > 1.5 * ay)
    horiz = (ay > level) & (ay > 1.5 * ax)
    return vert.view(np.uint8), horiz.view(np.uint8)


def _box_sums(m: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Sums of ``length`` consecutive entries of ``m`` along ``axis`` (for every start):
    int32 for an int32 map, float32 for a float32 one."""
    ksize = (1, length) if axis == 0 else (length, 1)
    depth = cv2.CV_32S if m.dtype == np.int32 else cv2.CV_32F
    out = cv2.boxFilter(m, depth, ksize, anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT)
    return out[:m.shape[0] - length + 1] if axis == 0 else out[:, :m.shape[1] - length + 1]


FIRST = "first"  # :func:`best_in`'s answer when none scores and its maps leave out the first placement


def best_in(edges: Sides, a: int, b: int, inside: np.ndarray | None, beat: float | None = None
            ) -> tuple[float, float, float, int, int] | str | None:
    """The best placed ``a`` x ``b`` (width x height) rectangle in the turned patch: its
    score, supports and top-left corner. Only the placements whose centre lies where
    ``inside`` (the whole turned patch) is set are scored (the rest score 0: the first one is
    returned when none scores, as an argmax over all placements; :data:`FIRST` when ``edges``
    leave it out). None when no placement can score above ``beat``, or no rectangle of that
    size fits."""
    h, w = (edges.h, edges.w) if inside is None else inside.shape
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
            return _first(edges, a, b, per, (h, w))
        x1, y1 = x0 + cw, y0 + ch
    # the sides' sums only for those placements (a vertical side at column x spanning rows
    # y..y+b: exact sums, wherever they start), in the maps' own pixels
    ox, oy = edges.at
    both = _counts(edges, a, b, y0 - oy, x0 - ox, y1 - oy, x1 - ox)
    if beat is not None and not _above(both, per, beat):
        return None
    sup, new = _shares(both, per)
    score = sup + 0.5 * new + 0.2 * _strength(edges, a, b, y0 - oy, x0 - ox, y1 - oy, x1 - ox, per)
    if centres is not None:  # the rectangle's centre where the table changed
        score = np.where(centres[y0:y1, x0:x1] > 0, score, 0)
    k = int(np.argmax(score))
    y, x = divmod(k, x1 - x0)
    if score[y, x] <= 0:  # (argmax over all placements: the first one)
        return _first(edges, a, b, per, (h, w))
    return float(score[y, x]), float(sup[y, x]), float(new[y, x]), x + x0, y + y0


def _above(both: np.ndarray, per: float, beat: float) -> bool:
    """Whether a placement may score (float32, as :func:`best_in` works it out) above ``beat``.
    A side's strength is at most its share on an edge (the strength maps lie under the widened
    edges, and are at most 1), and its new edges are among its edges: a score is at most 1.2
    times the share on an edge plus half the share on a new edge, so at most 1.7 times the
    share on an edge (the most of which is the packed counts' most, the edges' in the upper
    bits: one maximum); float32's roundings (a few parts in 10^7) lie within the margin."""
    if (int(np.max(both)) >> EDGE_BIT) * 1.7 / per * (1 + 1e-6) + 1e-6 <= beat:
        return False
    # (the finer bound, where fewer edges are new than are edges)
    most = int(np.max(12 * (both >> EDGE_BIT) + 5 * (both & LOW)))
    return most / (10 * per) * (1 + 1e-6) + 1e-6 > beat


def _shares(both: np.ndarray, per: float) -> tuple[np.ndarray, np.ndarray]:
    """The shares of the perimeter on an edge and on a new edge (float32), from the counts."""
    return (both >> EDGE_BIT).astype(np.float32) / per, (both & LOW).astype(np.float32) / per


def _counts(edges: Sides, a: int, b: int, y0: int, x0: int, y1: int, x1: int) -> np.ndarray:
    """For the placements y0:y1, x0:x1 (top-left corners of ``a`` x ``b`` rectangles): how
    many pixels of the four sides lie on an edge, and on a new one (packed, int32, indexed
    from (y0, x0))."""
    ny, nx = y1 - y0, x1 - x0
    # the runs of the vertical sides (columns x0:x1 + a, from rows y0:y1) and of the
    # horizontal ones (rows y0:y1 + b, from columns x0:x1)
    if edges.running:
        # (a placement's left side D(y + b, x) - D(y, x), right D(y + b, x + a) - D(y, x + a),
        # top A(y, x + a) - A(y, x), bottom A(y + b, x + a) - A(y + b, x): by corner, the
        # sums and differences of D and A)
        plus, minus = edges.maps[:2]
        return ((plus[y0 + b:y1 + b, x0 + a:x1 + a] - plus[y0:y1, x0:x1])
                + (minus[y0 + b:y1 + b, x0:x1] - minus[y0:y1, x0 + a:x1 + a]))
    pv, ph = [m[y0:y1 + b, x0:x1 + a] for m in edges.maps[:2]]
    # (the left and right sides' columns added first, then their runs summed as one; the top
    # and bottom sides' rows alike)
    return (_box_sums(cv2.add(pv[:, :nx], pv[:, a:a + nx]), b, 0)[:ny]
            + _box_sums(cv2.add(ph[:ny], ph[b:b + ny]), a, 1)[:, :nx])


def _strength(edges: Sides, a: int, b: int, y0: int, x0: int, y1: int, x1: int, per: float) -> np.ndarray:
    """The four sides' strength over the perimeter for those placements (float32): each
    side's sum rounded to float32 apart, the four added in order (no integers: the order
    counts)."""
    ny, nx = y1 - y0, x1 - x0
    if edges.running:
        down_w, along_w = edges.maps[2:]
        vws = (down_w[y0 + b:y1 + b, x0:x1 + a] - down_w[y0:y1, x0:x1 + a]).astype(np.float32)
        hws = (along_w[y0:y1 + b, x0 + a:x1 + a] - along_w[y0:y1 + b, x0:x1]).astype(np.float32)
    else:
        vw, hw = [m[y0:y1 + b, x0:x1 + a] for m in edges.maps[2:]]
        # (only the runs the sides take: each column's, and each row's, sums are made apart, so
        # summing fewer of them gives each the very same)
        if nx < a:
            left, right = _box_sums(vw[:, :nx], b, 0)[:ny], _box_sums(vw[:, a:a + nx], b, 0)[:ny]
        else:
            vws = _box_sums(vw, b, 0)[:ny]
            left, right = vws[:, :nx], vws[:, a:a + nx]
        if ny < b:
            top, bottom = _box_sums(hw[:ny], a, 1)[:, :nx], _box_sums(hw[b:b + ny], a, 1)[:, :nx]
        else:
            hws = _box_sums(hw, a, 1)[:, :nx]
            top, bottom = hws[:ny], hws[b:b + ny]
        return (left + right + top + bottom) / per
    return (vws[:, :nx] + vws[:, a:a + nx] + hws[:ny] + hws[b:b + ny]) / per


def _first(edges: Sides, a: int, b: int, per: float, whole: tuple[int, int]
           ) -> tuple[float, float, float, int, int] | str:
    """The first placement, scoring 0 (what an argmax over none that scores returns);
    :data:`FIRST` when the maps are not the whole turned patch's (``whole``: its h, w)."""
    if edges.at != (0, 0) or (edges.h, edges.w) != whole:
        return FIRST
    sup, new = _shares(_counts(edges, a, b, 0, 0, 1, 1), per)
    return 0.0, float(sup[0, 0]), float(new[0, 0]), 0, 0


def search(cur: np.ndarray, ref: np.ndarray | None, mask: np.ndarray, angles: list[float],
           sizes_px: list[tuple[int, int]], level: float) -> tuple | None:
    """The best rectangle over the ``angles`` (degrees) and sizes (width, height px) in the
    patch: (score, support, new, x, y, width, height, turn matrix, angle) or None."""
    best: tuple | None = None
    ph, pw = cur.shape
    centre = (pw / 2, ph / 2)
    # (the patch and its reference turned as one two-channel image: each channel comes out the
    # very same as turned alone, at two thirds of the cost)
    both = cur if ref is None else cv2.merge([cur, ref])
    for ang in angles:
        rot = cv2.getRotationMatrix2D(centre, ang, 1.0)
        # the turned patch big enough to hold all of the patch
        c, s = abs(rot[0, 0]), abs(rot[0, 1])
        nw, nh = int(pw * c + ph * s) + 2, int(pw * s + ph * c) + 2
        rot[0, 2] += nw / 2 - centre[0]
        rot[1, 2] += nh / 2 - centre[1]
        tm = cv2.warpAffine(mask, rot, (nw, nh), flags=cv2.INTER_NEAREST)
        tm = cv2.dilate(tm, np.ones((5, 5), np.uint8))
        # (the patch turned, and its edges found, only over the part the scored placements' sides reach:
        # a turned pixel is worked out from its own place alone, so the turn stopped short of the patch's
        # right and bottom gives the very same pixels)
        x0, y0, x1, y1 = _reach(tm, sizes_px)
        turned = cv2.warpAffine(both, rot, (x1, y1), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        tc, tr = (turned, None) if ref is None else cv2.split(turned)
        tc, tr = tc[y0:, x0:], None if tr is None else tr[y0:, x0:]
        edges = scored_edges(tc, tr, level, len(sizes_px) > RUNNING, (x0, y0))
        for a, b in sizes_px:
            # (a size that cannot score above the best so far is not scored in full)
            got = best_in(edges, a, b, tm, None if best is None else best[0] + 0.01)
            if got == FIRST:  # (none scores: the first placement, over the whole patch)
                whole = cv2.warpAffine(both, rot, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                whole_c, whole_r = (whole, None) if ref is None else cv2.split(whole)
                got = best_in(scored_edges(whole_c, whole_r, level, len(sizes_px) > RUNNING), a, b, tm,
                              None if best is None else best[0] + 0.01)
            if got is not None and (best is None or got[0] > best[0] + 0.01):  # (ties: the first size, the biggest)
                best = (*got, a, b, rot, ang)
    return best


def _reach(inside: np.ndarray, sizes_px: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """The part of the turned patch (x0, y0, x1, y1) the sides of every placement :func:`best_in`
    scores reach (their centres where ``inside`` is set), :data:`REACH` px around them; the whole
    patch when none is scored."""
    h, w = inside.shape
    cx, cy, cw, ch = cv2.boundingRect(inside)
    x0, y0, x1, y1 = w, h, 0, 0
    for a, b in sizes_px:
        ny, nx = h - b, w - a
        if a + 2 >= w or b + 2 >= h or cw == 0:
            continue
        # (the placements whose centre may be set: their top-left corners, then their sides' reach)
        px0, px1 = max(cx - a // 2, 0), min(cx + cw - a // 2, nx)
        py0, py1 = max(cy - b // 2, 0), min(cy + ch - b // 2, ny)
        if px1 <= px0 or py1 <= py0:
            continue
        x0, y0, x1, y1 = min(x0, px0), min(y0, py0), max(x1, px1 + a), max(y1, py1 + b)
    if x1 <= x0:
        return 0, 0, w, h
    return max(x0 - REACH, 0), max(y0 - REACH, 0), min(x1 + REACH, w), min(y1 + REACH, h)


def corners(best: tuple) -> np.ndarray:
    """A search result's rectangle in the patch's own pixels (4x2, in order around it)."""
    x, y, a, b, rot = best[3:8]
    quad = np.float32([[x + 0.5, y + 0.5], [x + a + 0.5, y + 0.5], [x + a + 0.5, y + b + 0.5],
                       [x + 0.5, y + b + 0.5]])
    return cv2.transform(quad[None], cv2.invertAffineTransform(rot))[0]
