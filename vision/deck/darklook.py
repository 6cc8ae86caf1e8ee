"""The tracker's looks at a darker frame (:mod:`vision.deck.tracker`, :mod:`vision.deck.darker`).

Under the lamp's reflection a look asks for one darker frame, taken right after the frame that
asked. What the darker frame shows is read here: the first card on a table never seen bare
(:mod:`vision.deck.first`); a brisk dealer's next card already lying there (the card under it
read in the frame that asked, events marked ``earlier``: found as a card's outline come between the
two frames, or as two new cards' outlines in the darker frame where the frame that asked names the
one under alone; the new card, seen in that frame only, counted once the next frame shows it lying
there: :class:`Unconfirmed`); a darker frame the next hand spoiled
(the frame that asked read as with no darker frame); else the look's decision
(:meth:`vision.deck.pile.Pile.judge`) in the darker frame, the frame that asked beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.deck.again import Kept, asked_now, back_to, kept
from vision.deck.backstop import came_unread
from vision.deck.darker import came_in, tone_map
from vision.deck.events import ALREADY, ASK_KINDS, COUNTED, HAND, TWO_CARDS, DealEvent
from vision.deck.first import FIRST_EDGE, first_card, unseen_first
from vision.deck.exposure import changed_share, compare
from vision.deck.locate import CARD_ASPECT
from vision.deck.outline import find_outlines, iou
from vision.deck.pile import (
    CHANGE_LEVEL, DARKER_CHANGE_LEVEL, DARKER_MIN_PIXELS, MIN_CHANGE, NOT_NEW, UNSTEADY, Pile)
from vision.deck.states import Settled
from vision.deck.recent import recent

MOVED_ON = 0.7  # overlap at most between the card a darker frame named and the one found in the frame that asked: two cards


@dataclass(frozen=True)
class Unconfirmed:
    """A card come between the frame that asked and the darker frame, named in the darker frame
    alone: seen in one frame only, it may still be in the dealer's hand there, blurred, the hand
    faint at the view's edge (57011's 11C). Its reading (``state``, read over the pile's top ``on``,
    which it replaced when that was a card asked about, ``popped``; ``events``) is kept, and said once
    the next frame shows it lying where it lay (:meth:`confirmed`, :meth:`laid`)."""

    state: Settled
    on: Settled
    popped: bool
    events: list[DealEvent]
    dark: np.ndarray  # the darker frame (detail)

    def laid(self, pile: Pile) -> bool:
        """Lay the card's state on ``pile``, as the look read it; not when the pile's top is no longer
        the one it was read over (taken back since). What else was said since stays (an ask made then)."""
        if pile.settled[-1] is not self.on:
            return False
        if self.popped:
            pile.settled.pop()
        pile.lay(self.state)
        return True

    def confirmed(self, detail: np.ndarray) -> bool:
        """Whether the card lies in the next frame (``detail``) where it lay in the darker frame: less
        than :data:`vision.deck.pile.UNSTEADY` of its area changed, the light and the noise measured
        over the whole view (over the card's own box, a hand filling it passes for a change of light)."""
        return changed_share(tone_map(detail, self.dark), self.dark, self.state.where, floor=DARKER_CHANGE_LEVEL,
                             min_pixels=DARKER_MIN_PIXELS) < UNSTEADY


@dataclass(frozen=True)
class HeldLook:
    """A look waiting for its darker frame: the frame that asked, its detail and motion copies."""
    frame: np.ndarray
    detail: np.ndarray
    small: np.ndarray
    mat: bool  # the empty mat: the darker frame is only kept as the reference
    level: float = FIRST_EDGE  # on the empty mat, an edge's least step (:func:`vision.deck.first.first_level`)


class DarkerLook:
    """One look at a darker frame, for :class:`vision.deck.tracker.DealTracker`. It owns none
    of the tracker's state: it decides on the ``pile`` it is given (:meth:`Pile.judge`), knows
    whether dealing began before the table lay still (``dealt``) and the pile's state when a
    hand last moved (``hand_on``), and says afterwards whether the tracker's still spell must
    start again (``still_again``: a hand was seen, or a card asked to be moved)."""

    def __init__(self, pile: Pile, *, dealt: bool, hand_on: Settled | None) -> None:
        self.pile, self.dealt, self.hand_on = pile, dealt, hand_on
        self.still_again = False
        self.unconfirmed: Unconfirmed | None = None  # a card come between, counted once the next frame confirms it

    def _judged(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
                change=None, normal: np.ndarray | None = None) -> list[DealEvent]:
        events = self.pile.judge(frame, detail, dark, change, normal)
        if any(e.kind == HAND for e in events):
            self.still_again = True
        return events

    def _judged_now(self, frame: np.ndarray, detail: np.ndarray) -> list[DealEvent]:
        """The look's decision in the frame that asked, as with no darker frame, when the next card
        already came (or comes) over what lies there: no look once more can follow, so an ask the
        decision held back (:mod:`vision.deck.again`) is made now."""
        was = self.pile.held
        events = self._judged(frame, detail, None)
        return events + asked_now(self.pile, was)

    def look(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, came: bool) -> list[DealEvent]:
        """The look at the darker frame (``came``: the next hand came over the pile in it)."""
        if look.mat:
            self.pile.settled[0].darker = dark
            # (dealing started at once under the reflection: the first card, not named in the
            # frame that asked, may be named in the darker one; never taken for the table)
            first = first_card(self.pile, look.frame, look.detail, dealt=self.dealt, darker=image, dark=dark,
                               level=look.level)
            if first or self.pile.unsteady or not self.dealt:
                return first
            return unseen_first(self.pile, look.detail, dark)  # (dealing started: never the table in silence)
        if self._card_came_between(look.detail, dark):
            return self._came_between(look, image, dark, confirm=True)
        before = self.pile.settled[-1]
        saved = kept(self.pile)
        events = self._judged(image, look.detail, dark, normal=look.frame)
        if not events and self.pile.settled[-1] is before and came:
            back_to(self.pile, saved)  # (an ask it held back: the frame that asked is read instead)
            return self._spoiled(look, before)
        if not events and self.pile.held is not None and self.pile.held is not saved.held:
            return self._under_first(look, image, dark, saved, [], confirm=True)  # (its ask held)
        if any(e.kind == TWO_CARDS for e in events):
            return self._under_first(look, image, dark, saved, events)
        got = self.pile.settled[-1]
        if not (any(e.kind == COUNTED for e in events) and len(self.pile.settled) >= 2 and self.pile.settled[-2] is before
                and before.detail is not None and got.where is not None):
            return events
        shown = self._shown_under(look, got)
        if shown or self._moved_on(look.detail, before.detail, got.where):
            saved, still = kept(self.pile), self.still_again
            self.pile.settled.pop()  # (the card under it, in the frame that asked, is read first)
            again = self._came_between(look, image, dark, shown=shown)
            # (the card under it read there: counted; or, where the frame that asked showed it, asked about)
            read_under = any(e.earlier and e.kind in ((COUNTED,) + ASK_KINDS if shown else (COUNTED,)) for e in again)
            if read_under and got.card not in self.pile.cards \
                    and not any(not e.earlier and e.kind in (COUNTED, ALREADY) + ASK_KINDS for e in again):
                # (against the card under it the new one may not show, white on white: it is the
                # card the darker frame named against the pile before, as it was counted first; where
                # the frame that asked held another card's outline, that card counted there: 72007's 11O,
                # dealt almost squared on 6O in the darker frame, was passed over)
                # (it lies as the darker frame shows the table: the frame that asked held the card under it)
                got.detail = tone_map(dark, look.detail)
                self.pile.settled.append(got)
                return again + [e for e in events if e.kind == COUNTED]
            if read_under:
                return again
            back_to(self.pile, saved)
            self.still_again = still
        return events  # (kept unless the card under it is named, or shown: an ask there is no better)

    def _card_came_between(self, normal: np.ndarray, dark: np.ndarray) -> bool:
        """Whether a card came between the frame that asked for a darker frame and the darker
        frame (detail copies): :func:`_card_between`, at the pile's card size."""
        return _card_between(normal, dark, long_px=self.pile.long_px(dark), sizes=self.pile.sizes())

    def _moved_on(self, normal: np.ndarray, reference: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the frame that asked for a darker frame (``normal``, detail) held another card than
        the one the darker frame named at ``quad``: the outline found there against the table before
        (``reference``), with new sides, lies elsewhere. A brisk dealer's next card may lie in the darker
        frame over one whose print and outline barely differ there, so :meth:`_card_came_between` missed it."""
        found = self.pile.find(normal, compare(reference, normal, floor=CHANGE_LEVEL), self.pile.long_px(normal))
        return bool(found) and found[0].new >= NOT_NEW and iou(found[0].quad, quad) < MOVED_ON

    def _under_first(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, saved: Kept,
                     otherwise: list[DealEvent], *, confirm: bool = False) -> list[DealEvent]:
        """The darker look's answer, ``otherwise`` (``saved``: the pile before that look), when a brisk
        dealer's next card may have come between the frame that asked and the darker one, over a card
        that lay alone in the frame that asked: that card is read there, then the new one in the darker
        frame against it (:meth:`_came_between`; ``confirm``, as there). Only when the card under is
        counted there, and nothing is asked nor "ja comptada", does that reading stand; else
        ``otherwise`` does. For two new cards' outlines in the darker frame ("two cards": the next card
        in the air over the pile is read when it lands); and for no outline, its ask held (the next card
        landed squared on the one looked for: their sides barely differ, so no outline apart is found by
        :meth:`_card_came_between`, and the card in the frame that asked, covered, no longer lies there
        still: 79005's 3E, 12B on it; the ask made next, about 12B, passed over 3E in silence)."""
        after, still, unconfirmed = kept(self.pile), self.still_again, self.unconfirmed
        back_to(self.pile, saved)
        again = self._came_between(look, image, dark, confirm=confirm, counted_only=True)
        if any(e.earlier and e.kind == COUNTED for e in again) \
                and not any(e.kind in (ALREADY,) + ASK_KINDS for e in again):
            return again
        back_to(self.pile, after)
        self.still_again, self.unconfirmed = still, unconfirmed
        return otherwise

    def _shown_under(self, look: HeldLook, got: Settled) -> bool:
        """Whether the frame that asked showed another card where the darker frame's card is
        counted (``got``): the classifier, sure, names a card there that is neither it nor one
        on the pile. A brisk dealer's next card may land squarely on the one the look asked
        about, under the reflection (paper over paper, white on white: no change, no outline
        apart), between the two frames; only its print tells the two apart."""
        naming = self.pile.model.named_at(look.frame, got.where, look.detail)
        return naming.card is not None and naming.card != got.card and naming.card not in self.pile.cards

    def _spoiled(self, look: HeldLook, before: Settled) -> list[DealEvent]:
        """The next hand came over the pile in the darker frame (a brisk dealer's next card in
        the air there) and the darker look saw nothing: the frame that asked is read as with no
        darker frame. When that settles nothing yet a card came there unread since a hand last
        moved (the pile's state is older than that hand: read in an earlier still spell)
        (:func:`vision.deck.backstop.came_unread`), under the reflection, that the next one will
        cover: it is asked to be moved (never passed over in silence)."""
        events = [replace(e, earlier=True) for e in self._judged_now(look.frame, look.detail)]
        if self.pile.settled[-1] is not before or before is not self.hand_on \
                or not came_unread(self.pile, look.detail, look.frame):
            return events
        self.still_again = True
        return [replace(e, earlier=True) for e in self.pile.unnamed(look.detail, None, None, None, glare=True)]

    def _came_between(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, *, shown: bool = False,
                      confirm: bool = False, counted_only: bool = False) -> list[DealEvent]:
        """The next card already lies in the darker frame (a brisk dealer, no frame in flight):
        the card under it is read in the frame that asked, at the normal exposure, and asked
        about when it cannot be named there (never passed over in silence); then the new card
        in the darker frame, against it. ``shown``: the frame that asked showed another card
        where the new one lies (:meth:`_shown_under`): one came, whatever the edges say. ``confirm``:
        the new card, counted, is said only once the next frame shows it lying there
        (:class:`Unconfirmed`; the pile goes back to the card under it meanwhile). ``counted_only``: the
        caller keeps the reading only with the card under counted (:meth:`_under_first`): without it, the
        darker frame is not read."""
        top = self.pile.settled[-1]
        under = self._judged_now(look.frame, look.detail)
        if self.pile.settled[-1] is top and not any(e.kind == HAND for e in under) \
                and (shown or came_unread(self.pile, look.detail)):
            # (only a card that came since the pile's last state and was not read: with none,
            # the card under the new one is the last one read, counted or asked about already)
            if not shown and self.pile.last_on_top(look.frame, look.detail):
                # (the last card read lies on top there, uncovered: the new edges were no card
                # (a lingering hand, the light); the table as the frame that asked shows it is the
                # pile's last state, the new card read against it, not against an older picture
                # of it the reflection has moved over since)
                top.detail, top.darker = look.detail, None
            else:
                under += self.pile.unnamed(look.detail, None, None, None, glare=False)
        under = [replace(e, earlier=True) for e in under]
        if any(e.kind == HAND for e in under):
            return under  # (a hand over the pile in the frame that asked: the new card may still be in it; read once it is still)
        if counted_only and not any(e.kind == COUNTED for e in under):
            return under  # (the reading is kept only with the card under counted: the darker frame is not read)
        saved = kept(self.pile)
        new = self._judged(image, look.detail, dark)  # (not named again in the frame that asked: it shows the card under)
        if any(e.kind in (COUNTED, ALREADY) + ASK_KINDS for e in new):  # (the table as it lies now, normal exposure)
            self.pile.settled[-1].detail = tone_map(dark, look.detail)
        if confirm and new and all(e.kind == COUNTED for e in new) and self.pile.settled[-1].where is not None \
                and len(self.pile.settled) - len(saved.settled) in (0, 1):
            popped = len(self.pile.settled) == len(saved.settled)  # (it replaced a card asked about)
            self.unconfirmed = Unconfirmed(self.pile.settled[-1], saved.settled[-1], popped, new, dark)
            back_to(self.pile, saved)
            return under
        return under + new


@recent(2)  # (a look done again, the stale darker frame set aside (:mod:`vision.deck.tracker`), asks it again)
def _card_between(normal: np.ndarray, dark: np.ndarray, *, long_px: float, sizes: tuple[float, ...]) -> bool:
    """Whether a card came between the frame that asked for a darker frame and the darker frame
    (detail copies): a card's outline (``long_px`` long, ``sizes`` tried) with new sides where the
    two differ, exposures matched, the next hand come in at the view's edge left out. A brisk
    dealer's next card may already lie there; the darker look would name it and pass over the
    one under it."""
    got = compare(tone_map(normal, dark), dark, floor=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
    arrived = came_in(normal, dark, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
    mask = cv2.bitwise_and(got.mask, cv2.bitwise_not(arrived))
    if cv2.countNonZero(mask) < MIN_CHANGE * long_px * long_px / CARD_ASPECT:
        return False
    found = find_outlines(dark, got.reference, mask, long_px, level=got.edge, aspect=CARD_ASPECT, sizes=sizes)
    return bool(found) and found[0].new >= NOT_NEW
