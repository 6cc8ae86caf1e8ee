"""The tracker's looks at a darker frame (:mod:`vision.deck.tracker`, :mod:`vision.deck.darker`).

Under the lamp's reflection a look asks for one darker frame, taken right after the frame that
asked. What the darker frame shows is read here: the first card on a table never seen bare
(:mod:`vision.deck.first`); a brisk dealer's next card already lying there (the card under it
read in the frame that asked, events marked ``earlier``); a darker frame the next hand spoiled
(the frame that asked read as with no darker frame); else the look's decision
(:meth:`vision.deck.pile.Pile.judge`) in the darker frame, the frame that asked beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.deck.backstop import came_unread
from vision.deck.darker import tone_map
from vision.deck.events import ALREADY, ASK_KINDS, COUNTED, HAND, DealEvent
from vision.deck.first import first_card, unseen_first
from vision.deck.pile import Pile, Settled


@dataclass(frozen=True)
class HeldLook:
    """A look waiting for its darker frame: the frame that asked, its detail and motion copies."""
    frame: np.ndarray
    detail: np.ndarray
    small: np.ndarray
    mat: bool  # the empty mat: the darker frame is only kept as the reference


class DarkerLook:
    """One look at a darker frame, for :class:`vision.deck.tracker.DealTracker`. It owns none
    of the tracker's state: it decides on the ``pile`` it is given (:meth:`Pile.judge`), knows
    whether dealing began before the table lay still (``dealt``) and the pile's state when a
    hand last moved (``hand_on``), and says afterwards whether the tracker's still spell must
    start again (``still_again``: a hand was seen, or a card asked to be moved)."""

    def __init__(self, pile: Pile, *, dealt: bool, hand_on: Settled | None) -> None:
        self.pile, self.dealt, self.hand_on = pile, dealt, hand_on
        self.still_again = False

    def _judged(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
                change=None, normal: np.ndarray | None = None) -> list[DealEvent]:
        events = self.pile.judge(frame, detail, dark, change, normal)
        if any(e.kind == HAND for e in events):
            self.still_again = True
        return events

    def look(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, came: bool) -> list[DealEvent]:
        """The look at the darker frame (``came``: the next hand came over the pile in it)."""
        if look.mat:
            self.pile.settled[0].darker = dark
            # (dealing started at once under the reflection: the first card, not named in the
            # frame that asked, may be named in the darker one; never taken for the table)
            first = first_card(self.pile, look.frame, look.detail, dealt=self.dealt, darker=image, dark=dark)
            if first or self.pile.unsteady or not self.dealt:
                return first
            return unseen_first(self.pile, look.detail, dark)  # (dealing started: never the table in silence)
        if self.pile.came_between(look.detail, dark):
            return self._came_between(look, image, dark)
        before = self.pile.settled[-1]
        events = self._judged(image, look.detail, dark, normal=look.frame)
        if not events and self.pile.settled[-1] is before and came:
            return self._spoiled(look, before)
        got = self.pile.settled[-1]
        if not (any(e.kind == COUNTED for e in events) and len(self.pile.settled) >= 2 and self.pile.settled[-2] is before
                and before.detail is not None and got.where is not None):
            return events
        shown = self._shown_under(look, got)
        if shown or self.pile.moved_on(look.detail, before.detail, got.where):
            saved, uncertain, still = list(self.pile.settled), self.pile.uncertain, self.still_again
            self.pile.settled.pop()  # (the card under it, in the frame that asked, is read first)
            again = self._came_between(look, image, dark, shown=shown)
            if shown and any(e.earlier and e.kind in (COUNTED,) + ASK_KINDS for e in again) \
                    and not any(not e.earlier and e.kind in (COUNTED, ALREADY) + ASK_KINDS for e in again):
                # (against the card under it the new one may not show, white on white: it is the
                # card the darker frame named against the pile before, as it was counted first)
                self.pile.settled.append(got)
                return again + [e for e in events if e.kind == COUNTED]
            if any(e.earlier and (e.kind == COUNTED or (shown and e.kind in ASK_KINDS)) for e in again):
                return again
            self.pile.settled[:], self.pile.uncertain, self.still_again = saved, uncertain, still
        return events  # (kept unless the card under it is named, or shown: an ask there is no better)

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
        events = [replace(e, earlier=True) for e in self._judged(look.frame, look.detail, None)]
        if self.pile.settled[-1] is not before or before is not self.hand_on \
                or not came_unread(self.pile, look.detail, look.frame):
            return events
        self.still_again = True
        return [replace(e, earlier=True) for e in self.pile.unnamed(look.detail, None, None, None, glare=True)]

    def _came_between(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, *, shown: bool = False
                      ) -> list[DealEvent]:
        """The next card already lies in the darker frame (a brisk dealer, no frame in flight):
        the card under it is read in the frame that asked, at the normal exposure, and asked
        about when it cannot be named there (never passed over in silence); then the new card
        in the darker frame, against it. ``shown``: the frame that asked showed another card
        where the new one lies (:meth:`_shown_under`): one came, whatever the edges say."""
        top = self.pile.settled[-1]
        under = self._judged(look.frame, look.detail, None)
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
        new = self._judged(image, look.detail, dark)  # (not named again in the frame that asked: it shows the card under)
        if any(e.kind in (COUNTED, ALREADY) + ASK_KINDS for e in new):  # (the table as it lies now, normal exposure)
            self.pile.settled[-1].detail = tone_map(dark, look.detail)
        return under + new
