"""A still pile's next frames, searched only where the last whole search found what mattered.

The kiosk reads video (about 10 frames a second) and the pile lies still most of the time: each
frame was searched whole again, the mat's region or the frame (50-60 ms at 1080p on a busy
table). When a frame is the frame of the last whole search of its view again, the markers can
only be where they were: the detector is run on small boxes round what mattered there
(``boxes_round``: every marker read, the cards' and the mat's corner markers, every square the
soft decision refused or asked about, every square of a sticker's size, the cheap look that
stops most of those being swayed by the sensor's noise, and every place asked about, a glare
patch among them), the rest of the reading as before.

**The same frame** (``unchanged``): every cell of an eighth of the frame (the mean of 8 x 8 px:
the sensor's noise falls to an eighth) within CHANGE_GREY grey levels of the last whole search's.
A card put on the pile, moved, turned or taken, a hand, the camera moved, the light changed:
cells of a card's paper or a sticker differ by tens of levels (a card's edge moved by one px
against the cloth changes its cell by 12 or more), and the frame is searched whole. The frame is
compared with the last *whole* search's, not the last frame's, so that a slow drift adds up;
and at most WHOLE_EVERY frames in a row are searched in boxes.

**Nothing lost to the boxes** (``found_again``): every square that mattered in the last whole
search must be found again in its box, read or not; when one is not (the noise took it below the
detector's thresholds, or something changed too little for the signature), the frame is searched
whole at once, not one frame late. The squares the noise takes out of their boxes are those
decided softly (read, refused or doubted by vision.softdecode): the boxes that could give each of
them back are searched first, and the boxes stop at the first one none of them gave back
(``search_boxes``): a box search thrown away costs those few boxes, not all of them, before the
whole search. The squares the detector read are checked after every box, as before.

Within a box a square is found as in the whole frame: the detector's thresholds reach 7 px round
a pixel and the light blur 2 px, and a box reaches ``max(side, 16 px)`` past each square's
corners. Boxes are merged when the box round two is no bigger than both; a square found in two
boxes is kept once (``deepest``), and a square within EDGE_PX of its box's edge only when it is
one that mattered. The whole view is searched when the boxes would cover over WHOLE_SHARE of it
or be more than MAX_BOXES (a gingham or checked cloth's many squares of a sticker's size).

What this gives up: a card of which the last whole search found no square of a sticker's size
and asked about no place, but that a luckier exposure would show, is left to the next whole
search (at most WHOLE_EVERY frames on).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SIG_SCALE = 8  # the signature: the frame at an eighth of its size (means of 8 x 8 px)
CHANGE_GREY = 8  # a cell that differs by more: the frame changed (the sensor's noise: 1-2 levels there)
WHOLE_EVERY = 10  # a whole search at least every this many frames of a view
PAD_SIDES, PAD_MIN_PX = 1.0, 16.0  # a box round a square: a side (at least 16 px) past its corners
# round a marker read or a square decided softly: two card markers' sides, where the next card's
# sticker of a pile lies (a sticker touching a read one, hidden from the last whole search, read in a
# luckier exposure); round the mat's corner markers (three card markers wide) no more
NEAR_SIDES = 2.0
WHOLE_SHARE = 0.6
NEXT = [1, 2, 3, 0]  # each corner's next one, round a quad
MAX_BOXES = 96  # more boxes than this (a cloth's squares of a sticker's size): each call's own cost adds up
EDGE_PX = 10  # the detector's threshold windows reach 7 px, the light blur 2: deeper in a box, as in the frame


@dataclass
class LastView:
    """The last whole search of a frame size: its frame's ``signature``, the scale of the copy
    searched (``scale``: 1 the photo), the squares that mattered (``squares``, (n, 4, 2) in the
    searched copy's px: each to be found again: the markers read, the squares decided softly),
    other places to search round (``places``, the same: the other squares of a sticker's size and
    the places asked about; not to be found again), the frames still to search in boxes before the next
    whole search (``left``) and how many of ``squares``, the last ones, were decided softly
    (``soft``: the ones the noise takes out of their boxes, checked first)."""
    signature: np.ndarray
    scale: float
    squares: np.ndarray
    places: np.ndarray
    left: int = WHOLE_EVERY - 1
    soft: int = 0  # how many of ``squares``, the last ones, were decided softly (``search_boxes``)


def signature(gray: np.ndarray) -> np.ndarray:
    """The frame at 1 / SIG_SCALE of its size (each cell the mean of its pixels), int16."""
    h, w = gray.shape[:2]
    small = cv2.resize(gray, (max(1, w // SIG_SCALE), max(1, h // SIG_SCALE)), interpolation=cv2.INTER_AREA)
    return small.astype(np.int16)


def unchanged(before: np.ndarray, now: np.ndarray) -> bool:
    """No cell of the two signatures differs by more than CHANGE_GREY."""
    return before.shape == now.shape and int(np.abs(now - before).max()) <= CHANGE_GREY


def in_copy(quads: list[np.ndarray], scale: float) -> np.ndarray:
    """Quads in a photo's pixels to a copy's ``scale`` as wide (pixel centres), (n, 4, 2)."""
    a = np.asarray([np.asarray(q, np.float32).reshape(4, 2) for q in quads], np.float32).reshape(-1, 4, 2)
    return (a + 0.5) * scale - 0.5 if scale != 1.0 else a


def again(found: list[np.ndarray], squares: np.ndarray) -> np.ndarray:
    """Which of the quads ``found`` are one of ``squares`` found again: centres closer than half
    a side (either's)."""
    if not len(found) or not len(squares):
        return np.zeros(len(found), bool)
    a = np.asarray([np.asarray(q, np.float32).reshape(4, 2) for q in found])
    b = np.asarray(squares, np.float32).reshape(-1, 4, 2)
    side_a = np.linalg.norm(a - np.roll(a, 1, axis=1), axis=2).mean(axis=1)
    side_b = np.linalg.norm(b - np.roll(b, 1, axis=1), axis=2).mean(axis=1)
    d = np.linalg.norm(a.mean(axis=1)[:, None] - b.mean(axis=1)[None], axis=2)
    return (d < 0.5 * np.maximum(side_a[:, None], side_b[None])).any(axis=1)


def found_again(squares: np.ndarray, found: list[np.ndarray]) -> np.ndarray:
    """Which of ``squares`` ((n, 4, 2)) are among the quads ``found`` (``again``, the other way)."""
    return again(list(np.asarray(squares, np.float32).reshape(-1, 4, 2)), np.asarray(found, np.float32).reshape(-1, 4, 2))


def boxes_round(squares: np.ndarray, size: tuple[int, int], *, near: int = 0,
                marker_px: float | None = None) -> list[tuple[int, int, int, int]] | None:
    """Boxes ``(x0, y0, x1, y1)`` within an image of ``size`` (w, h) round ``squares`` ((n, 4, 2),
    its px), each reaching ``max(PAD_SIDES * side, PAD_MIN_PX)`` past a square's corners, the first
    ``near`` (markers read, squares decided softly) ``NEAR_SIDES`` times its side or a card
    marker's (``marker_px``), the smaller. Two boxes
    are merged when the box round both is no bigger than the two (stickers side by side); others
    may overlap (``deepest`` keeps each square once). None when they would cover over WHOLE_SHARE
    of the image, or be more than MAX_BOXES."""
    w, h = size
    squares = np.asarray(squares, np.float32).reshape(-1, 4, 2)
    if len(squares) > 2 * MAX_BOXES:  # (the merging below is pairwise)
        return None
    side = np.linalg.norm(squares - np.roll(squares, 1, axis=1), axis=2).mean(axis=1)
    near_px = NEAR_SIDES * (side if marker_px is None else np.minimum(side, marker_px))
    pad = np.maximum(np.where(np.arange(len(squares)) < near, near_px, PAD_SIDES * side), PAD_MIN_PX)[:, None]
    lo = np.maximum(np.floor(squares.min(axis=1) - pad), 0)
    hi = np.minimum(np.ceil(squares.max(axis=1) + pad) + 1, (w, h))
    boxes = np.concatenate([lo, hi], axis=1).astype(np.int64)
    boxes = boxes[(boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])]
    merged = True
    while merged:  # each box into the first kept one it merges with (the box round both no bigger)
        merged, out = False, np.zeros((0, 4), np.int64)
        for b in boxes:
            if len(out):
                u = np.concatenate([np.minimum(out[:, :2], b[:2]), np.maximum(out[:, 2:], b[2:])], axis=1)
                fits = np.nonzero(_area(u) <= _area(out) + _area(b))[0]
                if len(fits):
                    out[fits[0]] = u[fits[0]]
                    merged = True
                    continue
            out = np.concatenate([out, b[None]])
        boxes = out
    if int(_area(boxes).sum()) > WHOLE_SHARE * w * h or len(boxes) > MAX_BOXES:
        return None
    return [(int(b[0]), int(b[1]), int(b[2]), int(b[3])) for b in boxes]


def search_boxes(detect_box, boxes: list[tuple[int, int, int, int]], squares: np.ndarray) -> list[tuple] | None:
    """``detect_box(box)`` (the detector's answer on one box, in the image's px, as
    vision.tiling.detect_parts gives it) on every box, in ``boxes``' order in the list returned;
    or None as soon as one of ``squares`` ((n, 4, 2): squares decided softly, to be found again) is
    found by none of the boxes that could give it back (``found_again`` would then be False).

    A box can give a square back only when it holds the centre of a quad within half a side
    (either's) of the square's centre; a quad inside a box has a mean side of at most the box's
    (width + height) / 2. So only the boxes nearer the square's centre than half the larger of
    the square's side and that can give it back. Those boxes are searched first, square by
    square, and each square is checked once they are; then the other boxes."""
    squares = np.asarray(squares, np.float32).reshape(-1, 4, 2)
    if not len(squares) or not boxes:
        return [detect_box(box) for box in boxes]
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    centre = squares.sum(axis=1) * 0.25
    side = np.sqrt(((squares[:, NEXT] - squares) ** 2).sum(axis=2)).sum(axis=1) * 0.25
    # (each square's distance to each box, 0 inside it; and the biggest quad a box can hold)
    dx = np.maximum(np.maximum(b[None, :, 0] - centre[:, None, 0], centre[:, None, 0] - b[None, :, 2]), 0)
    dy = np.maximum(np.maximum(b[None, :, 1] - centre[:, None, 1], centre[:, None, 1] - b[None, :, 3]), 0)
    biggest = 0.5 * ((b[:, 2] - b[:, 0]) + (b[:, 3] - b[:, 1]))
    could = np.hypot(dx, dy) < 0.5 * np.maximum(side[:, None], biggest[None])
    found: list[tuple | None] = [None] * len(boxes)
    for k in range(len(squares)):
        quads = []
        for n in np.nonzero(could[k])[0]:
            if found[n] is None:
                found[n] = detect_box(boxes[n])
            quads += list(found[n][0]) + list(found[n][2])
        if not quads:
            return None
        q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        d = np.hypot(*(q.sum(axis=1) * 0.25 - centre[k]).T)
        if not (d < 0.5 * np.maximum(side[k], np.sqrt(((q[:, NEXT] - q) ** 2).sum(axis=2)).sum(axis=1) * 0.25)).any():
            return None
    return [f if f is not None else detect_box(box) for f, box in zip(found, boxes)]


def _area(b: np.ndarray) -> np.ndarray:
    return (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])


