"""Where something changed on the table, and whether it is a card lying still.

The camera's frame is brought down to a small grey picture (``WORK_WIDTH`` wide). Two
references are kept there: the table as it was when nothing was happening last
(``settled``), and the bare table (``bare``, the first frame: the four places clear). A
card laid since is a card-shaped patch unlike ``settled``; a trick swept off is a patch
unlike ``settled`` that looks like the bare table again. Nothing is judged while anything in or around the patch has moved in the last
frames (a hand, its shadow, a card being slid).

What counts as a change is taken from the table itself, not fixed: a card on a pale mat or
on white marble differs from it by a few grey levels only, less than a dark wood's grain
noise. Each frame measures the camera's noise on the table (frame to frame, where nothing
moved), in grey and in colour (the a, b of CIELAB: paper is never quite the marble's tint),
and a change is the two added in units of their noise (:class:`Thresholds`). Grey alone is
capped at ``CHANGE_LEVEL``; colour, which a card's paper, its print and its shadow all shift
and an exposure that hunts hardly does, brings what grey misses.

Each small frame is first brought to the settled table's exposure, row by row: a camera's
automatic exposure and gain hunt from frame to frame, and a lamp on the mains makes bands
that roll down a rolling-shutter picture. Unlevelled, a white card a few per cent brighter
than in the last frame "moves" by more than ``MOVE_LEVEL`` in every frame, and is never
judged lying still.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import cv2
import numpy as np

from vision.tricks.noise import CHANGE_LEVEL, NOISE_FRAMES, Thresholds, frame_sigma
from vision.tricks.patches import HeldOutlines, Patch, alike, detail, filled, near

WORK_WIDTH = 640
MOVE_LEVEL = 14  # grey levels between two frames: a hand, a shadow, a card sliding
COLOUR_SMOOTH = 2.0  # px the colour is smoothed over (a card's tint is even, the noise is not)
SPLIT_LEVELS = (2.0, 4.0)  # a patch not card-shaped looked at again at these many thresholds (a card
# and a reflection's halo beside it, or the shadow of a hand resting near it, make one patch at 1)
SIZE_SLACK = 0.2  # a card's sides, once cards were named: within this share of the named cards' sides
GONE_SHARE = 0.35  # a card is gone when its place differs by less than this share of what it did
STILL_FRAMES = 2  # nothing moved around the patch in this many frames
CARD_ASPECT = (1.3, 1.9)  # 95 / 61 = 1.56, give or take the blur and the shadow
CARD_FILL = 0.78  # of its rotated rectangle a card's patch fills
MARGIN = 3  # small px around a patch that must be still as well
SMOOTH_PX = 8.0  # a change smoother than this (work px) is light changing, not a thing moving
LEVEL_ROWS = 9.0  # rows the exposure's per-row level is smoothed over (a band is ~100 of 360)
DETAIL_PAD = 16  # work px round a patch its detail is looked at in (the change may miss a card's edge)


class TableWatch:
    """The small grey frame, its references and the still, changed patches.

    ``long_px``: the range of a card's long side in the full frame (from the seats' spread).
    """

    def __init__(self, frame_size: tuple[int, int], long_px: tuple[float, float]) -> None:
        w, h = frame_size
        self.scale = WORK_WIDTH / w
        self.size = (WORK_WIDTH, max(1, int(round(h * self.scale))))
        self.long = (long_px[0] * self.scale, long_px[1] * self.scale)
        self.settled: np.ndarray | None = None  # grey
        self.bare: np.ndarray | None = None
        self.prev: np.ndarray | None = None
        self.colour: dict[str, np.ndarray] = {}  # "settled", "bare", "prev", "current": a, b
        self._noise: deque = deque(maxlen=NOISE_FRAMES)  # (grey, colour) sigma per frame
        self.limits = Thresholds.from_noise(np.inf, np.inf)  # the noise not measured yet: the most
        self._sides: list[tuple[float, float]] = []  # long and short side of the cards named
        self._contrast: dict[tuple[int, int, int, int], float] = {}  # a card's place -> its change, lying there
        self.moved = np.zeros(self.size[::-1], np.int32)  # the frame each pixel last moved in
        self.n = 0
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        self._held = HeldOutlines()  # card outlines whose inside changes, frame to frame

    def small(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The small grey frame, and its colour (a, b, smoothed; zero for a grey camera)."""
        if frame.ndim == 2:
            g = cv2.GaussianBlur(cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA), (5, 5), 0)
            return g, np.zeros((*g.shape, 2), np.float32)
        bgr = cv2.GaussianBlur(cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA), (5, 5), 0)
        ab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[..., 1:].astype(np.float32)
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.GaussianBlur(ab, (0, 0), COLOUR_SMOOTH)

    def step(self, frame: np.ndarray) -> list[Patch]:
        """Take one frame; the still patches unlike the settled table."""
        g, ab = self.small(frame)
        self.n += 1
        if self.settled is not None:
            g = self._levelled(g)
        if self.prev is None:
            self.prev, self.settled, self.bare = g, g.copy(), g.copy()
            self.colour = {"prev": ab, "settled": ab.copy(), "bare": ab.copy(), "current": ab}
            self.moved[:] = -STILL_FRAMES - 1
            return []
        moving = self._moved(g, self.prev)
        self._measure_noise(g, ab)
        self.prev, self.colour["prev"], self.colour["current"] = g, ab, ab
        if moving.any():
            self.moved[cv2.dilate(moving.view(np.uint8), self._kernel) > 0] = self.n
        self.current = g
        # only what changed AND has been still: while a hand moves over the table (most
        # frames with a change) there is nothing to outline
        score = self.change(g, ab, self.settled, self.colour["settled"])
        score[self._shade(g, ab)] = 0
        self._score = score
        unlike = filled(score > 1)
        changed = unlike & (self.moved <= self.n - STILL_FRAMES)
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
            x0, y0, x1, y1 = self._around(x, y, w, h)
            if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
                continue
            mask = labels[y:y + h, x:x + w] == i
            out += self._split(self._patch(g, mask, (x, y), (x0, y0, x1, y1), area), mask, (x, y), min_area)
        unlike = cv2.morphologyEx(unlike.view(np.uint8), cv2.MORPH_OPEN, self._kernel)
        return out + self._glared(unlike, out, min_area)

    def _around(self, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int]:
        """A component's box (x, y, w, h) with ``MARGIN`` round it, inside the work frame:
        x0, y0, x1, y1."""
        return (max(x - MARGIN, 0), max(y - MARGIN, 0),
                min(x + w + MARGIN, self.size[0]), min(y + h + MARGIN, self.size[1]))

    def _split(self, patch: Patch, mask: np.ndarray, at: tuple[int, int], min_area: float, *,
               tightest: bool = False) -> list[Patch]:
        """``patch``, or when it is not card-shaped, the card-shaped patches inside it at a
        higher threshold (the first that gives any): a card merged with a change beside it
        that is weaker than the card's own. ``tightest``: one card-shaped patch, at the
        highest threshold that still gives one (the card, without the halo of a reflection
        that comes and goes beside it). No threshold giving any: where the detail changed."""
        if patch.card_shaped and not tightest:
            return [patch]
        x, y = at
        score = self._score[y:y + mask.shape[0], x:x + mask.shape[1]]
        for level in SPLIT_LEVELS:
            found = self._parts((score > level) & mask, at, min_area)
            if tightest and len(found) == 1:
                patch = found[0]
            elif found or tightest:
                return found or self._by_detail(patch, mask, at, min_area)
        return self._by_detail(patch, mask, at, min_area)

    def _parts(self, inner: np.ndarray, at: tuple[int, int], min_area: float) -> list[Patch]:
        """The card-shaped parts of ``inner`` (a mask at ``at``)."""
        x, y = at
        inner = cv2.morphologyEx(inner.view(np.uint8), cv2.MORPH_OPEN, self._kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
        found = []
        for i in range(1, count):
            ix, iy, w, h, area = (int(v) for v in stats[i])
            if area < min_area:
                continue
            box = self._around(x + ix, y + iy, w, h)
            part = self._patch(self.current, labels[iy:iy + h, ix:ix + w] == i, (x + ix, y + iy), box, area)
            if part.card_shaped:
                found.append(part)
        return found

    def _by_detail(self, patch: Patch, mask: np.ndarray, at: tuple[int, int], min_area: float) -> list[Patch]:
        """``patch`` when it is card-shaped; else the card-shaped parts of it where the
        detail changed (the picture less its smooth part, against the settled table's): a
        card's outline and print, filled, without the light of a reflection lying over it
        and round it (on marble a card differs from the table hardly more than the
        reflection's halo does, at any threshold)."""
        if patch.card_shaped:
            return [patch]
        x, y = at
        h, w = mask.shape
        x0, y0 = max(x - DETAIL_PAD, 0), max(y - DETAIL_PAD, 0)
        x1, y1 = min(x + w + DETAIL_PAD, self.size[0]), min(y + h + DETAIL_PAD, self.size[1])
        d = cv2.absdiff(detail(self.current[y0:y1, x0:x1]), detail(self.settled[y0:y1, x0:x1]))
        edges = cv2.morphologyEx((d > self.limits.grey / 2).view(np.uint8), cv2.MORPH_CLOSE, self._kernel)
        parts = [p for p in self._parts(filled(edges.view(bool)), (x0, y0), min_area)
                 if x <= p.centre[0] < x + w and y <= p.centre[1] < y + h]
        return parts or [patch]

    def change(self, g: np.ndarray, ab: np.ndarray, ref: np.ndarray, ref_ab: np.ndarray, *,
               grey: float | None = None) -> np.ndarray:
        """How unlike ``ref`` each pixel is, in thresholds: grey and colour change added, each
        over its threshold (``grey``: another grey threshold). Above 1: something there."""
        d = cv2.absdiff(g, ref).astype(np.float32) * (1 / (grey or self.limits.grey))
        dab = cv2.absdiff(ab, ref_ab)
        return d + (dab[..., 0] + dab[..., 1]) * (1 / self.limits.colour)

    def _shade(self, g: np.ndarray, ab: np.ndarray) -> np.ndarray:
        """Where the table is only darker than settled, its tint the same: a card's shadow
        beside it (its edge lifted), not the card (on a pale table the shadow is the
        strongest change, and would make the card's outline a shadow wider)."""
        darker = cv2.subtract(self.settled, g) > self.limits.grey
        dab = cv2.absdiff(ab, self.colour["settled"])
        return darker & (dab[..., 0] + dab[..., 1] < self.limits.colour)

    def _measure_noise(self, g: np.ndarray, ab: np.ndarray) -> None:
        """The camera's noise on the table, from this frame against the last: most pixels did
        not change, so the mean of the smaller 90 % of the differences (a hand moving over
        a tenth of the frame leaves it as it is)."""
        sub = (slice(None, None, 2), slice(None, None, 2))
        grey = frame_sigma(cv2.subtract(g[sub], self.prev[sub], dtype=cv2.CV_16S).astype(np.float32))
        dab = ab[sub] - self.colour["prev"][sub]
        self._noise.append((grey, frame_sigma(dab[..., 0]) + frame_sigma(dab[..., 1])))
        sig = np.median(np.float32(self._noise), axis=0)
        self.limits = Thresholds.from_noise(float(sig[0]), float(sig[1]))

    def _glared(self, changed: np.ndarray, found: list[Patch], min_area: float) -> list[Patch]:
        """Cards lying still under a reflection that moves or flickers over them or round
        them: their inside changes, or the halo round them sways, but the card's own outline
        or its print stays put (:class:`HeldOutlines`) for ``STILL_FRAMES`` frames and more.
        Steady when nothing moved beside it, or when its print held all along (the outline
        the change gives it shifts a few pixels with the halo; the card does not)."""
        g = self.current
        recent = self.moved > self.n - STILL_FRAMES
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        out = []
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            if area < min_area:
                continue
            x0, y0, x1, y1 = self._around(x, y, w, h)
            moving = recent[y0:y1, x0:x1]
            if not moving.any():
                continue  # still all through: the first look's
            inside = cv2.dilate((labels[y0:y1, x0:x1] == i).view(np.uint8), self._kernel) > 0
            # something moving beside it: a hand, or a reflection's halo swaying round a card
            # (an outline that stays put: a card, not steady; named when its name stays too)
            steady = not (moving & ~inside).any()
            mask = labels[y:y + h, x:x + w] == i
            split = self._split(self._patch(g, mask, (x, y), (x0, y0, x1, y1), area), mask, (x, y), min_area,
                                tightest=True)
            if steady and len(split) != 1:
                continue
            for patch in split:
                if not patch.card_shaped or any(near(patch, p) for p in found if p.card_shaped):
                    continue
                times, printed = self._held.see(patch, g)
                if times > STILL_FRAMES:
                    out.append(patch if steady else replace(patch, by_print=True) if printed
                               else replace(patch, steady=False))
        self._held.next_frame()
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
                  and self.long[0] <= long <= self.long[1] and self._card_sized(long, short))
        x, y = at
        sl = (slice(y, y + mask.shape[0]), slice(x, x + mask.shape[1]))
        to_bare = float(np.median(self._to(self.bare, "bare", sl)[mask]))
        return Patch(cv2.boxPoints(rect), box, (float(cx), float(cy)), shaped, to_bare < 0.5)

    def _to(self, ref: np.ndarray, name: str, sl: tuple[slice, slice]) -> np.ndarray:
        """The change from ``ref`` (the settled or the bare table) in ``sl``, to tell whether
        something lies there: grey as tolerant as ever (a reflection, an exposure that
        hunts), the colour at its measured threshold."""
        return self.change(self.current[sl], self.colour["current"][sl], ref[sl], self.colour[name][sl],
                           grey=CHANGE_LEVEL)

    def named(self, patch: Patch) -> None:
        """``patch`` was named as a card: every card is its size (one deck, one camera)."""
        sides = np.linalg.norm(patch.quad - np.roll(patch.quad, 1, axis=0), axis=1)
        self._sides = (self._sides + [(float(sides.max()), float(sides.min()))])[-15:]

    def _card_sized(self, long: float, short: float) -> bool:
        """Half a card (the rest too like the table), or a card and the halo of a reflection
        beside it, are card-shaped too: not the size of the cards named so far."""
        if len(self._sides) < 3:
            return True
        size = np.median(np.float32(self._sides), axis=0)
        return bool(abs(long / size[0] - 1) <= SIZE_SLACK and abs(short / size[1] - 1) <= SIZE_SLACK)

    def settle(self, box: tuple[int, int, int, int]) -> None:
        """The patch in ``box`` is now part of the table (a card read)."""
        x0, y0, x1, y1 = box
        self._contrast[box] = self._p90(self.bare, "bare", box)
        self.settled[y0:y1, x0:x1] = self.current[y0:y1, x0:x1]
        self.colour["settled"][y0:y1, x0:x1] = self.colour["current"][y0:y1, x0:x1]

    def forget(self, box: tuple[int, int, int, int]) -> None:
        """What lay in ``box`` is gone (a trick swept off): the bare table is expected there."""
        x0, y0, x1, y1 = box
        self._contrast.pop(box, None)
        self.settled[y0:y1, x0:x1] = self.bare[y0:y1, x0:x1]
        self.colour["settled"][y0:y1, x0:x1] = self.colour["bare"][y0:y1, x0:x1]

    def looks_bare(self, box: tuple[int, int, int, int]) -> bool:
        """Is ``box`` still, and the bare table again?"""
        x0, y0, x1, y1 = box
        if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
            return False
        # a turned card fills half its box: nearly all of the box must be bare table
        return self._p90(self.bare, "bare", box) < self._gone_below(box, None)

    def looks_settled(self, box: tuple[int, int, int, int]) -> bool:
        """Is ``box`` still, and the settled table again (what lay there unsettled is gone)?"""
        x0, y0, x1, y1 = box
        if self.moved[y0:y1, x0:x1].max() > self.n - STILL_FRAMES:
            return False
        change = self._p90(self.settled, "settled", box)
        return change < self._gone_below(box, change)

    def look(self, box: tuple[int, int, int, int]) -> np.ndarray:
        """The small grey picture in ``box`` now (a card as it was laid, for
        :meth:`still_there`)."""
        x0, y0, x1, y1 = box
        return self.current[y0:y1, x0:x1].copy()

    def still_there(self, box: tuple[int, int, int, int], then: np.ndarray) -> bool:
        """Does the card that looked like ``then`` in ``box`` (:meth:`look`) still lie there?
        Its detail (print and outline: the picture less its smooth part) correlated with
        ``then``'s: a reflection swaying over it, or the exposure hunting, dims or brightens
        the detail but leaves it where it was (0.9 and more under a lamp's reflection on
        marble); a card taken, covered by another, or slid away leaves little of it (0.3
        and less)."""
        return alike(detail(self.look(box)), detail(then))

    def _p90(self, ref: np.ndarray, name: str, box: tuple[int, int, int, int]) -> float:
        x0, y0, x1, y1 = box
        return float(np.percentile(self._to(ref, name, (slice(y0, y1), slice(x0, x1))), 90))

    def _gone_below(self, box: tuple[int, int, int, int], now: float | None) -> float:
        """The change under which what lay in ``box`` is gone: a share of its change while it
        lay there (``now`` when first asked: it still lies there), so that a card on a pale
        table (a small change) is not taken for gone, nor is the light drifting over a place a
        card on dark felt left (a large change) taken for a card still there."""
        if box not in self._contrast and now is not None:
            self._contrast[box] = now
        return max(0.5, GONE_SHARE * self._contrast.get(box, 0.0))

    def to_frame(self, quad: np.ndarray) -> np.ndarray:
        """A work-pixel quadrilateral in the full frame's pixels."""
        return (np.asarray(quad, np.float32) + 0.5) / self.scale - 0.5
