"""Deal-through reading: the player turns the pile's cards face up one at a time.

Each frame is shrunk to ``motion_width`` and compared with the previous one: is anything
moving (:mod:`vision.deck.motion`)? Only when nothing has moved for ``still_frames`` frames
is the table looked at, once per still spell (once the pile is known, movement with no hand
in view, nothing moving reaching the view's edge, is the light: the table is looked at all
the same, a frame later), at ``detail_width`` against the last settled
frame; what lies on top is then decided by :class:`vision.deck.pile.Pile` (the card's
outline found, then named; or asked about).

The first settled frame is the table under the pile, unless a whole card's outline that
names a learnt card is already there (dealing started at once): that card is read first.
Under the lamp's reflection (``darker_scale`` set) the look asks for one darker frame first
(a :data:`DARKER` event; the caller answers with :meth:`feed_darker`): :mod:`vision.deck.darker`.
When a brisk dealer's next card already lies in the darker frame, the card under it is read
in the frame that asked (events marked ``earlier``), the new one in the darker frame
(seen as a card's outline with new sides between the two frames, or as the card the darker
frame named lying elsewhere than the one found in the frame that asked: :meth:`vision.deck.darklook.DarkerLook._moved_on`).
The table going back to how it was before the last card means that card was lifted off
again; :meth:`DealTracker.take_back` ("Treu l'última") forgets it by hand. When the table
presses done ("Fet"), :meth:`DealTracker.finish` looks at the latest frame once more (a last
card the dealer's hand lingered by, with no still spell to look at it in).

Example::

    tracker = DealTracker(model)
    for frame in frames:
        for event in tracker.feed(frame):
            print(event.kind, event.card)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from kiosk.game import Card, pile_points
from vision.deck.again import back_to, kept, owed
from vision.deck.backstop import Backstop, unsaid
from vision.deck.darker import DarkerRequest, glare_near, hand_came_over, reflection_in_view
from vision.deck.darklook import DarkerLook, HeldLook, Unconfirmed
from vision.deck.events import (  # noqa: F401  (the events are the tracker's API)
    ALREADY, ASK_KINDS, COUNTED, DARKER, GLARE, HAND, SHOW_AGAIN, TAKEN_BACK, TWO_CARDS, UNDER, DealEvent, Tally)
from vision.deck.exposure import Change, compare
from vision.deck.first import EARLY, FIRST_EDGE, first_card, first_level, under_first, unseen_first
from vision.deck.locate import CARD_ASPECT, shrunk
from vision.deck.model import DeckModel
from vision.deck.motion import (
    APART, LINGER, RESTING, RESTING_APART, counts, landed_veiled, movement, moving_mask, veiled_least)
from vision.deck.peek import Peek
from vision.deck.pile import CHANGE_LEVEL, DARKER_CHANGE_LEVEL, DARKER_MIN_PIXELS, MIN_CHANGE, Pile
from vision.deck.states import Settled
from vision.deck.scale import MatSearch, TableScale

MOTION_CARD = 0.04  # of a card's area moving (motion size) is movement, if less than motion_share of the view
LIGHT_CARD = 0.5  # of a card's area moving (motion size) before the table is known: not the light


@dataclass
class DealTracker:
    """The deal-through state machine over a stream of BGR frames (any resolution).

    ``still_frames``: frames without movement before the table is looked at (2 at 10 fps
    is 0.2 s: a player dealing briskly leaves a card alone for as little as 0.35 s before
    the next hand comes). ``motion_share``: share of pixels changing between frames that counts as
    movement. ``darker_scale``: None, no darker frame can be had (as from a USB camera: a
    card under a reflection is asked to be moved); else the exposure share to ask for.
    """

    model: DeckModel
    still_frames: int = 2
    motion_share: float = 0.002
    motion_width: int = 320
    detail_width: int = 960
    darker_scale: float | None = None
    darker_frames: int = 0  # darker frames looked at
    _pile: Pile = field(init=False)  # the table's settled states, and the look's decision
    _previous: np.ndarray | None = None
    _prior: np.ndarray | None = None  # the frame before (as fed)
    _dealt: bool = False  # a hand moved in view before the table under the pile first lay still
    _early: list = field(default_factory=list)  # the latest frames read then (:func:`vision.deck.first.under_first`)
    _still: int = 0
    _wanted: DarkerRequest | None = None
    _held: HeldLook | None = None
    _looked: np.ndarray | None = None  # the motion-size frame last looked at
    _lit: bool = False  # this still spell had movement with no hand in view (light)
    _at_edge: bool = False  # something moved at the view's edge a frame before (a hand resting there)
    _veiled: bool = False  # since the last look, a card may have landed where the reflection washes the top out
    _veiled_now: bool = False  # ... between the frame before and this one
    _backstop: Backstop = field(default_factory=Backstop)  # a card never passed over in silence
    _stale: np.ndarray | None = None  # the last darker frame, when the next hand came into it
    _hand_on: Settled | None = None  # the pile's state when a hand last moved in view
    _peek: Peek = field(init=False)  # the frames read without a look (a card covered unread: "two cards")
    _mat: MatSearch = field(init=False)  # when to search for the mat's markers
    _unconfirmed: Unconfirmed | None = None  # a card a darker frame alone showed, said once the next frame shows it lying

    def __post_init__(self) -> None:
        self._pile = Pile(self.model)
        self._peek = Peek(self.detail_width)
        self._mat = MatSearch(self.detail_width)
        TableScale.prepare()  # the marker detector is built now, not in the first still frame

    @property
    def cards(self) -> list[Card]:
        return self._pile.cards

    @property
    def uncertain(self) -> int:
        """Cards asked about so far."""
        return self._pile.uncertain

    @property
    def tally(self) -> Tally:
        cards = tuple(self.cards)
        points, tricks = pile_points(list(cards))
        return Tally(cards, points, tricks)

    def take_back(self, card: Card | None = None) -> Card | None:
        """Forget the last card counted ("Treu l'última"): the table is to look as before it was dealt.
        With ``card``, only if that is the card on top (the kiosk asks from another thread:
        the reader may have seen it lifted off meanwhile, and the card under it stays)."""
        if len(self._pile.settled) < 2 or self._pile.settled[-2].detail is None:
            return None
        if card is not None and self._pile.settled[-1].card != card:
            return None
        last = self._pile.settled.pop()
        self._unconfirmed = None  # (a card not yet said is not the one taken back: it is read again when it lies)
        # (the still spell goes on: a card taken back while it still lies is not looked at, and
        # counted again, until something moves; the player lifting it off is such a movement)
        self._wanted = self._held = None  # a look waiting for its darker frame saw the card taken back
        return last.card

    def feed(self, frame: np.ndarray) -> list[DealEvent]:
        """Take the next frame (BGR); return what happened (usually nothing). A
        :data:`DARKER` event asks for a darker frame (:meth:`feed_darker`); left unanswered,
        the look goes on without one when the next frame comes."""
        events = self.feed_darker(self._wanted, None) if self._wanted is not None else []
        return events + self._confirmed(frame) + self._feed(frame)

    def _confirmed(self, frame: np.ndarray | None) -> list[DealEvent]:
        """The card a darker frame alone showed (:class:`vision.deck.darklook.Unconfirmed`), said now
        when ``frame``, the next one, shows it lying where it lay (None: "Fet", no frame is to come);
        else forgotten: it was still in the air, and is read once it lies still."""
        u, self._unconfirmed = self._unconfirmed, None
        if u is None:
            return []
        if (frame is not None and not u.confirmed(shrunk(frame, self.detail_width, 3))) or not u.laid(self._pile):
            self._still = 0
            return []
        return owed(self._pile, self._peek.checked(self._pile, u.events))

    def finish(self) -> list[DealEvent]:
        """Dealing is declared done ("Fet"): the latest frame fed is looked at once more, as if
        it lay still, with no darker frame (a card under the reflection is asked to be moved).
        The last card may lie only a few frames while the dealer's hand lingers by the pile,
        so no still spell came to look at it; it is named, or asked about, now."""
        events = self.feed_darker(self._wanted, None) if self._wanted is not None else []
        events += self._confirmed(None)
        if self._prior is None or not self._pile.settled or self._pile.settled[-1].detail is None:
            return events  # (the table under the pile never lay still: nothing to read it against)
        events = owed(self._pile, events + self._last_look(), end=True)
        if any(e.kind in (COUNTED, ALREADY) + ASK_KINDS for e in events):
            return events
        return events + self._backstopped(self._backstop.end(self._prior, self._pile.settled[-1]))

    def _last_look(self) -> list[DealEvent]:
        """"Fet"'s look at the latest frame (:meth:`finish`)."""
        pile = self._pile.last_where
        small = shrunk(self._prior, self.motion_width, 5)
        if self._looked is not None and not self._pile.unsteady and not self._came_since_look(small, pile):
            return []  # (looked at already, nothing came since: a card taken back by hand stays forgotten)
        self._looked = small
        detail = shrunk(self._prior, self.detail_width, 3)
        change = compare(self._pile.settled[-1].detail, detail, floor=CHANGE_LEVEL)
        long_px = self._pile.long_px(detail)
        if cv2.countNonZero(change.mask) < MIN_CHANGE * long_px * long_px / CARD_ASPECT:
            return []
        found = self._pile.find(detail, change, long_px)
        if not found:
            return []  # (only a card's outline is read now: a lingering hand's twitch is no card)
        self._pile.before = None  # (no frame after it: what lies there now is what was dealt)
        self._pile.unsteady = self._pile.restless = False
        self._still = 0
        return self._judged(self._prior, detail, None, change)

    def feed_darker(self, request: DarkerRequest, image: np.ndarray | None) -> list[DealEvent]:
        """The answer to a :data:`DARKER` event: ``image`` is the table at
        ``request.exposure_scale`` of the exposure, taken right after the frame that asked
        (the same size), or None when none could be had. Returns what the look found."""
        return owed(self._pile, self._peek.checked(self._pile, self._answer_darker(request, image)))

    def _answer_darker(self, request: DarkerRequest, image: np.ndarray | None) -> list[DealEvent]:
        if request is None or request is not self._wanted or self._held is None:
            return []
        look, self._wanted, self._held = self._held, None, None
        if image is None or image.shape != look.frame.shape:
            return [] if look.mat else self._judged(look.frame, look.detail, None)
        self.darker_frames += 1
        dark = shrunk(image, self.detail_width, 3)
        before = self._pile.settled[-1]
        area = self._pile.long_px(dark) ** 2 / CARD_ASPECT
        came = hand_came_over(look.detail, dark, before.where, area, level=DARKER_CHANGE_LEVEL,
                              min_pixels=DARKER_MIN_PIXELS)
        # (a hand come in anywhere, over the pile (``came``) or not yet, makes the darker frame kept as
        # the table's state stale; asked now, of the same pieces come in)
        entered = hand_came_over(look.detail, dark, None, area, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
        was = kept(self._pile)
        held = was.held  # (the ask held before this look)
        events = self._darker_look(look, image, dark, came)
        if look.mat:
            events = under_first(self._pile, self._early, events)
        stale = before.darker is not None and before.darker is self._stale
        self._stale = dark if entered else self._stale  # (stale as long as it is the table's state)
        if stale and not any(e.kind in (COUNTED, ALREADY) for e in events) \
                and (events or not self._pile.unsteady or self._pile.held is not held):
            # (the last darker frame held the next hand, maybe its card in the air: a hand there
            # "gone" is no hand now, and a card may show no change against it, or no new sides; the
            # table is compared with the frame that asked instead; not when the look waits a frame
            # anyway, unless only for an ask it held back: a card it saw no outline of)
            after, darker, unconfirmed = kept(self._pile), before.darker, self._unconfirmed
            back_to(self._pile, was)
            before.darker = None
            again = self._darker_look(look, image, dark, came)
            # (it stands when it counts a card; or, where the first said only "a hand is there", when it
            # says anything else, reads the pile anew, or holds an ask about a card it saw come)
            hand_only = all(e.kind == HAND for e in events) and after.settled[-1] is before
            if any(e.kind in (COUNTED, ALREADY) for e in again) or hand_only and (
                    any(e.kind != HAND for e in again) or self._pile.settled[-1] is not before
                    or (self._pile.held is not held and self._pile.held is not after.held)):
                return again
            back_to(self._pile, after)
            before.darker, self._unconfirmed = darker, unconfirmed
        return events

    def _darker_look(self, look: HeldLook, image: np.ndarray, dark: np.ndarray, came: bool) -> list[DealEvent]:
        seen = DarkerLook(self._pile, dealt=self._dealt, hand_on=self._hand_on)
        events = seen.look(look, image, dark, came)
        self._unconfirmed = seen.unconfirmed
        if seen.still_again:
            self._still = 0
        return events

    def _ask_darker(self, frame: np.ndarray, detail: np.ndarray, small: np.ndarray, *, mat: bool,
                    level: float = FIRST_EDGE) -> list[DealEvent]:
        self._wanted = DarkerRequest(self._pile.frame, float(self.darker_scale))
        self._held = HeldLook(frame, detail, small, mat, level)
        return [DealEvent(DARKER, frame_number=self._pile.frame, darker=self._wanted)]

    def _feed(self, frame: np.ndarray) -> list[DealEvent]:
        pile = self._pile.last_where
        events = owed(self._pile, self._peek.checked(self._pile, self._read(frame, pile)))
        top = self._pile.settled[-1] if self._pile.settled else None
        due = self._backstop.hand(apart=self._pile.restless) if any(e.kind == HAND for e in events) else \
            self._backstop.step(frame, self._still == 0, top, self.still_frames)
        if due is None or events or top is None or self._wanted is not None:
            return events  # (:mod:`vision.deck.backstop`: a card that came is never passed over in silence)
        return self._backstopped(due)

    def _backstopped(self, due: tuple | None) -> list[DealEvent]:
        """The backstop's check (:mod:`vision.deck.backstop`): the card asked about when the pile's
        region gained new edges since before the movement and nothing was said."""
        if due is None:
            return []
        pile = self._pile.last_where
        before, after = (shrunk(f, self.detail_width, 3) for f in due)
        if not unsaid(before, after, pile, self._pile.long_px(after)) or self._pile.last_on_top(due[1], after):
            return []  # (a hand passed, the light changed: not new; the last card still on top, uncovered)
        asked = self._pile.unnamed(after, None, None, None, glare=False)
        self._backstop.said(self._pile.settled[-1])
        return asked

    def _read(self, frame: np.ndarray, pile: np.ndarray | None) -> list[DealEvent]:
        self._pile.frame += 1
        small = shrunk(frame, self.motion_width, 5)
        before, self._prior = self._prior, frame
        if self._previous is None:
            self._previous = small
            return []
        moving = moving_mask(self._previous, small)  # (:mod:`vision.deck.motion`: what movement is)
        k, long_, least = self._motion_scale(small)
        linger, apart = (RESTING, RESTING_APART) if self._at_edge else (LINGER, APART)  # (a hand resting there, or just come)
        count, hand, edge = movement(moving, None if pile is None else pile * k, long_, linger=linger, apart=apart)
        # (:func:`vision.deck.motion.landed_veiled`: a card dealt onto one the reflection washes out)
        veiled = not hand and count <= least and pile is not None and landed_veiled(self._previous, small, pile * k, long_, least)
        landing = veiled and not self._veiled_now  # (looked at a frame later, once it lies: not while it lands)
        self._previous, self._veiled_now = small, veiled
        self._veiled = self._veiled or veiled
        self._at_edge = edge
        # (half a card's worth of movement is a card in the air or landing, held by a hand whose
        # plain sleeve shows no movement at the view's edge: not the light; the table under the
        # pile is taken from frames that agree but for the light, nothing moving at the edge)
        hand = hand or count > LIGHT_CARD * long_ * long_ / CARD_ASPECT or (edge and not self._pile.settled)
        if count > least:
            # (movement with no hand in it, nothing of it reaching the view's edge, is the lamp's
            # reflection swaying or a card landing on its own: the table is looked at all the
            # same, a frame later, and a card is counted only where it also lay a frame before:
            # one leaving the hand may still be in the air)
            if hand:
                self._still, self._lit = 0, False
                self._hand_on = self._pile.settled[-1] if self._pile.settled else None
                self._dealt = self._dealt or (count > 0 and not self._pile.settled)  # (before the table lay still)
                if self._pile.settled:
                    self._peek.keep(self._pile.settled[-1], frame)
                else:
                    self._early = (self._early + [frame])[-EARLY:]  # (kept, nothing computed)
                return []
            self._lit = True
        elif edge and self._pile.settled:
            self._lit = True  # (a hand lingering apart from the pile moved: a card is counted where it lay a frame before)
        self._still += 1
        # The empty mat is taken as soon as two frames agree: a player may start dealing
        # the moment the screen opens, before a card's 0.3 s of stillness has passed.
        first = 1 if not self._pile.settled else self.still_frames
        if self._still < first or (self._still > first and not self._pile.settled and not self._pile.unsteady):
            if self._pile.settled:  # (no look: a card may lie there all the same, :mod:`vision.deck.peek`)
                self._peek.keep(self._pile.settled[-1], frame, still=True)
            return []
        if self._still > first and not self._pile.unsteady and (
                landing or not self._came_since_look(small, pile, veiled=self._veiled)):
            self._find_mat(frame)  # (a still frame with nothing to look at: the time for the marker search)
            return []  # looked at in this still spell, and nothing came since (or it lands now: looked at once it lies)
        self._looked, self._veiled = small, False  # (a card dealt with no movement seen, under the reflection: looked at again)
        detail = shrunk(frame, self.detail_width, 3)
        # in a spell the light moved in, the frame before this one: a card is counted only
        # where it lay then too (:meth:`Pile.name`; else looked at again in the next frame)
        self._pile.before = shrunk(before, self.detail_width, 3) if self._lit and before is not None else None
        self._pile.unsteady, self._pile.restless = False, edge and not hand
        if not self._pile.settled:  # (the mat's markers, first looked for in the first settled frame)
            self._find_mat(frame, now=True)
        self._mat.looked()
        if not self._pile.settled:  # the empty mat, once it first lies still: what is new is dealt
            self._pile.settled.append(Settled(detail))
            level = first_level(None if before is None else shrunk(before, self.detail_width, 3), detail)
            first = first_card(self._pile, frame, detail, dealt=self._dealt, level=level)
            if first:
                return under_first(self._pile, self._early, first)
            if self._pile.unsteady:  # (a card in the air over the table: the table is taken later)
                self._pile.settled.clear()
                return []
            if reflection_in_view(detail):
                if self.darker_scale:  # the reflection is in view: the first card under it is found against this
                    return self._ask_darker(frame, detail, small, mat=True, level=level)
                if self._dealt:  # (dealing started, no darker frame to be had: the card may lie under it)
                    return unseen_first(self._pile, detail, None)
            return []
        return self._look(frame, detail, small)

    def _motion_scale(self, small: np.ndarray) -> tuple[float, float, float]:
        """Motion size against detail size, a card's long side and the least movement that
        counts (motion px): a card's worth, as a card dealt with no frame in flight, under the
        lamp's reflection, changes little more than its index at a far camera."""
        k = small.shape[1] / self.detail_width
        long_ = (self._pile.card_long or (self.model.card_long_frac or 0.2) * self.detail_width) * k
        return k, long_, min(self.motion_share * small.shape[0] * small.shape[1], MOTION_CARD * long_ * long_ / CARD_ASPECT)

    def _came_since_look(self, small: np.ndarray, pile: np.ndarray | None, *, veiled: bool = False) -> bool:
        """Whether something changed near the pile since the frame last looked at (motion size).
        ``veiled``: a card may have landed since where the reflection washes the top out
        (:func:`vision.deck.motion.landed_veiled`): there a change of its few px of outline, lasting, is enough (a
        reflection's rim flickering with the exposure moves as much between two frames, and back)."""
        if self._looked is None:
            return False
        k, long_, least = self._motion_scale(small)
        if veiled:
            least = min(least, veiled_least(long_))
        return counts(moving_mask(self._looked, small, glare_is_light=False), None if pile is None else pile * k,
                      long_) > least

    def _find_mat(self, frame: np.ndarray, *, now: bool = False) -> None:
        """The mat's markers, searched when it is time (:class:`MatSearch`) until they are found."""
        if self._pile.scale is None:
            self._pile.scale = self._mat.search(frame, now=now)

    def _look(self, frame: np.ndarray, detail: np.ndarray, small: np.ndarray) -> list[DealEvent]:
        change = compare(self._pile.settled[-1].detail, detail, floor=CHANGE_LEVEL)
        area = self._pile.long_px(detail) ** 2 / CARD_ASPECT
        pts = cv2.findNonZero(change.mask)
        if pts is None or len(pts) < MIN_CHANGE * area:
            self._peek.bare(self._pile.settled[-1])  # (the table as the pile's last state: what came before is gone)
        if pts is not None and len(pts) >= MIN_CHANGE * area:
            x, y, w, h = cv2.boundingRect(pts)
            near = [np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])]
        else:  # (a card washed out like the one it lies on may change nothing at all here)
            near = [q for q in (self._pile.settled[-1].where,) if q is not None]
        if self.darker_scale and glare_near(detail, near, area):
            return self._ask_darker(frame, detail, small, mat=False)
        if pts is None or len(pts) < MIN_CHANGE * area:
            return []
        return self._judged(frame, detail, None, change)

    def _judged(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
                change: Change | None = None, normal: np.ndarray | None = None) -> list[DealEvent]:
        """The look's decision (:meth:`Pile.judge`); a hand there: looked at again once it keeps still."""
        events = self._pile.judge(frame, detail, dark, change, normal)
        if any(e.kind == HAND for e in events):
            self._still = 0
        return events
