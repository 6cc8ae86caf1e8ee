"""A card whose sides the lamp's reflection washed out, found all the same: named by its print.

The look (:meth:`vision.deck.pile.Pile.judge`) takes a card that came only where an outline
holds: a card-sized rectangle with most of its perimeter (:data:`vision.deck.outline.MIN_SUPPORT`)
on edges, searched where the table changed. Under a clipping reflection the card dealt on the pile
changes the darker frame by a few specks (white on white) and can show too little of its sides,
though its print, in the darker frame, names it plainly: the look then asked to move the card, or,
with few new edges, said nothing. Before either, the best rectangle about the pile (where the last
card lies, and what changed), the last card's sides left out, whose sides hold at least
:data:`FAINT` of its perimeter, is named where it lies. Only a card named sure that is not on the
pile is taken (the look goes on with it as with any outline found): the card below, or one further
down, found again under the light, is never counted as one that came; anything else goes on as
before (asked about, or nothing).
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from kiosk.game import Card
from vision.deck.exposure import Change
from vision.deck.locate import CARD_ASPECT
from vision.deck.model import DeckModel
from vision.deck.outline import Outline, find_outlines

FAINT = 0.3  # of its perimeter on edges at least: a card half under a clipping reflection shows about half


def faint_card(model: DeckModel, frame: np.ndarray, seen: np.ndarray, change: Change, where: np.ndarray | None,
               long_px: float, *, sizes: tuple[float, ...], known: Collection[Card]) -> list[Outline]:
    """The best faint outline about the pile in ``seen`` (detail size; ``frame``: the same at full
    size, where it is named; ``where``: the outline of the card last found on the pile, detail px;
    ``sizes``: the card sizes tried), or none: none there, or the card there not named sure, or
    named as one on the pile (``known``). Its sides need not be new: a card squared on the last one
    lies along that one's sides (the look then names it only if its print changed)."""
    # (where the pile lies and where the table changed, every place in it; under the reflection
    # the change itself may be a few specks. The last card's sides are left out: they hold, old)
    pts = cv2.findNonZero(change.mask)
    if where is None and pts is None:
        return []
    boxes = [] if where is None else [(*where.min(axis=0), *where.max(axis=0))]
    if pts is not None:
        cx, cy, cw, ch = cv2.boundingRect(pts)
        boxes.append((cx, cy, cx + cw, cy + ch))
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    everywhere = np.full(seen.shape[:2], 255, np.uint8)
    found = find_outlines(seen, change.reference, everywhere, long_px, level=change.edge, aspect=CARD_ASPECT,
                          sizes=sizes, box=(int(x0), int(y0), int(x1) + 1, int(y1) + 1), exclude=[] if where is None else [where], least=FAINT)
    if not found:
        return []
    naming = model.named_at(frame, found[0].quad, seen)
    if naming.card is None or naming.card in known:
        return []
    return found
