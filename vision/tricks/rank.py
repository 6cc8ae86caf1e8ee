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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection

import numpy as np

from kiosk.game.cards import Card
from vision.deck.model import CLOSE, CORNER_MARGIN, DeckModel, Naming
from vision.deck.views import CardView, local_contrast

LEAN = 0.5  # of the way from the rival's learnt card to ours (0 halfway), in every look
LOOKS = 4  # looks at the card lying still, at least, all leaning its way (the reader's READ_TRIES)


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
    learnt = model.local
    scores = local_contrast(np.stack([v.whole for v in views])) @ learnt.T
    best = scores.max(axis=0)
    per_card = np.maximum(best[0::2], best[1::2])
    i = model.cards.index(naming.best)
    out = {model.cards.index(c) for c in ruled_out if c in model.cards}
    rivals = [r for r, c in enumerate(model.cards) if r != i and r not in out and c.rank != naming.best.rank
              and per_card[i] - per_card[r] < CLOSE]
    if not rivals:
        return None
    k, o = np.unravel_index(int(np.argmax(scores[:, 2 * i:2 * i + 2])), (scores.shape[0], 2))
    mine = learnt[2 * i + o]
    lean = min(float((scores[k, 2 * i + o] - scores[k, 2 * r + o]) / max(1.0 - float(mine @ learnt[2 * r + o]), 1e-3))
               for r in rivals)
    return RankLean(naming.best, lean, float(naming.corner_margin))


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
