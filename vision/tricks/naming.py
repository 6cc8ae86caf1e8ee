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
from vision.tricks.rank import RankLean, rank_lean
from vision.tricks.zones import CARD_ASPECT, CARD_FILL, Patch, TableWatch

REACH = 9  # warp px the outline may be off (views_around)
AROUND = 16  # work px round a still card's patch its picture is averaged over
SHRUNK = (0.88, 0.91, 0.94, 0.97, 1.0, 1.03)  # the outline's scales looked at when it named no card
PIECE_SHARE = 0.5  # of the change's outline a card's paper piece covers at least (a halo 1.2 times its sides: 0.7)


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
        return self.look(frame, patch, ruled_out=ruled_out)[0]

    def look(self, frame: np.ndarray, patch: Patch, *,
             ruled_out: Collection[Card]) -> tuple[Naming, RankLean | None]:
        """The naming, and for a card the deck left to its corners, where its whole card
        leans (vision/tricks/rank.py: named from several such looks)."""
        outline = self.outline(frame, patch)
        views = views_around(frame, outline, reach=REACH)
        naming = self.model.identify(views, ruled_out=ruled_out)
        if naming.card is not None:
            return naming, None
        # The change's outline is never smaller than the card, often larger: on a table as
        # bright as the paper (marble, a pale mat) it cannot be tightened to the paper, and
        # its halo (the card's colour smoothed, its shadow) leaves it 5-10 % too large on
        # each side (406: 9E scoring 0.37-0.42 on it, 0.82-0.85 on its true outline). Looked
        # at again down to that much smaller too, every card at its own best alignment as
        # before (the same floor and margins).
        again = self.model.identify(views_around(frame, outline, reach=REACH, scales=SHRUNK), ruled_out=ruled_out)
        if again.card is not None:
            return again, None
        return naming, rank_lean(self.model, views, naming, ruled_out)

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
        paper &= inside
        area = cv2.contourArea(grown.astype(np.float32))
        pts = np.column_stack(np.nonzero(paper)[::-1]).astype(np.float32)
        rect = cv2.minAreaRect(pts) if len(pts) >= 0.6 * area else self._paper_piece(paper, area)
        if rect is None:
            return rough
        if rect[1][0] * rect[1][1] > area:
            return rough  # paper as bright as the table (a pale mat, marble): the table's, not a card's
        box = cv2.boxPoints(rect) + (x0, y0)
        return box.astype(np.float32)

    def _paper_piece(self, paper: np.ndarray, area: float) -> tuple | None:
        """The rotated rectangle of the card's paper when it fills less of the outline than
        usual: the change's outline round a card on dark felt can be a halo wider than the
        card (its colour against the felt's, smoothed), 1.2 times its sides, and the paper,
        less its dark print, is then under 0.6 of it (1080p felt: the outline 20 px off, the
        card scoring 0.35-0.55 where its true outline scores 0.9 and more). Taken only when
        it is a card: the largest bright piece, its print filled in, card-shaped (as the
        table watch's patches), filling its rectangle, at least ``PIECE_SHARE`` of the
        outline and a card's size; anything else (Otsu cutting a reflection's spot, or
        a neighbour's card joined to it) is no card's paper, and the outline stays."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
        if count < 2:
            return None
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        contours, _ = cv2.findContours((labels == k).view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea)
        rect = cv2.minAreaRect(contour)
        long, short = max(rect[1]), max(min(rect[1]), 1.0)
        low, high = (side / self.watch.scale for side in self.watch.long)
        shaped = (CARD_ASPECT[0] <= long / short <= CARD_ASPECT[1] and low <= long <= high
                  and cv2.contourArea(contour) >= CARD_FILL * long * short and long * short >= PIECE_SHARE * area)
        return rect if shaped else None
