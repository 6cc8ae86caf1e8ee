"""A card that lay in frames the tracker did not look at, then covered unread.

The tracker (:mod:`vision.deck.tracker`) looks at the table once it lay still for
``still_frames`` frames. A dealer's hand resting by the pile and twitching may cut every
still spell short while a card lies there: no look, and the next card dealt onto it is then
the one read, the one under it never (the backstop, :mod:`vision.deck.backstop`, hears the
tracker speak about the next card and checks nothing). So the frames the tracker read
without looking since the pile's last state are kept (:meth:`Peek.keep`, the latest
``KEPT``; nothing is computed then), and when a look names a card, it is checked against
them (:meth:`Peek.came_unread`): in a kept frame where the named card did not lie yet (it
came later: its place changed since, or, in a frame the tracker read still, its print was not
there, as under the lamp's reflection where white on white changes nothing; the latest such
frame), the pile's region gained a card's share of new edges away from the view's edge
(:func:`vision.deck.backstop.unsaid`: not a hand, nor a card in its hand), and a card's
outline with new sides there, no hand over it, lies apart from the named card, with its sides
in view beside it still new now (or lies where the named card lies now, and the classifier
names another card there; or, in that still frame, no outline but a card's worth of new edges
beside the named card, the last card read no longer on top there): another card came and was
covered unread. Frames kept against a card asked about are checked when the named card replaces
it; an ask forgets the frames kept before it. The look answers "two cards" (deal them one at a
time), never a count that passes over a card in silence; or, when the card that came lay there
alone (its outline found, no second card's outline beside it in that frame: the only card unread),
it is named in the kept frames where it lay (sure, neither the named card nor one on the pile) and
counted under the named card (its event, marked ``under``, before the named card's); named in none,
the named card stays counted and only the card under it is asked about ("a card under it unseen":
lift the named card, show the one under it again, lay the named card back): one card sent back,
not two, and the kiosk still counts no card it did not name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from kiosk.game import Card
from vision.deck.backstop import unsaid
from vision.deck.events import ASK_KINDS, COUNTED, TWO_CARDS, UNDER, DealEvent
from vision.deck.exposure import Change, changed_inside, compare
from vision.deck.locate import CARD_ASPECT, off_edge, shrunk
from vision.deck.motion import hand_over
from vision.deck.ontop import still_on_top
from vision.deck.outline import iou, new_edge_share
from vision.deck.pile import CHANGE_LEVEL, MIN_CHANGE, NOT_NEW, UNSTEADY, Pile
from vision.deck.states import Settled
from vision.deck.second import (
    MIN_NEW_SECOND, SAME_PLACE, UNSEEN_CARD, all_as_before, print_shown, second_card, visible_new)

KEPT = 8  # frames read without a look kept at most (the latest), against one state of the pile
SEARCHED = 3  # of them searched for a card's outline at most, per card named (the latest first)


@dataclass(frozen=True)
class Unread:
    """A card come and covered unread, as a kept frame (``detail``, detail size) showed it:
    ``where``, its outline there (None: no outline, a card's worth of new edges); ``alone``, its
    outline found and no second card's outline beside it there (:func:`vision.deck.second.second_card`,
    as a look tells two cards from one): the only card come unread."""

    detail: np.ndarray
    where: np.ndarray | None
    alone: bool = False
    card: Card | None = None  # alone, named there sure: neither the card named now nor one on the pile


@dataclass
class Peek:
    """The frames read without a look since the pile's last state (``_top``)."""

    detail_width: int = 960
    _top: Settled | None = None
    _frames: list[tuple[np.ndarray, bool]] = field(default_factory=list)  # as fed (shrunk when searched), still

    def keep(self, top: Settled, frame: np.ndarray, *, still: bool = False) -> None:
        """A frame the tracker read and did not look at (moving, or a still spell too short:
        ``still``, nothing moved since the frame before)."""
        if top is not self._top:
            self._top, self._frames = top, []
        self._frames = (self._frames + [(frame, still)])[-KEPT:]

    def bare(self, top: Settled) -> None:
        """A look saw the table as ``top``, the pile's last state, nothing new on it: a card
        the frames kept before showed is gone (lifted off again, as a card taken back by hand
        and then lifted, or it was a card in a hand passing), never covered unread; they are
        forgotten. (A card that lay only in those frames and was covered since would show now.)"""
        if top is self._top:
            self._frames = []

    def checked(self, pile: Pile, events: list[DealEvent]) -> list[DealEvent]:
        """``events``, a look's answer: a card counted over a card that came and was covered
        unread (:meth:`came_unread`) is "two cards" instead (it lies there unread, asked about;
        what comes next is read against it), as when the look saw the second card's outline.
        When that card lay there alone (:attr:`Unread.alone`), the count stands; the card under
        it is counted when it was named where it lay (:attr:`Unread.card`), else asked about: it
        lies under the named one unread, as the kept frame showed it (the named card lifted off
        leaves the table so: "taken back", then it is read when laid again; what comes next is
        read against the named card)."""
        if any(e.kind in ASK_KINDS for e in events):
            self._top, self._frames = None, []  # (an ask: what the frames kept before it showed is asked about)
            return events
        counted = [e for e in events if e.kind == COUNTED and not e.earlier]
        if len(counted) != 1 or pile.settled[-1].card != counted[0].card:
            return events
        unread = self.came_unread(pile)
        if unread is None:
            return events
        if unread.alone and unread.card is not None:  # (named where it lay: counted under the named card)
            pile.push(unread.detail, unread.card, where=unread.where, under=1)
            return [DealEvent(COUNTED, unread.card, frame_number=counted[0].frame_number, under=True)] + events
        if unread.alone:
            pile.uncertain += 1
            pile.push(unread.detail, None, pending=True, where=unread.where, under=1)
            return events + [DealEvent(UNDER, counted[0].card, frame_number=counted[0].frame_number)]
        top = pile.settled.pop()
        pile.push(top.detail, None, pending=True, darker=top.darker, where=top.where)
        return [e for e in events if e is not counted[0]] + [DealEvent(TWO_CARDS, frame_number=counted[0].frame_number)]

    def came_unread(self, pile: Pile) -> Unread | None:
        """The pile's last state is a card just counted (over ``_top``, the state the kept frames
        were seen against): the card a kept frame held, come and covered unread, if one did."""
        top = self._top
        # (the kept frames were seen against the state under the card named, or against a card
        # asked about that the named one replaced: what came after the ask is checked the same)
        replaced = top is not None and top.pending and all(s is not top for s in pile.settled)
        if len(pile.settled) < 2 or not (pile.settled[-2] is top or replaced) or not self._frames:
            return None
        before, now = top, pile.settled[-1]
        frames, self._top, self._frames = self._frames, None, []
        if before.detail is None or now.detail is None or now.where is None:
            return None
        searched, printed = 0, False
        for frame, still in reversed(frames):
            detail = shrunk(frame, self.detail_width, 3)
            if detail.shape != now.detail.shape:
                continue
            unchanged = changed_inside(detail, now.detail, now.where, floor=CHANGE_LEVEL) < UNSTEADY
            if unchanged and (printed or not still or print_shown(detail, now.detail, now.where)):
                continue  # (the card named lay there already: the one that came then)
            # (its place unchanged, its print not there, the table lying still: white on white
            # under the lamp's reflection, another card lay there; the latest such frame alone)
            printed = printed or unchanged
            change = compare(before.detail, detail, floor=CHANGE_LEVEL)
            if not unsaid(before.detail, detail, before.where, pile.long_px(detail), change):
                continue  # (nothing new there but a hand, or a card in it)
            unread = _other_card(pile, before, frame, detail, now, change, bare=unchanged)
            if unread is not None:
                return unread if unread.card is not None or not unread.alone else \
                    _named_in(pile, unread, [f for f, _ in frames if f is not frame], now)
            searched += not unchanged  # (the print-opened frame is searched besides them)
            if searched >= SEARCHED:
                break
        return None


