"""Is the last card read still the top card? The evidence a look asks about nothing with.

A look that finds a card's worth of new edges and no card's outline (or only an outline with
no new sides, away from the last card) asks about the card that may have come unseen: never
silence. But the change may be no card at all: a dealer's hand lingering by the pile twitches
its fingers (flat skin changes only at its rim, which never reaches the view's edge), the lamp's
reflection sways off a card and uncovers its print. A card that came lies ON the pile, over the
last card read: it covers some of that card's print, and the classifier no longer names the last
card where it lay. So the top card is looked for, not the change: when every edge the last card
showed when it was read still shows where it lies (:func:`vision.deck.second.print_kept`, at
:data:`vision.deck.second.PRINT_KEPT`), and the classifier names it there, sure, as that card,
nothing came over it, and the change is left unasked about. (The price: a card laid apart from the
pile, covering none of the last card's outline, with no outline of its own found, is not asked about
then; a deal-through pile's cards land on it.)
"""

from __future__ import annotations

import numpy as np

from vision.deck.locate import quad_mask
from vision.deck.model import DeckModel
from vision.deck.second import PRINT_KEPT, print_kept


def still_on_top(model: DeckModel, card: object, where: np.ndarray | None, frame: np.ndarray,
                 seen: np.ndarray, reference: np.ndarray, level: float) -> bool:
    """Whether the last card read (``card``, counted, lying at ``where``: detail px) lies on top,
    uncovered, in ``seen`` (detail copy of ``frame``, the frame to name from): every edge that
    ``reference`` (the table when it was read, at ``seen``'s exposure) showed inside its outline
    still shows (steps of ``level``), and the classifier names it there, sure."""
    if card is None or where is None:
        return False
    if print_kept(seen, reference, quad_mask(seen.shape, where), level) < PRINT_KEPT:
        return False  # (some of its print is gone: covered, or washed out; no evidence)
    naming = model.named_at(frame, where, seen)
    return naming.card == card
