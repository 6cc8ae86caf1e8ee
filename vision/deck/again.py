"""A card come that the look cannot name (nor outline): looked at once more before the kiosk asks.

A look (:meth:`vision.deck.pile.Pile.judge`) that finds a card come and cannot name it asks the
players about it ("show it again", "move it out of the light"). A frame later the sensor's noise,
the light's flicker and the lamp's swaying reflection are not the same, and the card is often
named sure: nobody need be asked anything. So once per pile state the ask is held
(:class:`vision.deck.pile.Held`, by :meth:`vision.deck.pile.Pile.hesitates`),
and the table is looked at once more in the next still frame. Never in silence: the ask is owed,
and :func:`owed` makes it at the next look that does not settle it:

- a card read since that lay where it lies when the ask was held (its print there barely changed
  since, compared at the darker exposure under the reflection), or that lies where the held outline
  lay, and that is the card the classifier, unsure, found the held one nearest (or it found none):
  settled (where the reflection washes two cards' prints out alike, the guess tells them apart);
- an ask, or a card counted under the one named (:mod:`vision.deck.peek`), or the last card taken
  back: said, nothing more;
- nothing read since (the look found nothing there, a hand came over it, or "Fet"): asked now,
  as it would have been a look earlier;
- another card counted (the next card dealt over it with no still spell between): that count
  stands, and the held card is asked about as the card under it (lift it, show that one, lay it back);
  unless the held card's outline (or, with none, what changed) lay mostly beside the card counted:
  a card there would have shown in the look that counted it (two cards), so none lay there (the
  next card in the air, a hand passing, the light).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.deck.events import ASK_KINDS, DARKER, TAKEN_BACK, UNDER, DealEvent
from vision.deck.exposure import changed_share
from vision.deck.locate import quad_mask
from vision.deck.outline import iou
from vision.deck.pile import PRINT_CHANGED, Pile, change_levels
from vision.deck.states import Held, Settled
from vision.deck.second import SAME_PLACE, print_shown

SMOOTH = (5, 5)  # px (detail): the noise a held card's print is compared through is smoothed away
UNDER_IT = 0.5  # of the held card's place (its outline, or what changed), under the card read since: it may lie under it

class Kept(NamedTuple):
    """What a look changes of the pile (its states, the asks, an ask held back, a look due), kept
    to go back to (:func:`back_to`) when a second reading of the same look is not taken."""

    settled: list[Settled]
    uncertain: int
    held: Held | None
    unsteady: bool


def kept(pile: Pile) -> Kept:
    return Kept(list(pile.settled), pile.uncertain, pile.held, pile.unsteady)


def back_to(pile: Pile, state: Kept) -> None:
    pile.settled[:], pile.uncertain, pile.held, pile.unsteady = state


def owed(pile: Pile, events: list[DealEvent], *, end: bool = False) -> list[DealEvent]:
    """``events``, a step's answer, with the ask held (``pile.held``) made when the look once more
    did not settle it. Only once that look was made: not while the tracker waits for it (the
    card not lying still yet) or for its darker frame; ``end``: dealing declared done ("Fet"),
    no look is to come."""
    held = pile.held
    if held is None or (not end and (pile.unsteady or any(e.kind == DARKER for e in events))):
        return events
    pile.held = None
    at = next((k for k, s in enumerate(pile.settled) if s is held.state), None)
    if at is None or any(e.kind in ASK_KINDS + (TAKEN_BACK,) or e.under for e in events):
        return events
    since = pile.settled[at + 1:]  # (what was read over the held card's place since)
    if not since or since[0].card is None:
        if any(s.pending for s in since):
            return events  # (asked about since)
        return events + _asked(pile, held)
    first = since[0]
    seen = held.seen if held.where is None else quad_mask(held.detail.shape, held.where)
    if seen is not None and first.where is not None and _share_in(seen, first.where) < UNDER_IT:
        return events  # (what the look held lies beside the card read since: a card there shows in that look too)
    # (the classifier's guess at the held card, unsure, another card than the one named since: the print may
    # barely change from one card to another where the reflection washes both out, and the held card is asked)
    likely = held.naming is None or held.naming.best in (None, first.card)
    if first.where is not None and likely and (lay_in(held.detail, held.dark, first) or held.where is not None and iou(
            first.where, held.where) > SAME_PLACE):
        return events  # (the card held, named since: it lay there when the ask was held)
    pile.uncertain += 1  # (a state of its own under the card read since: the held card's, asked about)
    pile.push(held.detail, None, pending=True, darker=held.dark, where=held.where, under=len(since))
    return events + [DealEvent(UNDER, first.card, frame_number=pile.frame)]


def lay_in(detail: np.ndarray, dark: np.ndarray | None, state: Settled) -> bool:
    """Whether the card read in ``state`` lay where it lies in a look's ``detail`` (``dark``: its darker
    frame, where the two are compared): its print there barely changed since (less than another
    card's, white on white under the reflection, changes it: :data:`vision.deck.pile.PRINT_CHANGED`).
    The light and the noise are measured over the whole view, smoothed (:data:`SMOOTH`): measured in
    the card's own box, which another card fills, its change set the least change (55010: 11B over 3B,
    held, at a high gain: 54 levels), and 3B was taken for 11B and passed over in silence. Two cards of
    little print (an ace, a three) differ over less than that share at a gain of 8, where the noise
    drowns the faint print's change: every edge of the print it shows now must show there too
    (:func:`vision.deck.second.print_shown`; 80008's 3E, held, was taken for 1C, dealt over it)."""
    now = state.at_exposure(dark)
    if now is None or now.shape != detail.shape or state.where is None:
        return False
    seen, (floor, least) = (detail if dark is None else dark), change_levels(dark)
    return changed_share(cv2.GaussianBlur(seen, SMOOTH, 0), cv2.GaussianBlur(now, SMOOTH, 0), state.where,
                         floor=floor, min_pixels=least) < PRINT_CHANGED \
        and print_shown(seen, now, state.where)


def _share_in(mask: np.ndarray, quad: np.ndarray) -> float:
    """The share of ``mask``'s pixels inside ``quad`` (detail px)."""
    total = cv2.countNonZero(mask)
    return cv2.countNonZero(cv2.bitwise_and(mask, quad_mask(mask.shape, quad))) / total if total else 0.0


def asked_now(pile: Pile, was: Held | None) -> list[DealEvent]:
    """The ask a decision just held back (``pile.held`` is no longer ``was``) made at once, where no
    look once more can follow (the next card already lies, or comes, over the card): as it was
    made before asks were held."""
    held = pile.held
    if held is None or held is was:
        return []
    pile.held, pile.unsteady = was, False
    return _asked(pile, held)


def _asked(pile: Pile, held: Held) -> list[DealEvent]:
    """The ask ``held`` back, made now (:meth:`vision.deck.pile.Pile.unnamed`)."""
    return pile.unnamed(held.detail, held.dark, held.where, held.naming, glare=held.glare)