def deepest(found: list[tuple], boxes: list[tuple[int, int, int, int]], squares: np.ndarray) -> tuple[list, list, list]:
    """The detector's answers on ``boxes`` (vision.tiling.detect_parts) round ``squares`` as one
    (corners, ids, squares not read), each square once: of a square found in two boxes that
    overlap, the one lying deepest inside its box (furthest from the box's edges, where the box's
    own thresholds differ from the whole frame's), then a read one. Squares within EDGE_PX of
    their box's edge are left out, but for ``squares`` found again."""
    parts, ids, box_of = [], [], []
    for n, (c, i, u) in enumerate(found):
        got = [] if i is None else np.asarray(i).ravel().tolist()
        parts += [np.asarray(q, np.float32).reshape(-1, 4, 2) for q in list(c) + list(u)]
        ids += [int(k) for k in got] + [-1] * len(u)
        box_of += [n] * (len(got) + len(u))
    if not parts:
        return [], [], []
    a = np.concatenate(parts)
    ids_a, box = np.array(ids), np.array(box_of)
    edges = np.asarray(boxes, np.float32)[box]
    lo, hi = a.min(axis=1), a.max(axis=1)
    depth = np.minimum(np.minimum(lo[:, 0] - edges[:, 0], lo[:, 1] - edges[:, 1]),
                       np.minimum(edges[:, 2] - hi[:, 0], edges[:, 3] - hi[:, 1]))
    centre = a.mean(axis=1)
    side = np.linalg.norm(a - np.roll(a, 1, axis=1), axis=2).mean(axis=1)
    rank = depth + np.where(ids_a >= 0, 0.5, 0.0)
    # (the same square: another box's, its centre within a quarter side and its size alike; a box's
    # own squares are the detector's answer as it gave it)
    d = np.linalg.norm(centre[:, None] - centre[None], axis=2)
    ratio = side[None] / side[:, None]
    same = (d < 0.25 * np.maximum(side[None], side[:, None])) & (ratio > 0.8) & (ratio < 1.25) & \
        (box[None] != box[:, None])
    keep = np.ones(len(a), bool)
    for x in np.argsort(-rank, kind="stable"):
        if keep[x]:
            keep[same[x] & keep] = False
    # a square near a box's edge, where the box's own thresholds differ from the whole frame's, is
    # kept only when it is one that mattered found again (else a cloth's check cut by the edge)
    keep &= (depth >= EDGE_PX) | again(list(a), squares)
    read, other = np.nonzero(keep & (ids_a >= 0))[0], np.nonzero(keep & (ids_a < 0))[0]
    return [a[j] for j in read], [ids[j] for j in read], [a[j] for j in other]
