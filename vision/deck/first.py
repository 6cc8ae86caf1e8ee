"""The first card when dealing started at once: the camera never saw the bare table.

The tracker (:mod:`vision.deck.tracker`) takes the first frames that agree for the table under
the pile. A player may start dealing the moment the screen opens, so they may already hold the
first card. There is nothing to compare them with, so every edge counts as new: a card's whole
outline in view that names a learnt card is that card (:func:`first_card`). Under the lamp's
reflection a card's sides and print wash out: when a hand moved in view before the table first
lay still (dealing started) and no card was found there, even in the darker frame (where a faint
outline, a card's sides the reflection washed out, is enough for a card its print names), the card
that hand laid may lie under the reflection: it is asked to be moved (:func:`unseen_first`),
never taken for the table in silence.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.game import Card

from vision.deck.faint import FAINT
from vision.deck.events import COUNTED, UNDER, DealEvent
from vision.deck.exposure import edge_level
from vision.deck.locate import CARD_ASPECT, quad_mask, shrunk
from vision.deck.outline import Outline, card_in_view, find_outlines, iou
from vision.deck.pile import Pile
from vision.deck.states import Settled
from vision.deck.refit import grown
from vision.deck.views import views_around

FIRST_EDGE = 6.0  # an edge's least step per pixel in the first settled frame, at most (:func:`first_level`)
FIRST_SUPPORT = 0.8  # of a card's outline on edges, to be taken for a card already there
EARLY = 3  # frames read before the table first lay still, searched for a card under the first one counted
OVER, OUT_OF_IT = 0.1, 0.3  # another outline over a faint first card: overlap, and share of it out of that card
UNDER_SHARE = 0.25  # of such a card's outline under the first card counted: it lies under it, not beside
# (a card's size as the mat's markers give it (:attr:`Pile.scale`; :meth:`Pile.sizes` then tries it alone) holds
# to a few per cent either way: a mat printed "fit to page" is 3-6 % small, so every card looks that much bigger.
# The whole view is searched coarsely, where a card's sides a pixel or two off the size tried are lost: seen on
# the rough camera, first cards on the mat 3-6 % smaller than its markers said were not found at that size, and
# taken for the table in silence. Searched around it when none is found at it)
MAT_SIZES = (1.0, 0.95, 1.05)


def first_level(before: np.ndarray | None, detail: np.ndarray) -> float:
    """The least step per pixel an edge needs in the first settled frame ``detail``, measured against
    the frame before it (``before``, the same size; the two agree: the table lay still), where the
    frames' noise allows less than :data:`FIRST_EDGE`. A card dealt before the camera saw the table, on
    white marble under the lamp's reflection, white on white, steps 3-5 levels per pixel at its sides
    (72000's 2B: no outline at 6, taken for the table in silence)."""
    if before is None or before.shape != detail.shape:
        return FIRST_EDGE
    return min(FIRST_EDGE, edge_level(before, detail))


def first_card(pile: Pile, frame: np.ndarray, detail: np.ndarray, *, dealt: bool = False,
               darker: np.ndarray | None = None, dark: np.ndarray | None = None,
               level: float = FIRST_EDGE) -> list[DealEvent]:
    """Dealing started at once: the first frames that agree (``frame``, its detail copy
    ``detail``; ``pile.settled`` holds them as the table) may already hold the first card.
    A card's whole outline in view (found at half size: the whole view is searched) that
    names a learnt card is that card, and the table under it was never seen. ``dealt``: a
    hand moved in view before these frames: a card's outline there that cannot be named is
    asked about (never taken for the table in silence). ``darker``: the same table at a darker
    exposure (the look at the table asked for it: the reflection is in view): the card is named
    in it, where the reflection washed its print out of ``frame``, and its outline found in
    ``dark`` (its detail copy), where the reflection washed out its edges: once dealing started,
    an outline there needs only :data:`vision.deck.faint.FAINT` of its sides, and is taken only if
    named (else asked about: :func:`unseen_first`). Named nothing at the outline found, the card may
    be named at it grown (:func:`vision.deck.refit.grown`: the frame printed inside the card). ``level``: an
    edge's least step per pixel (:func:`first_level`)."""
    if dark is not None:
        detail = dark
    long_px = pile.long_px(detail)
    top = card_in_view(detail, long_px, level=level, aspect=CARD_ASPECT, sizes=pile.sizes())
    if top is None and pile.scale is not None:  # (no card at the size the mat gave: around it, :data:`MAT_SIZES`)
        top = card_in_view(detail, long_px, level=level, aspect=CARD_ASPECT, sizes=MAT_SIZES)
    if top is None:
        return []
    # (the whole view is searched coarsely: a card turned a few degrees off the sides found
    # there is fitted again where it lies, as a look fits a change)
    there = quad_mask(detail.shape, top.quad)
    finer = find_outlines(detail, None, there, long_px, level=level, aspect=CARD_ASPECT, sizes=pile.sizes())
    top = finer[0] if finer and finer[0].support >= top.support else top
    if top.support < (FAINT if dealt and darker is not None else FIRST_SUPPORT):
        return []  # (dealing started, in the darker frame: a card's sides the reflection washed out, named or asked)
    named_in = frame if darker is None else darker
    naming = pile.model.named_at(named_in, top.quad, detail, wider=True)
    if naming.card is None and len(pile.sizes()) > 1 and (got := grown(pile.model, named_in, detail, top, ())):
        naming, top = got  # (maybe the frame printed inside the card: :func:`vision.deck.refit.grown`)
    if naming.card is None and (not dealt or darker is not None):
        return []  # (something card-shaped, not a card it knows: the table; asked about once)
    if top.support < FIRST_SUPPORT and _covered(pile, named_in, detail, top, naming.card):
        return []  # (a faint card with another over it: which lies on top is not known; asked about)
    if not pile.steady(detail, top.quad):
        pile.unsteady = True  # (looked at again in the next frame)
        return []
    pile.settled[0] = Settled(None)
    if naming.card is None:
        return pile.unnamed(detail, None, top.quad, naming, glare=False)
    return pile.name(named_in, detail, top, None, naming=naming)


def _covered(pile: Pile, frame: np.ndarray, detail: np.ndarray, top: Outline, card: Card) -> bool:
    """Whether another card's outline lies over part of the faint one ``top`` (named ``card``), reaching
    well out of it (not the frame printed inside the card), and is not named as that card: two cards
    dealt before the table first lay still, the faint one maybe under the other (a card half covered
    may still be named sure by its print; the other, under the reflection, may be named nothing)."""
    other = card_in_view(detail, pile.long_px(detail), level=FIRST_EDGE, aspect=CARD_ASPECT, sizes=pile.sizes(),
                         exclude=[top.quad])
    if other is None or other.support < FAINT or iou(other.quad, top.quad) < OVER:
        return False
    mine = quad_mask(detail.shape, top.quad)
    theirs = quad_mask(detail.shape, other.quad)
    if cv2.countNonZero(cv2.bitwise_and(theirs, cv2.bitwise_not(mine))) < OUT_OF_IT * cv2.countNonZero(theirs):
        return False
    return pile.model.named_at(frame, other.quad, detail).card != card


def unseen_first(pile: Pile, detail: np.ndarray, dark: np.ndarray | None) -> list[DealEvent]:
    """Dealing started at once (a hand moved in view before the table first lay still) under
    the lamp's reflection, and no card's outline was found in the first frames that agree (nor
    in their darker frame, ``dark``, when one was taken): the card that hand laid may lie under
    the reflection, white on white. It is asked to be moved out of it, never taken for the
    table in silence; the table under it was never seen, and what comes next is read against
    ``detail`` (the frame that asked)."""
    pile.settled[0] = Settled(None)
    return pile.unnamed(detail, dark, None, None, glare=True)


def under_first(pile: Pile, early: list[np.ndarray], events: list[DealEvent]) -> list[DealEvent]:
    """The first card counted (``events``, :func:`first_card`) when dealing started at once, with
    another card already under it: a brisk dealer's second card may land before the table first
    lies still (a hand moving in every frame), and the first look then sees two cards and names
    the top one. A frame read before (``early``, the latest last, a hand in each) that shows
    another card's whole outline (:data:`FIRST_SUPPORT`), a fourth of it or more under the card
    counted, named sure as another card, held the card under it: the count stands and that card
    is asked about ("card under"), never passed over in silence. A card named as the counted one
    there is that card, in the air or lying; an unnamed one says nothing (the hand's blur)."""
    counted = [e for e in events if e.kind == COUNTED]
    top = pile.settled[-1]
    if len(counted) != 1 or not early or top.where is None or top.detail is None or len(pile.settled) != 2:
        return events
    width = top.detail.shape[1]
    for frame in early[::-1][:EARLY]:
        detail = shrunk(frame, width, 3)
        seen = card_in_view(detail, pile.long_px(detail), level=FIRST_EDGE, aspect=CARD_ASPECT, sizes=pile.sizes())
        if seen is None or seen.support < FIRST_SUPPORT:
            continue
        mine = quad_mask(detail.shape, seen.quad)
        under = cv2.countNonZero(cv2.bitwise_and(mine, quad_mask(detail.shape, top.where)))
        if under < UNDER_SHARE * max(cv2.countNonZero(mine), 1):
            continue  # (a card beside the pile lies in view still: read, or the table)
        naming = pile.model.identify(views_around(frame, seen.quad * (frame.shape[1] / width)))
        if naming.card is None or naming.card == counted[0].card or naming.card in pile.cards:
            continue
        pile.uncertain += 1
        pile.push(detail, None, pending=True, where=seen.quad, under=1)
        return events + [DealEvent(UNDER, counted[0].card, frame_number=counted[0].frame_number)]
    return events
