"""Where something changed on the table, and whether it is a card lying still.

The camera's frame is brought down to a small grey picture (``WORK_WIDTH`` wide). Two
references are kept there: the table as it was when nothing was happening last
(``settled``), and the bare table (``bare``, the first frame: the four places clear). A
card laid since is a card-shaped patch unlike ``settled``; a trick swept off is a patch
unlike ``settled`` that looks like the bare table again. Nothing is judged while anything in or around the patch has moved in the last
frames (a hand, its shadow, a card being slid).

Each small frame is first brought to the settled table's exposure, row by row: a camera's
automatic exposure and gain hunt from frame to frame, and a lamp on the mains makes bands
that roll down a rolling-shutter picture. Unlevelled, a white card a few per cent brighter
than in the last frame "moves" by more than ``MOVE_LEVEL`` in every frame, and is never
judged lying still.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 640
MOVE_LEVEL = 14  # grey levels between two frames: a hand, a shadow, a card sliding
CHANGE_LEVEL = 32  # against the settled table: a card on the wood, a card on another card's print
STILL_FRAMES = 2  # nothing moved around the patch in this many frames
CARD_ASPECT = (1.3, 1.9)  # 95 / 61 = 1.56, give or take the blur and the shadow
CARD_FILL = 0.78  # of its rotated rectangle a card's patch fills
MARGIN = 3  # small px around a patch that must be still as well
SMOOTH_PX = 8.0  # a change smoother than this (work px) is light changing, not a thing moving
LEVEL_ROWS = 9.0  # rows the exposure's per-row level is smoothed over (a band is ~100 of 360)


@dataclass(frozen=True)
class Patch:
    """A change against the settled table, in work pixels, lying still."""

    quad: np.ndarray  # 4 x 2 corners of its rotated rectangle
    mask_box: tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
    centre: tuple[float, float]
    card_shaped: bool
    bare: bool  # it looks like the bare table again: something was taken away


class TableWatch:
    """The small grey frame, its references and the still, changed patches.

    ``long_px``: the range of a card's long side in the full frame (from the seats' spread).
    """

    def __init__(self, frame_size: tuple[int, int], long_px: tuple[float, float]) -> None:
        w, h = frame_size
        self.scale = WORK_WIDTH / w
        self.size = (WORK_WIDTH, max(1, int(round(h * self.scale))))
        self.long = (long_px[0] * self.scale, long_px[1] * self.scale)
        self.settled: np.ndarray | None = None
        self.bare: np.ndarray | None = None
        self.prev: np.ndarray | None = None
        self.moved = np.zeros(self.size[::-1], np.int32)  # the frame each pixel last moved in
        self.n = 0
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._outlines: list = []  # (centre, extent, frames) of card outlines whose inside changes

    def small(self, frame: np.ndarray) -> np.ndarray:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(cv2.resize(grey, self.size, interpolation=cv2.INTER_AREA), (5, 5), 0)

    def step(self, frame: np.ndarray) -> list[Patch]:
        """Take one frame; the still patches unlike the settled table."""
        g = self.small(frame)
        self.n += 1
        if self.settled is not None:
            g = self._levelled(g)
        if self.prev is None:
            self.prev, self.settled, self.bare = g, g.copy(), g.copy()
            self.moved[:] = -STILL_FRAMES - 1
            return []
        moving = self._moved(g, self.prev)
        self.prev = g
        if moving.any():
            self.moved[cv2.dilate(moving.view(np.uint8), self._kernel) > 0] = self.n
        self.current = g
        # only what changed AND has been still: while a hand moves over the table (most
        # frames with a change) there is nothing to outline
        changed = (cv2.absdiff(g, self.settled) > CHANGE_LEVEL) & (self.moved <= self.n - STILL_FRAMES)
        min_area = 0.25 * self.long[0] ** 2
        if np.count_nonzero(changed) < min_area:
            return []
        changed = cv2.morphologyEx(changed.view(np.uint8), cv2.MORPH_OPEN, self._kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        out = []
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            if area < min_area:
                continue
            x0, y0 = max(x - MARGIN, 0), max(y - MARGIN, 0)
            x1, y1 = min(x + w + MARGIN, self.size[0]), min(y + h + MARGIN, self.size[1])
            if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
                continue
            mask = labels[y:y + h, x:x + w] == i
            out.append(self._patch(g, mask, (x, y), (x0, y0, x1, y1), area))
        return out + self._glared(g, out, min_area)

    def _glared(self, g: np.ndarray, found: list[Patch], min_area: float) -> list[Patch]:
        """Cards lying still under a reflection that moves or flickers over them: their
        outline stays put while their inside changes (movement only inside the card, none
        around it), the same rotated rectangle for ``STILL_FRAMES`` frames and more."""
        recent = self.moved > self.n - STILL_FRAMES
        changed = (cv2.absdiff(g, self.settled) > CHANGE_LEVEL).view(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, self._kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        outlines, out = [], []
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            if area < min_area:
                continue
            x0, y0 = max(x - MARGIN, 0), max(y - MARGIN, 0)
            x1, y1 = min(x + w + MARGIN, self.size[0]), min(y + h + MARGIN, self.size[1])
            moving = recent[y0:y1, x0:x1]
            if not moving.any():
                continue  # still all through: the first look's
            inside = cv2.dilate((labels[y0:y1, x0:x1] == i).view(np.uint8), self._kernel) > 0
            if (moving & ~inside).any():
                continue  # something moves beside it: a hand
            mask = labels[y:y + h, x:x + w] == i
            patch = self._patch(g, mask, (x, y), (x0, y0, x1, y1), area)
            if not patch.card_shaped or any(_near(patch, p) for p in found):
                continue
            outline = (patch.centre, tuple(np.round(np.ptp(patch.quad, axis=0), 0)))
            times = next((k for c, d, k in self._outlines if _same(c, d, outline)), 0) + 1
            outlines.append((*outline, times))
            if times > STILL_FRAMES:
                out.append(patch)
        self._outlines = outlines
        return out

    def _moved(self, g: np.ndarray, prev: np.ndarray) -> np.ndarray:
        """What moved since the last frame: the change between them less its smooth part (a
        reflection flickering, a band of the mains rolling over: light, not a thing moving)."""
        d = cv2.subtract(g, prev, dtype=cv2.CV_16S)
        d = cv2.subtract(d, cv2.GaussianBlur(d, (0, 0), SMOOTH_PX))
        return np.abs(d) > MOVE_LEVEL

    def _levelled(self, g: np.ndarray) -> np.ndarray:
        """``g`` at the settled table's exposure: each row scaled by the median, over the row,
        of settled / g (most of a row is table that did not change), smoothed down the rows."""
        cols = slice(None, None, 4)
        ratio = (self.settled[:, cols].astype(np.float32) + 1) / (g[:, cols].astype(np.float32) + 1)
        level = np.median(ratio, axis=1).astype(np.float32)
        level = cv2.GaussianBlur(level.reshape(-1, 1), (1, 0), sigmaX=0.1, sigmaY=LEVEL_ROWS,
                                 borderType=cv2.BORDER_REPLICATE)
        return cv2.multiply(g, level.reshape(-1, 1).repeat(g.shape[1], 1), dtype=cv2.CV_8U)

    def _patch(self, g: np.ndarray, mask: np.ndarray, at: tuple[int, int], box: tuple[int, int, int, int],
               area: int) -> Patch:
        ys, xs = np.nonzero(mask)
        pts = np.stack([xs + at[0], ys + at[1]], axis=1).astype(np.float32)
        rect = cv2.minAreaRect(pts)
        (cx, cy), (rw, rh), _ = rect
        long, short = max(rw, rh), max(min(rw, rh), 1.0)
        shaped = (CARD_ASPECT[0] <= long / short <= CARD_ASPECT[1] and area >= CARD_FILL * rw * rh
                  and self.long[0] <= long <= self.long[1])
        x, y = at
        sl = (slice(y, y + mask.shape[0]), slice(x, x + mask.shape[1]))
        to_bare = float(np.median(cv2.absdiff(g[sl], self.bare[sl])[mask]))
        return Patch(cv2.boxPoints(rect), box, (float(cx), float(cy)), shaped, to_bare < CHANGE_LEVEL / 2)

    def settle(self, box: tuple[int, int, int, int]) -> None:
        """The patch in ``box`` is now part of the table (a card read)."""
        x0, y0, x1, y1 = box
        self.settled[y0:y1, x0:x1] = self.current[y0:y1, x0:x1]

    def forget(self, box: tuple[int, int, int, int]) -> None:
        """What lay in ``box`` is gone (a trick swept off): the bare table is expected there."""
        x0, y0, x1, y1 = box
        self.settled[y0:y1, x0:x1] = self.bare[y0:y1, x0:x1]

    def looks_bare(self, box: tuple[int, int, int, int]) -> bool:
        """Is ``box`` still, and the bare table again?"""
        x0, y0, x1, y1 = box
        if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
            return False
        # a turned card fills half its box: nearly all of the box must be bare table
        diff = cv2.absdiff(self.current[y0:y1, x0:x1], self.bare[y0:y1, x0:x1])
        return float(np.percentile(diff, 90)) < CHANGE_LEVEL / 2

    def looks_settled(self, box: tuple[int, int, int, int]) -> bool:
        """Is ``box`` still, and the settled table again (what lay there unsettled is gone)?"""
        x0, y0, x1, y1 = box
        if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
            return False
        diff = cv2.absdiff(self.current[y0:y1, x0:x1], self.settled[y0:y1, x0:x1])
        return float(np.percentile(diff, 90)) < CHANGE_LEVEL / 2

    def to_frame(self, quad: np.ndarray) -> np.ndarray:
        """A work-pixel quadrilateral in the full frame's pixels."""
        return (np.asarray(quad, np.float32) + 0.5) / self.scale - 0.5


def _near(a: Patch, b: Patch) -> bool:
    return bool(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < 4)


def _same(centre, extent, outline) -> bool:
    """The same outline as last frame's, give or take a pixel."""
    (c, e) = outline
    return bool(np.hypot(centre[0] - c[0], centre[1] - c[1]) <= 1.5 and max(abs(a - b) for a, b in zip(extent, e)) <= 2)
