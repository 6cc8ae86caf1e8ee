"""Deal-through reading: the player turns the pile's cards face up one at a time.

Each frame is shrunk to ``motion_width`` and compared with the previous one: is anything
moving (:mod:`vision.deck.motion`)? Only when nothing has moved for ``still_frames`` frames
is the table looked at, once per still spell, at ``detail_width`` against the last settled
frame. What changed (exposures matched, above the frames' own noise:
:mod:`vision.deck.exposure`) only says that something happened and where; what is on top
there is FOUND by its outline (:mod:`vision.deck.outline`), a card-sized rectangle whose
four sides are edges, and new ones:

- no change, or no card's outline in it (a shadow, the lamp's reflection, the light): nothing;
- the card found where the last one lay, its sides not new: that card looked at again,
  nothing said (unless its print names another card squared on it);
- a hand (a change from the frame's edge) over the card found: no read until it leaves;
- a second new card's outline apart from the first: ask to deal them one at a time;
- one card: warped flat from the full-resolution frame and named; a reflection on it asks
  to move it; a low margin asks to show it again; a card counted already: "ja comptada".

The first settled frame is the table under the pile, unless a whole card's outline that
names a learnt card is already there (dealing started at once): that card is read first.
Under the lamp's reflection (``darker_scale`` set) the look asks for one darker frame first
(a :data:`DARKER` event; the caller answers with :meth:`feed_darker`): :mod:`vision.deck.darker`.
The table going back to how it was before the last card means that card was lifted off
again; :meth:`DealTracker.take_back` ("Treu l'última") forgets it by hand.

Example::

    tracker = DealTracker(model)
    for frame in frames:
        for event in tracker.feed(frame):
            print(event.kind, event.card)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from kiosk.game import Card, pile_points
from vision.deck.backstop import Backstop, unsaid
from vision.deck.darker import DarkerRequest, came_in, glare_near, reflection_in_view, tone_map
from vision.deck.events import (  # noqa: F401  (the events are the tracker's API)
    ALREADY, ASK_KINDS, COUNTED, DARKER, GLARE, HAND, SHOW_AGAIN, TAKEN_BACK, TWO_CARDS, DealEvent, Tally)
from vision.deck.exposure import Change, compare
from vision.deck.motion import counts, hand_over, moving_mask
from vision.deck.locate import CARD_ASPECT, shrunk
from vision.deck.model import DeckModel, Naming
from vision.deck.outline import Outline, card_in_view, find_outlines, iou, new_edge_share, second_card
from vision.deck.scale import TableScale
from vision.deck.views import views_around

MOTION_CARD = 0.04  # of a card's area moving (motion size) is movement, if less than motion_share of the view
KEEP_DETAIL = 4  # settled frames kept at detail size (older ones are only for "lifted off")
CHANGE_LEVEL = 18  # least change between two settled frames, in levels of the brightest channel
DARKER_CHANGE_LEVEL = 12  # the same between darker frames: the print's contrast shrinks with the exposure
DARKER_MIN_PIXELS = 16  # detail px: a darker frame's noise makes specks
MIN_CHANGE = 0.05  # of a card's area: less changed is nothing (specks, a flicker)
NOT_NEW = 0.25  # of the outline on new edges: less, and the card found is the one that lay there
SAME_PLACE = 0.75  # overlap with the last card's outline: it lies where that card lay
SAME_CARD = 0.88  # ... so much that it is that card whatever changed (a darker frame shows edges anew)
PRINT_CHANGED = 0.08  # of the card's area changed inside an outline that is not new: maybe another card
LIFTED = 0.15  # of a card's area changed since the table before the last card: it was lifted off
FIRST_EDGE = 6.0  # an edge's least step per pixel in the first settled frame (no second frame to measure noise)
UNSEEN_CARD = 1.0  # card perimeters of new edges where no card's outline was found: a card came all the same
FIRST_SUPPORT = 0.8  # of a card's outline on edges, to be taken for a card already there


@dataclass
class _Settled:
    detail: np.ndarray | None
    card: Card | None = None
    pending: bool = False  # lies there unread (asked about): replaced by what comes next
    darker: np.ndarray | None = None  # the same table in the darker exposure (detail size), if one was taken
    where: np.ndarray | None = None  # the outline of what was dealt (detail px)


@dataclass(frozen=True)
class _Look:
    """A look waiting for its darker frame: the frame that asked, its detail and motion copies."""
    frame: np.ndarray
    detail: np.ndarray
    small: np.ndarray
    mat: bool  # the empty mat: the darker frame is only kept as the reference


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
    uncertain: int = 0
    darker_frames: int = 0  # darker frames looked at
    _settled: list[_Settled] = field(default_factory=list)
    _previous: np.ndarray | None = None
    _still: int = 0
    _frames: int = 0
    _card_long: float = 0.0  # without the mat: the cards' long side as read (detail px)
    _longs: list[float] = field(default_factory=list)
    _scale: TableScale | None = None  # the mat's millimetres in detail pixels
    _wanted: DarkerRequest | None = None
    _held: _Look | None = None
    _looked: np.ndarray | None = None  # the motion-size frame last looked at
    _backstop: Backstop = field(default_factory=Backstop)  # a card never passed over in silence

    def __post_init__(self) -> None:
        TableScale.prepare()  # the marker detector is built now, not in the first still frame

    @property
    def cards(self) -> list[Card]:
        return [s.card for s in self._settled if s.card is not None]

    @property
    def tally(self) -> Tally:
        cards = tuple(self.cards)
        points, tricks = pile_points(list(cards))
        return Tally(cards, points, tricks)

    def take_back(self) -> Card | None:
        """Forget the last card counted ("Treu l'última"): the table is to look as before it was dealt."""
        if len(self._settled) < 2 or self._settled[-2].detail is None:
            return None
        last = self._settled.pop()
        self._still = 0
        self._wanted = self._held = None  # a look waiting for its darker frame saw the card taken back
        return last.card

    def feed(self, frame: np.ndarray) -> list[DealEvent]:
        """Take the next frame (BGR); return what happened (usually nothing). A
        :data:`DARKER` event asks for a darker frame (:meth:`feed_darker`); left unanswered,
        the look goes on without one when the next frame comes."""
        events = self.feed_darker(self._wanted, None) if self._wanted is not None else []
        return events + self._feed(frame)

    def feed_darker(self, request: DarkerRequest, image: np.ndarray | None) -> list[DealEvent]:
        """The answer to a :data:`DARKER` event: ``image`` is the table at
        ``request.exposure_scale`` of the exposure, taken right after the frame that asked
        (the same size), or None when none could be had. Returns what the look found."""
        if request is None or request is not self._wanted or self._held is None:
            return []
        look, self._wanted, self._held = self._held, None, None
        if image is None or image.shape != look.frame.shape:
            return [] if look.mat else self._judge(look.frame, look.detail, None)
        self.darker_frames += 1
        dark = shrunk(image, self.detail_width, 3)
        if look.mat:
            self._settled[0].darker = dark
            return []
        return self._judge(image, look.detail, dark, normal=look.frame)

    def _ask_darker(self, frame: np.ndarray, detail: np.ndarray, small: np.ndarray, *, mat: bool) -> list[DealEvent]:
        self._wanted = DarkerRequest(self._frames, float(self.darker_scale))
        self._held = _Look(frame, detail, small, mat)
        return [DealEvent(DARKER, frame_number=self._frames, darker=self._wanted)]

    def _feed(self, frame: np.ndarray) -> list[DealEvent]:
        pile = next((s.where for s in reversed(self._settled) if s.where is not None), None)
        events = self._read(frame, pile)
        top = self._settled[-1] if self._settled else None
        due = self._backstop.hand() if any(e.kind == HAND for e in events) else \
            self._backstop.step(frame, self._still == 0, top, self.still_frames)
        if due is None or events or top is None or self._wanted is not None:
            return events  # (:mod:`vision.deck.backstop`: a card that came is never passed over in silence)
        before, after = (shrunk(f, self.detail_width, 3) for f in due)
        new = unsaid(before, after, pile, self._long_px(after))  # (a hand passed, the light changed: not new)
        return self._unnamed(after, None, None, None, glare=False) if new else events

    def _read(self, frame: np.ndarray, pile: np.ndarray | None) -> list[DealEvent]:
        self._frames += 1
        small = shrunk(frame, self.motion_width, 5)
        if self._previous is None:
            self._previous = small
            return []
        moving = moving_mask(self._previous, small)  # (:mod:`vision.deck.motion`: what movement is)
        self._previous = small
        k = small.shape[1] / self.detail_width
        long_ = (self._card_long or (self.model.card_long_frac or 0.2) * self.detail_width) * k
        # (a card's worth: a card dealt with no frame in flight, under the lamp's reflection,
        # changes little more than its index at a far camera)
        least = min(self.motion_share * moving.size, MOTION_CARD * long_ * long_ / CARD_ASPECT)
        if counts(moving, None if pile is None else pile * k, long_) > least:
            self._still = 0
            return []
        self._still += 1
        # The empty mat is taken as soon as two frames agree: a player may start dealing
        # the moment the screen opens, before a card's 0.3 s of stillness has passed.
        first = 1 if not self._settled else self.still_frames
        if self._still < first or (self._still > first and not self._settled):
            return []
        if self._still > first and (self._looked is None or counts(
                moving_mask(self._looked, small, glare_is_light=False), None if pile is None else pile * k, long_) <= least):
            return []  # looked at in this still spell, and nothing came since
        self._looked = small  # (a card dealt with no movement seen, under the reflection: looked at again)
        detail = shrunk(frame, self.detail_width, 3)
        if self._scale is None:  # (a mat out of view costs one marker search per still spell)
            sharp = cv2.resize(frame, detail.shape[1::-1], interpolation=cv2.INTER_AREA)
            self._scale = TableScale.find(sharp)
        if not self._settled:  # the empty mat, once it first lies still: what is new is dealt
            self._settled.append(_Settled(detail))
            first = self._first_card(frame, detail)
            if first:
                return first
            if self.darker_scale and reflection_in_view(detail):
                # the reflection is in view: the first card under it is found against this
                return self._ask_darker(frame, detail, small, mat=True)
            return []
        return self._look(frame, detail, small)

    def _long_px(self, detail: np.ndarray, at: tuple[float, float] | None = None) -> float:
        """A card's long side (detail px) lying at ``at``: from the mat when it is in view,
        else the cards read so far, else the learnt deck's."""
        if self._scale is not None:
            h, w = detail.shape[:2]
            return float(np.sqrt(self._scale.card_area_px(at if at is not None else (w / 2, h / 2)) * CARD_ASPECT))
        if self._card_long:
            return self._card_long
        return (self.model.card_long_frac or 0.2) * detail.shape[1]

    def _sizes(self) -> tuple[float, ...]:
        """The card sizes tried around :meth:`_long_px` (how sure that size is)."""
        if self._scale is not None:
            return (1.0,)
        if self._card_long:
            return (1.0,)
        # the camera may not be where the deck was learnt: the first card's size is searched
        return (1.0, 0.92, 1.08, 0.85, 1.17, 0.78, 1.27) if self.model.card_long_frac else \
            tuple(float(k) for k in np.arange(0.6, 1.45, 0.07))

    def _find(self, seen: np.ndarray, change: Change, long_px: float) -> list[Outline]:
        return find_outlines(seen, change.reference, change.mask, long_px, level=change.edge, aspect=CARD_ASPECT,
                             sizes=self._sizes())

    def _push(self, detail: np.ndarray, card: Card | None, *, pending: bool = False,
              darker: np.ndarray | None = None, where: np.ndarray | None = None) -> None:
        self._settled.append(_Settled(detail, card, pending, darker, where))
        if len(self._settled) > KEEP_DETAIL:
            self._settled[-KEEP_DETAIL - 1].detail = self._settled[-KEEP_DETAIL - 1].darker = None

    def _first_card(self, frame: np.ndarray, detail: np.ndarray) -> list[DealEvent]:
        """Dealing started at once: the first frames that agree may already hold the first
        card. Nothing to compare with, so every edge counts as new: a card's whole outline
        in view (found at half size: the whole view is searched) that names a learnt card
        is that card, and the table under it was never seen."""
        top = card_in_view(detail, self._long_px(detail), level=FIRST_EDGE, aspect=CARD_ASPECT, sizes=self._sizes())
        if top is None or top.support < FIRST_SUPPORT:
            return []
        naming = self.model.identify(views_around(frame, top.quad * (frame.shape[1] / detail.shape[1])))
        if naming.card is None:  # (something card-shaped, not a card it knows: the table)
            return []
        self._settled[0] = _Settled(None)
        return self._name(frame, detail, top, None, naming=naming)

    def _look(self, frame: np.ndarray, detail: np.ndarray, small: np.ndarray) -> list[DealEvent]:
        change = compare(self._settled[-1].detail, detail, floor=CHANGE_LEVEL)
        area = self._long_px(detail) ** 2 / CARD_ASPECT
        pts = cv2.findNonZero(change.mask)
        if pts is not None and len(pts) >= MIN_CHANGE * area:
            x, y, w, h = cv2.boundingRect(pts)
            near = [np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])]
        else:  # (a card washed out like the one it lies on may change nothing at all here)
            near = [q for q in (self._settled[-1].where,) if q is not None]
        if self.darker_scale and glare_near(detail, near, area):
            return self._ask_darker(frame, detail, small, mat=False)
        if pts is None or len(pts) < MIN_CHANGE * area:
            return []
        return self._judge(frame, detail, None, change)

    def _judge(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
               change: Change | None = None, normal: np.ndarray | None = None) -> list[DealEvent]:
        """The look's decision. ``dark``: the darker frame's detail copy (``frame`` is then the
        darker frame; every comparison at its exposure, the next hand come in at the view's
        edge left out); ``normal``: the frame that asked for it."""
        n = self._frames
        seen = detail if dark is None else dark

        def ref(s: _Settled) -> np.ndarray | None:
            if dark is None or s.detail is None:
                return s.detail
            return s.darker if s.darker is not None else tone_map(s.detail, dark)

        def changed(reference: np.ndarray) -> Change:
            if dark is None:
                return compare(reference, seen, floor=CHANGE_LEVEL)
            got = compare(reference, seen, floor=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            m = got.mask
            if not (m[0].any() or m[-1].any() or m[:, 0].any() or m[:, -1].any()):
                return got
            arrived = came_in(detail, dark, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            return replace(got, mask=cv2.bitwise_and(m, cv2.bitwise_not(arrived)))

        last = self._settled[-1]
        if last.detail is None:
            return []
        change = change if change is not None else changed(ref(last))
        long_px = self._long_px(seen)
        area = long_px * long_px / CARD_ASPECT
        if cv2.countNonZero(change.mask) < MIN_CHANGE * area:
            if dark is not None and last.darker is None:
                last.darker = dark  # (the next card is not looked for blind under the reflection)
            return []
        found = self._find(seen, change, long_px)
        before = ref(self._settled[-2]) if len(self._settled) >= 2 and not last.pending else None
        if before is not None and cv2.countNonZero(changed(before).mask) < LIFTED * area:
            under = self._settled[-2].where  # the card on top now is the one under the last
            if not found or under is None or iou(found[0].quad, under) > SAME_PLACE:
                gone = self._settled.pop()  # the last card was lifted off the pile again
                return [DealEvent(TAKEN_BACK, gone.card, frame_number=n)]
        if not found:  # light, a shadow, a hand: no card's outline
            if hand_over(change.mask, None, area):
                self._still = 0
                return [DealEvent(HAND, frame_number=n)]
            if new_edge_share(seen, change.reference, change.mask, long_px, level=change.edge,
                              aspect=CARD_ASPECT) < UNSEEN_CARD:
                return []
            # something came with a card's worth of new edges, yet no card's outline: never
            # passed over in silence (it lies there unread; what comes next is read against it)
            return self._unnamed(detail, dark, None, None, glare=dark is not None)
        top = found[0]
        h, w = seen.shape[:2]
        cut = top.quad.min() < 1 or top.quad[:, 0].max() > w - 2 or top.quad[:, 1].max() > h - 2
        if cut or hand_over(change.mask, top.quad, area):
            self._still = 0  # looked at again once the hand keeps still (or leaves)
            return [DealEvent(HAND, frame_number=n)]
        if last.where is not None and iou(top.quad, last.where) > (SAME_PLACE if top.new < NOT_NEW else SAME_CARD):
            return self._looked_again(frame, detail, top, change, dark, normal, area)
        if second_card(seen, change.reference, change.mask, top, long_px, level=change.edge,
                       aspect=CARD_ASPECT, sizes=self._sizes()) is not None:
            if last.pending:
                self._settled.pop()
            self._push(detail, None, pending=True, darker=dark, where=top.quad)
            return [DealEvent(TWO_CARDS, frame_number=n)]
        return self._name(frame, detail, top, dark, normal)

    def _looked_again(self, frame: np.ndarray, detail: np.ndarray, top: Outline, change: Change,
                      dark: np.ndarray | None, normal: np.ndarray | None, area: float) -> list[DealEvent]:
        """The card found lies where the last one lay, its sides not new: that card looked at
        again (the light changed over it, or a flicker made two still spells of one). Only
        when its print changed is it named: another card squared exactly on it."""
        inside = np.zeros_like(change.mask)
        cv2.fillPoly(inside, [np.round(top.quad).astype(np.int32)], 255)
        if cv2.countNonZero(cv2.bitwise_and(change.mask, inside)) < PRINT_CHANGED * area:
            return []
        quad = top.quad * (frame.shape[1] / detail.shape[1])
        naming = self.model.identify(views_around(frame, quad))
        last = self._settled[-1]
        if naming.card == last.card or (naming.card is None and naming.best in (last.card, None)):
            return []  # (unsure, yet most like another card: asked about)
        return self._name(frame, detail, top, dark, normal, naming=naming)

    def _name(self, frame: np.ndarray, detail: np.ndarray, top: Outline, dark: np.ndarray | None,
              normal: np.ndarray | None = None, *, naming: Naming | None = None) -> list[DealEvent]:
        n = self._frames
        where = top.quad
        quad = where * (frame.shape[1] / detail.shape[1])
        views = views_around(frame, quad)
        naming = naming if naming is not None else self.model.identify(views)
        if naming.card is None and normal is not None:
            # The darker frame is noisier: a card the reflection only grazes may still be
            # named, with its own margins, in the frame at the normal exposure (a narrower
            # alignment search: the frame's time is spent twice on this card).
            again = views_around(normal, quad, reach=3, scales=(1.0,))
            second = self.model.identify(again)
            if second.card is not None or again[0].glare > 0:  # (a reflection on it: asked to move it)
                views, naming = again, second
        if naming.card is None:
            # with a reflection on it, moving the card is what helps, not showing it again
            return self._unnamed(detail, dark, where, naming, glare=views[0].glare > 0)
        if self._settled[-1].pending:
            self._settled.pop()  # the card asked about: what lies there now is read instead
        if naming.card in self.cards:
            self._push(detail, None, darker=dark, where=where)  # it lies on the pile, not counted
            return [DealEvent(ALREADY, naming.card, naming, n)]
        self._push(detail, naming.card, darker=dark, where=where)
        if self._scale is None:  # the cards' size as seen, for the next outlines
            self._longs = (self._longs + [top.long])[-5:]
            self._card_long = float(np.median(self._longs))
        return [DealEvent(COUNTED, naming.card, naming, n)]

    def _unnamed(self, detail: np.ndarray, dark: np.ndarray | None, where: np.ndarray | None,
                 naming: Naming | None, *, glare: bool) -> list[DealEvent]:
        """A card came that cannot be named: the kiosk asks about it (never silence). It
        lies there unread; what comes next is read against it."""
        if self._settled[-1].pending:
            self._settled.pop()  # the card asked about: what lies there now is asked about instead
        self.uncertain += 1
        self._push(detail, None, pending=True, darker=dark, where=where)
        return [DealEvent(GLARE if glare else SHOW_AGAIN, naming=naming, frame_number=self._frames)]