def _named_in(pile: Pile, unread: Unread, frames: list[np.ndarray], now: Settled) -> Unread:
    """``unread``, the card that came alone, not named sure in the frame it was found in (a hand
    passing, the reflection swaying over it): named in another kept frame (``frames``, as fed,
    oldest first) where it lay as there (little of its place changed), sure, a card neither named
    now nor on the pile."""
    for frame in reversed(frames):
        detail = shrunk(frame, unread.detail.shape[1], 3)
        if detail.shape != unread.detail.shape or \
                changed_inside(unread.detail, detail, unread.where, floor=CHANGE_LEVEL) >= UNSTEADY:
            continue
        card = pile.model.named_at(frame, unread.where, detail).card
        if card is not None and card != now.card and card not in pile.cards:
            return replace(unread, card=card)
    return unread


def _other_card(pile: Pile, before: Settled, frame: np.ndarray, detail: np.ndarray, now: Settled,
                change: Change, *, bare: bool = False) -> Unread | None:
    """The card ``frame`` (a kept frame; ``detail`` its detail copy) holds, if it holds a card's outline new
    against ``before`` (the pile's state then), no hand over it, that is not the card named
    now (``now``): lying apart from it, with its sides in view beside it new edges now too (it
    lies there still, under the named card: not a card in the air, or pushed along since), or
    named there, sure, a card neither named now nor on the pile (its sides in view old: under the
    named card on a square pile); or lying where the named card lies now, named another card there
    by the classifier. ``change``:
    ``detail`` against ``before``. None: no such card."""
    long_px = pile.long_px(detail)
    area = long_px * long_px / CARD_ASPECT
    if cv2.countNonZero(change.mask) < MIN_CHANGE * area:
        return None
    found = pile.find(detail, change, long_px)
    if not found and bare:
        # (``bare``: a still frame where the named card's print was not. Under the reflection a
        # card's sides wash out: a card's worth of new edges, the last card read no longer lying
        # on top there, uncovered (:mod:`vision.deck.ontop`), is a card come all the same, as a
        # look's unseen-card ask says)
        apart = off_edge(change.mask)  # (outside the named card, not reaching the view's edge as a hand does)
        cv2.fillPoly(apart, [np.round(now.where).astype(np.int32)], 0)
        # (a card's share of the table changed there, not the noise's specks, whose few pixels, each widened
        # for its edges, held a card's worth of new edges at a gain of 6.4: 77002, "two cards" for 6O alone)
        if cv2.countNonZero(apart) < MIN_CHANGE * area \
                or new_edge_share(detail, change.reference, apart, long_px, level=change.edge, aspect=CARD_ASPECT) < UNSEEN_CARD \
                or still_on_top(pile.model, before.card, before.where, frame, detail, change.reference, change.edge):
            return None
        return Unread(detail, None)
    if not found or found[0].new < NOT_NEW:
        return None
    quad = found[0].quad
    h, w = detail.shape[:2]
    if quad.min() < 1 or quad[:, 0].max() > w - 2 or quad[:, 1].max() > h - 2 or hand_over(change.mask, quad, area):
        return None
    if before.where is not None and iou(quad, before.where) > SAME_PLACE:
        return None  # (the last card found again)
    def named():  # (the classifier at that outline, in the kept frame)
        return pile.model.named_at(frame, quad, detail)

    naming = None
    if iou(quad, now.where) > SAME_PLACE:
        # (where the card named lies now, yet it did not lie there then: named in that frame, it
        # is another card only when the classifier is sure of it, and it is not the one named)
        naming = named()
        came = naming.card is not None and naming.card != now.card
    elif all_as_before(now.detail, before.detail, quad, now.where, change.edge):
        return None  # (the pile's old edges, all as they were (:func:`vision.deck.second.all_as_before`): cards askew below)
    elif visible_new(now.detail, before.detail, quad, now.where, change.edge) >= MIN_NEW_SECOND:
        came = True  # (apart from it, its sides in view beside the named card new now)
    else:
        # (its sides in view old now: it lies mostly under the named card, on a pile dealt square,
        # whose sides lie along the cards' below. Named in that frame, sure, a card neither named
        # now nor on the pile: it came, and lies under the named card)
        naming = named()
        came = naming.card is not None and naming.card != now.card and naming.card not in pile.cards
    if not came:
        return None
    # (alone: no second card's outline beside it in that frame, as a look tells two cards from one;
    # another card come unread too, or the next one in the air over it, is "two cards". An outline
    # a hand lies over, from the view's edge, is the dealer's hand resting there: no card)
    other = second_card(detail, change.reference, change.mask, found[0], long_px, level=change.edge,
                        aspect=CARD_ASPECT, sizes=pile.sizes(),
                        pile=tuple(s.where for s in pile.settled if s.where is not None))
    if other is not None and not hand_over(change.mask, other.quad, area):
        return Unread(detail, quad)
    # (alone: named in that frame, sure, a card neither named now nor on the pile, it is counted)
    naming = naming or named()
    known = naming.card is None or naming.card == now.card or naming.card in pile.cards
    return Unread(detail, quad, alone=True, card=None if known else naming.card)
