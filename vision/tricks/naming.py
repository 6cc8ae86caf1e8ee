"""Naming the card lying at a seat: where exactly it lies in the full frame, then the learnt
deck's naming against the cards it can still be.

The table watch (vision/tricks/zones.py) outlines a card on a small grey picture, a few
pixels off and sometimes with a touching neighbour's edge or a reflection's halo in it. The
card is named on the full frame: its outline tightened to the bright paper inside it, then
compared with the learnt deck at the alignments round it (``views_around``). A card already
in the hand cannot lie on the table again, so it is no rival of the card seen
(``DeckModel.identify(..., ruled_out=)``); the best card itself is never taken from the
others (a card picked up again is still named as itself, for the reader to refuse).
"""

from __future__ import annotations

from typing import Collection

import cv2
import numpy as np

from kiosk.game.cards import Card
from vision.deck.model import DeckModel, Naming
from vision.deck.views import views_around
from vision.tricks.zones import Patch, TableWatch

REACH = 9  # warp px the outline may be off (views_around)
AROUND = 16  # work px round a still card's patch its picture is averaged over


class StillPicture:
    """A card lying still, its picture averaged over the frames it was looked at in: it does
    not move, nor does the camera, so its print stays put while the camera's noise (the gain
    of a dim table) falls by the square root of their number.

    >>> picture = StillPicture()
    >>> picture.add(frame, (300, 200, 420, 380))  # that region of each frame summed
    >>> averaged = picture.over(frame)  # the frame, that region averaged (once there are two)
    """

    def __init__(self) -> None:
        self.region: tuple[int, int, int, int] | None = None
        self.sum: np.ndarray | None = None
        self.count = 0

    def add(self, frame: np.ndarray, region: tuple[int, int, int, int]) -> None:
        """The first region given (x0, y0, x1, y1, frame px) of ``frame`` added to the sum."""
        if self.region is None:
            self.region = region
        x0, y0, x1, y1 = self.region
        crop = frame[y0:y1, x0:x1].astype(np.float32)
        self.sum = crop if self.sum is None else self.sum + crop
        self.count += 1

    def over(self, frame: np.ndarray) -> np.ndarray | None:
        """``frame`` with the region averaged over the frames added so far; None until two
        were (one alone is the frame itself). Built only when asked: most cards are named on
        one frame, and a full frame's copy at every look would be spent for nothing."""
        if self.count < 2:
            return None
        x0, y0, x1, y1 = self.region
        out = frame.copy()
        out[y0:y1, x0:x1] = np.clip(self.sum / self.count + 0.5, 0, 255).astype(np.uint8)
        return out


class CardNamer:
    """Names the card in a still patch of ``watch`` with ``model``.

    >>> namer = CardNamer(model, reader.watch)
    >>> namer.name(frame, patch, ruled_out=[Card.parse("9O")]).card  # Card or None
    """

    def __init__(self, model: DeckModel, watch: TableWatch) -> None:
        self.model = model
        self.watch = watch

    def name(self, frame: np.ndarray, patch: Patch, *, ruled_out: Collection[Card]) -> Naming:
        """The deck's naming of the card in ``patch`` (``ruled_out``: the cards that cannot
        lie there, as rivals only)."""
        return self.model.identify(views_around(frame, self.outline(frame, patch), reach=REACH), ruled_out=ruled_out)

    def region(self, frame: np.ndarray, patch: Patch) -> tuple[int, int, int, int]:
        """Where the card in ``patch`` lies in the full frame, with room round it (x0, y0, x1, y1)."""
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = (np.float32(patch.mask_box) + (-AROUND, -AROUND, AROUND, AROUND)) / self.watch.scale
        return max(int(x0), 0), max(int(y0), 0), min(int(np.ceil(x1)), w), min(int(np.ceil(y1)), h)

    def outline(self, frame: np.ndarray, patch: Patch) -> np.ndarray:
        """The card's corners in the frame: the work-size outline, tightened on the full
        frame to the bright paper inside it (a neighbour's card it touches is outside it)."""
        rough = self.watch.to_frame(patch.quad)
        h, w = frame.shape[:2]
        pad = 6 / self.watch.scale
        x0, y0 = np.maximum(np.floor(rough.min(0) - pad).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(rough.max(0) + pad).astype(int), (w, h))
        grey = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        inside = np.zeros(grey.shape, np.uint8)
        grown = rough - (x0, y0)
        c = grown.mean(0)
        cv2.fillConvexPoly(inside, np.round(c + (grown - c) * 1.08).astype(np.int32), 1)
        _, paper = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        pts = np.column_stack(np.nonzero(paper & inside)[::-1]).astype(np.float32)
        if len(pts) < 0.6 * cv2.contourArea(grown.astype(np.float32)):
            return rough
        rect = cv2.minAreaRect(pts)
        if rect[1][0] * rect[1][1] > cv2.contourArea(grown.astype(np.float32)):
            return rough  # paper as bright as the table (a pale mat, marble): the table's, not a card's
        box = cv2.boxPoints(rect) + (x0, y0)
        return box.astype(np.float32)
