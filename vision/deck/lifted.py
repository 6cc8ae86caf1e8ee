"""Whether the last card read was lifted off the pile again (:meth:`vision.deck.pile.Pile.judge`
then says "taken back" and forgets it).

The table going back to how it was before the last card is the plain case, judged by the pile
itself; what lies on top must then be the card under the last one, where it lay
(:func:`shows_under`). When the card under the last one is a card asked about unseen (the
"card under" ask, :mod:`vision.deck.peek`), the player lifts the top card to lay that one
again; that lift is seen by the print under it (:func:`lifted_off_unread`), as the table
as a whole may have changed meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.deck.darker import glare_near
from vision.deck.exposure import Change
from vision.deck.locate import quad_mask
from vision.deck.outline import Outline, iou
from vision.deck.second import PRINT_KEPT, SAME_PLACE, print_kept
from vision.deck.states import Settled


def shows_under(found: list[Outline], under: np.ndarray | None) -> bool:
    """Whether what lies on top is the card under the last one, as a card lifted off leaves
    it: that card's outline found again where it lay. With no outline known under the last
    card (the bare table, or a card asked about unseen), no other card's outline on top
    is needed. No outline found where one lay is no lift: under the lamp's reflection a
    card's sides wash out, and a card dealt there since leaves the table much as before."""
    if under is None:
        return True
    return bool(found) and iou(found[0].quad, under) > SAME_PLACE


def dealt_squared(model, frame: np.ndarray, detail: np.ndarray, found: list[Outline], under_card) -> bool:
    """Whether the card on top where the one under the last card lay (``found[0]``, detail px;
    ``frame``: the full frame) is named, sure, as another card than that one (``under_card``):
    a card dealt squared on the last one, its sides on theirs, not the card under it shown
    again. Squared exactly, a card changes little but the print (a figure over a few pips),
    less than "the table as before the last card" allows; the print tells them apart. With no
    card known under the last (the bare table, a card asked about unseen) it says nothing.
    ``model``: the learnt deck (:class:`vision.deck.model.DeckModel`)."""
    if under_card is None or not found:
        return False
    naming = model.named_at(frame, found[0].quad, detail)
    return naming.card is not None and naming.card != under_card


def lifted_off_unread(settled: list, dark: np.ndarray | None, seen: np.ndarray,
                      changed: Callable[[np.ndarray], Change]) -> bool:
    """Whether the card counted last (``settled[-1]``) was lifted off the card asked about under
    it (``settled[-2]``, the card under ask): every edge that card's print showed in the frame
    it was kept from shows again at its outline in ``seen``, and the last card's print is gone
    from its own. The table as a whole need not be as it was under the card: the lamp's
    reflection may have moved meanwhile (and clips over the pile, where the table as before the
    last card says nothing), or the dealer's hand lay in that frame. A card dealt on the last
    one would cover the print under it too. ``dark``: the darker frame's detail copy, when
    ``seen`` is one; ``changed``: the judge's comparison of ``seen`` with a picture. ``settled``:
    the pile's states (:class:`vision.deck.pile.Settled`, which imports this module)."""
    if len(settled) < 2:
        return False
    under, last = settled[-2], settled[-1]
    if not under.pending or last.pending or under.where is None or under.detail is None \
            or last.where is None or last.detail is None:
        return False
    for state, kept in ((under, True), (last, False)):
        got = changed(state.at_exposure(dark))
        shown = print_kept(seen, got.reference, quad_mask(seen.shape, state.where), got.edge)
        if (shown >= PRINT_KEPT) != kept:
            return False
    return True


def veiled(settled: list[Settled], detail: np.ndarray, under: np.ndarray | None, area: float) -> bool:
    """Whether the lamp's reflection clips the picture over the pile (the last card's and the one
    under it's outlines, ``under``), now (``detail``, normal exposure) or in the table before the last
    card (``settled[-2]``). A card dealt under it is white on white there: "as before the last card"
    says nothing of the card dealt since, and taking the last card off the count would drop a card
    that lies there."""
    pile = [q for q in (settled[-1].where, under) if q is not None]
    earlier = settled[-2].detail
    return bool(pile) and any(glare_near(d, pile, area) for d in (detail, earlier) if d is not None)
