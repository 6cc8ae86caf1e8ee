"""A sota told from a rei by the whole card when its corners cannot tell, over several looks.

A 10 and the 12 of its suit are the same figure but for the head (a cap, a crown) and the
index: their learnt whole cards correlate at 0.96-0.98, so the deck leaves them to the rank
index (``DeckModel``: a rival of another rank this close, the corners decide). At 720p from
90-100 cm the index is 5-6 px tall; there a 10's corner lies between the learnt "10" and "12"
(corner margin -0.24 ... 0.15, under the 0.35 asked for) while a 12's says "12" clearly
(0.43-0.84). Traced on the rough bench: half its asks were such a 10.

What the whole card says is measured the same way as the corners: where the seen card lies
between the learnt card and the rival, along their difference (:func:`rank_lean`: 1 exactly
ours, 0 halfway, -1 exactly theirs). With near-identical learnt cards one look's lean is
noisy, so a card is named by it only when every look at it while it lay still (the reader's
``READ_TRIES``) named the same best card, each leaning its way by at least ``LEAN``, and no
look's corners said a rival by the deck's own margin (:class:`RankLooks`). Anything less is
asked about, as before.

The learnt cards are sharper than a card 90 cm under a 720p camera: the few cells where a
10 and its 12 differ (a cap, a crown) are smeared over their neighbours in the card seen,
so it lies nearer halfway than it is (405 t6 10B: 0.3-0.6 over its looks). The lean is
measured against the learnt cards blurred alike (:func:`_blurred`: every candidate the same
blur, the one of ``SOFTEN`` that fits the card seen best, as the deck does for a blurred
rank index), so a blur moves neither card's way; sharp, it is the lean as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection

import cv2
import numpy as np

from kiosk.game.cards import Card
from vision.deck.model import CLOSE, CORNER_MARGIN, DeckModel, Naming
from vision.deck.views import WHOLE_H, WHOLE_W, CardView, local_contrast

LEAN = 0.5  # of the way from the rival's learnt card to ours (0 halfway), in every look
LOOKS = 4  # looks at the card lying still, at least, all leaning its way (the reader's READ_TRIES)
SOFTEN = (0.0, 0.5, 0.75, 1.0, 1.25, 1.5)  # blurs (Gaussian sigma, lightness cells of ~2 mm) tried on the learnt cards


@dataclass(frozen=True)
class RankLean:
    """``card`` (the best, not named: its corners did not tell) and where the whole card seen
    lies between it and its closest rival of another rank (``lean``, the least over the
    rivals) and what the corners said (``corner``: the deck's corner margin, below 0 the
    rival's)."""

    card: Card
    lean: float
    corner: float


def rank_lean(model: DeckModel, views: list[CardView], naming: Naming,
              ruled_out: Collection[Card]) -> RankLean | None:
    """The whole card's lean for a naming the deck left to the corners (``why`` "rank"), at
    the best card's own best alignment and orientation; None for any other naming."""
    if naming.card is not None or naming.why != "rank" or naming.corner_margin is None:
        return None
    seen = local_contrast(np.stack([v.whole for v in views]))
    best = (seen @ model.local.T).max(axis=0)
    per_card = np.maximum(best[0::2], best[1::2])
    i = model.cards.index(naming.best)
    out = {model.cards.index(c) for c in ruled_out if c in model.cards}
    rivals = [r for r, c in enumerate(model.cards) if r != i and r not in out and c.rank != naming.best.rank
              and per_card[i] - per_card[r] < CLOSE]
    if not rivals:
        return None
    rows = [2 * j + o for j in (i, *rivals) for o in (0, 1)]
    # the blur that fits the card seen best, over every candidate alike (0: sharp)
    soft = max((_blurred(model.whole[rows], blur) for blur in SOFTEN), key=lambda b: float((seen @ b.T).max()))
    scores = seen @ soft.T  # views x (ours both ways, then each rival's)
    k, o = np.unravel_index(int(np.argmax(scores[:, :2])), (scores.shape[0], 2))
    mine = soft[o]
    lean = min(float((scores[k, o] - scores[k, 2 * r + o]) / max(1.0 - float(mine @ soft[2 * r + o]), 1e-3))
               for r in range(1, len(rivals) + 1))
    return RankLean(naming.best, lean, float(naming.corner_margin))


def _blurred(whole: np.ndarray, blur: float) -> np.ndarray:
    """Learnt whole-card rows with their lightness cells blurred by ``blur`` (Gaussian sigma,
    cells), compared as a card on the table is (``local_contrast``); the colour part, at a
    coarser scale already, is kept at its weight against the lightness."""
    if blur:
        n = WHOLE_H * WHOLE_W
        light = whole[:, :n]
        soft = np.stack([cv2.GaussianBlur(x.reshape(WHOLE_H, WHOLE_W), (0, 0), blur, borderType=cv2.BORDER_REFLECT)
                         for x in light]).reshape(len(whole), n)
        kept = np.linalg.norm(soft, axis=1, keepdims=True) / np.maximum(np.linalg.norm(light, axis=1, keepdims=True),
                                                                        1e-9)
        whole = np.concatenate([soft, whole[:, n:] * kept], axis=1)
    return local_contrast(whole)


@dataclass
class RankLooks:
    """The looks at one card lying still, for :meth:`card` to name it from once there are
    enough (each look: its ``RankLean``, or None when that look was not such a naming)."""

    looks: list[RankLean | None] = field(default_factory=list)

    def add(self, lean: RankLean | None) -> None:
        self.looks.append(lean)

    def card(self) -> Card | None:
        """The card every look named best and leaned towards clearly, none of whose corners
        said a rival; None otherwise."""
        if len(self.looks) < LOOKS or any(look is None for look in self.looks):
            return None
        cards = {look.card for look in self.looks}
        if len(cards) != 1:
            return None
        if all(look.lean >= LEAN and look.corner > -CORNER_MARGIN for look in self.looks):
            return cards.pop()
        return None
