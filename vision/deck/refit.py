"""A card named unsure at the outline found: its outline fitted again to the frame's own edges.

The look (:meth:`vision.deck.pile.Pile.name`) names the card at the outline found from what
changed against the pile's last state. That outline can be off the card: shifted, turned a few
degrees where the lamp's reflection or a shadow washed out part of its sides, a fifth too small
while the first card's size is still searched (the rectangle inside the card taken), or another
card's sides beside it. The classifier is then unsure, and the kiosk would ask to show the card
again although it lies there, readable. Before asking, the card's own sides are looked for in
the frame itself (every edge counts, no reference: a card's sides are its strongest steps) around
the outline found, at the sizes around it; the card is named there when that outline is another
and most of it changed since the pile's last state (a card below, found again beside the new one,
barely changed: never named in the new one's place), or when it lies where the outline found lies
and a card came there (that outline's sides new, or the print inside it changed): a card squared on
the one below under the lamp's reflection shows few new sides and changes little, white on white.
Over a card asked about too: the card named replaces it, as any card named over it does.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import cv2
import numpy as np

from kiosk.game import Card
from vision.deck.locate import CARD_ASPECT, around, quad_mask
from vision.deck.outline import Outline, find_outlines, iou
from vision.deck.exposure import changed_inside
from vision.deck.model import DeckModel, Naming
from vision.deck.second import DEALT_OVER, SAME_PLACE, visible_new

ROOM = 0.25  # of a card's long side: the room around the outline found where its own sides are looked for
SIZES = (1.0, 0.92, 1.08, 1.17, 1.27)  # around the outline's long side (a fifth small: 1.25)
NOWHERE = np.float32([[-9, -9], [-8, -9], [-8, -8], [-9, -8]])  # (no card over it: every side in view)
GROWN = (1.15, 1.25)  # the outline grown by, about its centre: a card's print is framed at 0.78-0.87 of it
OWN_EDGE = 6.0  # an edge's least step per pixel in one frame (no second one to measure noise: first.FIRST_EDGE)


def _grown(mask: np.ndarray, k: int) -> np.ndarray:
    """``mask`` dilated by a ``k`` px disc, worked out only over the box round its set pixels and the
    disc's reach (nothing grows further: the very same mask, at a fraction of a whole frame's time)."""
    out = np.zeros_like(mask)
    box = around(mask, k // 2 + 2)
    if box is not None:
        out[box] = cv2.dilate(mask[box], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return out


def refit(seen: np.ndarray, reference: np.ndarray | None, quad: np.ndarray, long_px: float, *,
          new: float, floor: float, min_pixels: int = 6, came: bool = False) -> Outline | None:
    """The card's outline fitted again to ``seen``'s own edges (detail size) around ``quad`` (the
    outline found, ``long_px`` long), or None: none there, or as a card below found again beside
    the one that came: against ``reference`` (the pile's last state at ``seen``'s exposure) its
    sides new for less than ``new`` of them and less of it changed than a card dealt over
    changes (:data:`vision.deck.second.DEALT_OVER`; ``floor``, ``min_pixels``: what counts as a
    change there). Either says a card came there (a card's sides squared on old ones; a card
    white on white changing little but its sides)."""
    if reference is None:
        return None
    k = max(3, int(ROOM * long_px)) | 1
    room = _grown(quad_mask(seen.shape, quad), k)
    found = find_outlines(seen, None, room, long_px, level=OWN_EDGE, aspect=CARD_ASPECT, sizes=SIZES)
    if found and came and iou(found[0].quad, quad) > SAME_PLACE:
        return found[0]
    if not found or (visible_new(seen, reference, found[0].quad, NOWHERE, OWN_EDGE) < new and changed_inside(
            reference, seen, found[0].quad, floor=floor, min_pixels=min_pixels) < DEALT_OVER):
        return None
    return found[0]



def grown(model: DeckModel, frame: np.ndarray, detail: np.ndarray, top: Outline,
          known: Collection[Card]) -> tuple[Naming, Outline] | None:
    """While the first card's size is still searched (the camera need not be where the deck was
    learnt), the outline found may be the frame printed inside the card, a fifth smaller, where the
    lamp's reflection washed out the card's own sides (white on white). The card is named at that
    outline grown about its centre (:data:`GROWN`; ``frame``, full size; ``detail``, its shrunk copy
    the outline is in): named sure, and not on the pile (``known``), that card lies there, at that size."""
    centre = top.quad.mean(axis=0)
    for k in GROWN:
        quad = (centre + (top.quad - centre) * k).astype(np.float32)
        naming = model.named_at(frame, quad, detail, wider=True)
        if naming.card is not None and naming.card not in known:
            return naming, replace(top, quad=quad, long=top.long * k, straight=None)
    return None
