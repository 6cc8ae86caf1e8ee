"""A change on the table as a patch, and the card outlines held still under a moving light.

:class:`Patch` is what the table watch (vision/tricks/zones.py) gives the reader: a change
against the settled table, lying still. :class:`HeldOutlines` follows, frame to frame, the
card-shaped outlines seen where something still moves round them (a lamp's reflection
swaying, its halo never still): such a card is lying still when its own print and edges
(the picture less its smooth part: :func:`detail`) are where they were, whatever the light
over it and round it does. The outline the change gives it shifts by a few pixels with the
halo from frame to frame; the card's print does not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

DETAIL_PX = 3.0  # the detail compared (work px): a card's print and edges, not the light over it
STILL_THERE = 0.7  # a card's print and outline against an earlier look of it (correlation): the same card, still there
HELD_PX = 4.0  # work px an outline's centre may shift from frame to frame while the card lies still (its sides twice that)
MISSED = 1  # frames an outline may go unseen in (the halo merged with it, or the card's edge in the light) and be held


@dataclass(frozen=True)
class Patch:
    """A change against the settled table, in work pixels, lying still."""

    quad: np.ndarray  # 4 x 2 corners of its rotated rectangle
    mask_box: tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
    centre: tuple[float, float]
    card_shaped: bool
    bare: bool  # it looks like the bare table again: something was taken away
    steady: bool = True  # False: its outline stays put but a reflection's halo sways beside it
    by_print: bool = False  # steady by its own print only, something still moving beside it (a hand's
    # shadow may lie over it): a look that names it counts, one that does not is no try


@dataclass(frozen=True)
class _Held:
    centre: tuple[float, float]
    extent: tuple[float, float]
    times: int  # successive frames seen
    box: tuple[int, int, int, int]  # where its first look was taken (work px)
    first: np.ndarray  # the detail there, in the first frame of the run
    printed: bool  # every frame of the run held still by its print (not only by its outline)
    missed: int = 0  # frames since it was last seen


class HeldOutlines:
    """Per frame, the card-shaped outlines seen, each with how many frames it has lain still.

    An outline lies still from one frame to the next when it is the same give or take a
    pixel (its change's outline held), or, within ``HELD_PX``, when the card's own detail in
    the box it was first seen in correlates with its first look by ``STILL_THERE`` at least
    (its print held: the outline moved with the light only). An outline unseen in up to
    ``MISSED`` frames (the halo merged with the card) is still held when seen again."""

    def __init__(self) -> None:
        self._last: list[_Held] = []
        self._now: list[_Held] = []
        self._matched: list[_Held] = []  # of ``_last``, seen again this frame

    def see(self, patch: Patch, grey: np.ndarray) -> tuple[int, bool]:
        """``patch`` seen in this frame's small grey ``grey``: the successive frames it has
        lain still (1: seen first), and whether its print held in all of them."""
        centre, extent = patch.centre, tuple(float(v) for v in np.round(np.ptp(patch.quad, axis=0), 0))
        held = None
        for last in [h for h in self._last if not any(h is m for m in self._matched)]:
            shift = np.hypot(centre[0] - last.centre[0], centre[1] - last.centre[1])
            grown = max(abs(a - b) for a, b in zip(extent, last.extent))
            if shift > HELD_PX or grown > 2 * HELD_PX:
                continue
            if shift <= 1.5 and grown <= 2:
                held = _Held(centre, extent, last.times + 1, last.box, last.first,
                             last.printed and _alike(grey, last.box, last.first))
            elif _alike(grey, last.box, last.first):
                held = _Held(centre, extent, last.times + 1, last.box, last.first, last.printed)
            if held is not None:
                self._matched.append(last)
                break
        if held is None:
            x0, y0, x1, y1 = patch.mask_box
            held = _Held(centre, extent, 1, patch.mask_box, detail(grey[y0:y1, x0:x1]), True)
        self._now.append(held)
        return held.times, held.printed

    def next_frame(self) -> None:
        """The frame's outlines seen: the next frame's are matched against them."""
        unseen = [replace(h, missed=h.missed + 1) for h in self._last
                  if h.missed < MISSED and not any(h is m for m in self._matched)]
        self._last, self._now, self._matched = self._now + unseen, [], []


def _alike(grey: np.ndarray, box: tuple[int, int, int, int], first: np.ndarray) -> bool:
    x0, y0, x1, y1 = box
    return alike(detail(grey[y0:y1, x0:x1]), first)


def alike(now: np.ndarray, then: np.ndarray) -> bool:
    """Two details (:func:`detail`) of the same place: the same print, where it was."""
    scale = float(np.sqrt(np.sum(now * now) * np.sum(then * then)))
    return scale > 0 and float(np.sum(now * then)) / scale >= STILL_THERE


def detail(g: np.ndarray) -> np.ndarray:
    """``g`` less its smooth part (light), zero mean."""
    f = g.astype(np.float32)
    d = f - cv2.GaussianBlur(f, (0, 0), DETAIL_PX)
    return d - d.mean()


def filled(mask: np.ndarray) -> np.ndarray:
    """``mask`` with its holes filled: a card's print may be as dark as a shadow, or as the table."""
    contours, _ = cv2.findContours(mask.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out.view(bool)


def near(a: Patch, b: Patch) -> bool:
    return bool(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < 4)
