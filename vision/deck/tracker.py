"""Deal-through reading: the player turns the pile's cards face up one at a time.

Each frame is shrunk to ``motion_width`` and compared with the previous one: is anything
moving? Only when nothing has moved for ``still_frames`` frames is the table looked at,
once per still spell, at ``detail_width`` against the last settled frame:

- no change: nothing happens;
- the change touches the frame's edge, or is not card-shaped: a hand is there; no read
  until it leaves;
- more than one card's worth of change: ask to deal them one at a time;
- one card: warped flat from the full-resolution frame and named; a reflection on it
  asks to move the card; a low margin asks to show it again; a card already counted is
  refused ("ja comptada").

Under the lamp's reflection (``darker_scale`` set: a camera with exposure control) the look
asks for one darker frame first (a :data:`DARKER` event carrying a
:class:`~vision.deck.darker.DarkerRequest`; the caller answers with :meth:`feed_darker`)
and is done on that frame instead: see :mod:`vision.deck.darker`.

The table going back to how it was before the last card means that card was lifted off
again; :meth:`DealTracker.take_back` ("Treu l'última") forgets it by hand.

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
from vision.deck.darker import DarkerRequest, came_in, glare_near, reflection_in_view, tone_map
from vision.deck.locate import (CARD_ASPECT, Blob, card_rectangle, change_groups, change_mask, channel_max,
                                shrunk)
from vision.deck.model import DeckModel, Naming
from vision.deck.scale import TableScale
from vision.deck.views import views_around

COUNTED = "counted"
ALREADY = "already_counted"
SHOW_AGAIN = "show_again"
TWO_CARDS = "two_cards"
GLARE = "glare"
HAND = "hand"
TAKEN_BACK = "taken_back"
DARKER = "darker"  # not for the player: the caller is to answer ``event.darker`` with feed_darker()
ASK_KINDS = (SHOW_AGAIN, TWO_CARDS, GLARE)  # the kiosk asks the player to do something about the card
TWO_CARDS_AREA = 1.15  # x a card's area measured on the mat (two cards 8 mm apart: 1.2)
TWO_CARDS_ASPECT = 0.1  # one card lying still measures within 5 % of its aspect
TWO_CARDS_AREA_GUESSED = 1.4  # x a card's area without the mat
KEEP_DETAIL = 4  # settled frames kept at detail size (older ones are only for "lifted off")
CHANGE_LEVEL = 18  # a change between two settled frames, in levels of the brightest channel
DARKER_CHANGE_LEVEL = 12  # the same between darker frames: the print's contrast shrinks with the exposure
DARKER_MIN_PIXELS = 16  # detail px: a darker frame's noise makes specks


@dataclass(frozen=True)
class DealEvent:
    """Something the kiosk shows: ``kind`` is one of the module's event names."""

    kind: str
    card: Card | None = None
    naming: Naming | None = None
    frame_number: int = 0
    darker: DarkerRequest | None = None  # kind DARKER: the darker frame wanted


@dataclass(frozen=True)
class Tally:
    """The pile so far: its points, its tricks (cards / 4) and the cards in dealing order."""

    cards: tuple[Card, ...]
    points: int
    tricks: int


@dataclass
class _Settled:
    detail: np.ndarray | None
    card: Card | None = None
    pending: bool = False  # lies there unread (asked to show again): replaced by what comes next
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
    _card_area: float = 0.0
    _card_long: float = 0.0
    _scale: TableScale | None = None  # the mat's millimetres in detail pixels
    _wanted: DarkerRequest | None = None
    _held: _Look | None = None

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
        """Forget the last card counted ("Treu l'última"); the table is expected to look
        as it did before it was dealt."""
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
        self._frames += 1
        small = shrunk(frame, self.motion_width, 5)
        if self._previous is None:
            self._previous = small
            return []
        moving = channel_max(cv2.absdiff(small, self._previous)) > 20
        self._previous = small
        if np.count_nonzero(moving) > self.motion_share * moving.size:
            self._still = 0
            return []
        self._still += 1
        # The empty mat is taken as soon as two frames agree: a player may start dealing
        # the moment the screen opens, before a card's 0.3 s of stillness has passed.
        if self._still != (1 if not self._settled else self.still_frames):
            return []
        detail = shrunk(frame, self.detail_width, 3)
        if self._scale is None:  # (a mat out of view costs one marker search per still spell)
            sharp = cv2.resize(frame, detail.shape[1::-1], interpolation=cv2.INTER_AREA)
            self._scale = TableScale.find(sharp)
        if not self._settled:  # the empty mat, once it first lies still: what is new is dealt
            self._settled.append(_Settled(detail))
            if self.darker_scale and reflection_in_view(detail):
                # the reflection is in view: the first card under it is found against this
                return self._ask_darker(frame, detail, small, mat=True)
            return []
        return self._look(frame, detail, small)

    def _expected_area(self, detail: np.ndarray, at: tuple[float, float] | None = None) -> float:
        """A card's area (detail px): from the mat when it is in view (lying at ``at``, or
        in the middle), else the cards read so far, else the learnt deck's."""
        if self._scale is not None:
            h, w = detail.shape[:2]
            return self._scale.card_area_px(at if at is not None else (w / 2, h / 2))
        if self._card_area:
            return self._card_area
        long_ = (self.model.card_long_frac or 0.2) * detail.shape[1]
        return long_ * long_ / CARD_ASPECT

    @property
    def _too_big(self) -> float:
        """A change this many times a card's area is more than one card."""
        return TWO_CARDS_AREA if self._scale is not None else TWO_CARDS_AREA_GUESSED

    def _changes(self, reference: np.ndarray, detail: np.ndarray, card_area: float) -> list[Blob]:
        return self._groups(change_mask(reference, detail, level=CHANGE_LEVEL), card_area)

    def _groups(self, mask: np.ndarray, card_area: float) -> list[Blob]:
        # pieces of one card (its art, bits of its frame line) are joined across the white
        join = max(3, int(np.sqrt(card_area / CARD_ASPECT) / 3)) | 1
        return change_groups(mask, join_px=join, min_area=0.2 * card_area)

    def _lifted(self, since_before: np.ndarray, card_area: float) -> bool:
        """Nothing changed since the table before the last card: it was lifted off again.
        (A card more on the pile changes a card's worth of pixels: no grouping needed.)"""
        return np.count_nonzero(since_before) <= 0.3 * card_area and not self._groups(since_before, card_area)

    def _push(self, detail: np.ndarray, card: Card | None, *, pending: bool = False,
              darker: np.ndarray | None = None, where: np.ndarray | None = None) -> None:
        self._settled.append(_Settled(detail, card, pending, darker, where))
        if len(self._settled) > KEEP_DETAIL:
            self._settled[-KEEP_DETAIL - 1].detail = self._settled[-KEEP_DETAIL - 1].darker = None

    def _look(self, frame: np.ndarray, detail: np.ndarray, small: np.ndarray) -> list[DealEvent]:
        card_area = self._expected_area(detail)
        blobs = self._changes(self._settled[-1].detail, detail, card_area)
        # (a card washed out like the one it lies on may change nothing at all here)
        near = [b.quad for b in blobs] or [q for q in (self._settled[-1].where,) if q is not None]
        if self.darker_scale and glare_near(detail, near, card_area):
            return self._ask_darker(frame, detail, small, mat=False)
        if not blobs:
            return []
        return self._judge(frame, detail, None, blobs)

    def _judge(self, frame: np.ndarray, detail: np.ndarray, dark: np.ndarray | None,
               blobs: list[Blob] | None = None, normal: np.ndarray | None = None) -> list[DealEvent]:
        """The look's decision. ``dark``: the darker frame's detail copy (``frame`` is then
        the darker frame itself): every comparison is made at the darker exposure, against
        each earlier state's own darker copy where one was taken, else its normal copy
        brought to the darker exposure; ``normal`` is the frame that asked for it. ``detail``
        and ``dark`` are what is kept for the next look. (The next hand may already come in
        at the view's edge in the darker frame: changes there are left out of every darker
        look, so such a frame is kept too.)"""
        n = self._frames
        seen = detail if dark is None else dark

        def ref(s: _Settled) -> np.ndarray | None:
            if dark is None or s.detail is None:
                return s.detail
            return s.darker if s.darker is not None else tone_map(s.detail, dark)

        arrived: np.ndarray | None = None  # (worked out once, when a darker look needs it)

        def changed(reference: np.ndarray) -> np.ndarray:
            nonlocal arrived
            if dark is None:
                return change_mask(reference, seen, level=CHANGE_LEVEL)
            # a shorter exposure: less contrast, more noise (specks joined to the card would
            # bend its outline); the next hand, come in since the frame that asked, left out
            mask = change_mask(reference, seen, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            if not (mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any()):
                return mask  # nothing came in from the edge
            if arrived is None:
                arrived = came_in(detail, dark, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
            return cv2.bitwise_and(mask, cv2.bitwise_not(arrived))

        def groups(reference: np.ndarray) -> list[Blob]:
            found = self._groups(changed(reference), card_area)
            # the card lies apart from a hand coming in (a hand over the card is one change
            # with it: a hand)
            inner = [b for b in found if not b.touches_edge]
            return inner if dark is not None and inner else found

        card_area = self._expected_area(seen)
        if blobs is None:
            blobs = groups(ref(self._settled[-1]))
            if not blobs:
                if dark is not None and self._settled[-1].darker is None:
                    # Against a normal frame the reflection's clipped patch is blind: nothing
                    # seen to change may be a card lying in it. The darker frame becomes the
                    # reference, so at least the next card is not looked for blind too.
                    self._settled[-1].darker = dark
                return []
        one_card = len(blobs) == 1 and blobs[0].card_shaped and not blobs[0].touches_edge
        if self._settled[-1].pending and len(self._settled) >= 2:
            # The card(s) we asked about, lifted and laid down again a few mm off or slid
            # out of a reflection, as asked: against them, that is the card joined to the gap
            # it left (an outline too big, or two); against the table before them, the card
            # alone. Anything else (a card dealt on top of them, a hand) is read against them.
            again = groups(ref(self._settled[-2]))
            alone = len(again) == 1 and again[0].card_shaped and not again[0].touches_edge \
                and again[0].area <= self._too_big * self._expected_area(seen, tuple(again[0].quad.mean(axis=0)))
            if alone or not one_card:
                self._settled.pop()
                blobs = again
                if not blobs:
                    return []
        before = ref(self._settled[-2]) if len(self._settled) >= 2 else None
        since_mask = changed(before) if before is not None else None
        if since_mask is not None and self._lifted(since_mask, card_area):
            last = self._settled.pop()  # the last card was lifted off the pile again
            return [DealEvent(TAKEN_BACK, last.card, frame_number=n)]
        blob = blobs[0]
        since_before = self._groups(since_mask, card_area) if since_mask is not None and not blob.card_shaped \
            and not blob.touches_edge and len(blobs) == 1 else None
        if since_before and len(since_before) == 1 and since_before[0].card_shaped and since_before[0].area < 1.4 * card_area:
            # Laid almost exactly on the last card: only where their prints differ changed,
            # which need not look like a card; the two together outline it. (The naming's
            # alignment search and margin still decide; a doubt is asked, never guessed.)
            blob = since_before[0]
        if blob.touches_edge:
            return [DealEvent(HAND, frame_number=n)]
        # Two cards a few mm apart still outline a near-rectangle of nearly a card's shape:
        # only the size tells. Measured on the mat it is close to exact (one card's change is
        # at most its own area plus the blur); guessed from the deck or the cards read, not.
        card_area = self._expected_area(seen, tuple(blob.quad.mean(axis=0)))
        # (two cards offset along the short side also make a squarer shape than one card)
        squat = self._scale is not None and blob.area > card_area \
            and abs(blob.aspect - CARD_ASPECT) > TWO_CARDS_ASPECT * CARD_ASPECT
        if blob.area > self._too_big * card_area or squat or len(blobs) > 1:
            self._push(detail, None, pending=True, darker=dark, where=blob.quad)
            return [DealEvent(TWO_CARDS, frame_number=n)]
        if not blob.card_shaped:
            return [DealEvent(HAND, frame_number=n)]
        return self._name(frame, detail, blob, dark, normal)

    def _outline(self, blob: Blob, detail: np.ndarray) -> np.ndarray:
        """The card's rectangle (detail px): the change's, grown to a whole card's size
        (:func:`~vision.deck.locate.card_rectangle`): the mat's where it is in view, else the
        cards read so far, else the learnt deck's."""
        (cx, cy), _, _ = cv2.minAreaRect(blob.quad)
        if self._scale is not None:
            want = float(np.sqrt(self._scale.card_area_px((cx, cy)) * CARD_ASPECT))
        elif self._card_long:
            want = self._card_long
        else:
            want = (self.model.card_long_frac or 0.0) * detail.shape[1]
        rect, long_ = card_rectangle(blob.quad, want)
        if long_ > 0.9 * want:
            # a card lying on the mat shows its whole outline: that is the size to keep (a
            # change bigger than a card, a card moved joined to the gap it left, grows it 2 % at most)
            self._card_long = max(self._card_long * 0.98, min(long_, 1.02 * want)) if self._card_long else long_
        return rect

    def _name(self, frame: np.ndarray, detail: np.ndarray, blob: Blob, dark: np.ndarray | None,
              normal: np.ndarray | None = None) -> list[DealEvent]:
        n = self._frames
        where = self._outline(blob, detail)
        quad = where * (frame.shape[1] / detail.shape[1])
        views = views_around(frame, quad)
        naming = self.model.identify(views)
        if naming.card is None and normal is not None:
            # The darker frame is noisier: a card the reflection only grazes may still be
            # named, with its own margins, in the frame at the normal exposure (a narrower
            # alignment search: the frame's time is spent twice on this card).
            again = views_around(normal, quad, reach=3, scales=(1.0,))
            second = self.model.identify(again)
            if second.card is not None or again[0].glare > 0:  # (a reflection on it: asked to move it)
                views, naming = again, second
        if naming.card is None:
            self.uncertain += 1
            self._push(detail, None, pending=True, darker=dark, where=where)
            # with a reflection on it, moving the card is what helps, not showing it again
            kind = GLARE if views[0].glare > 0 else SHOW_AGAIN
            return [DealEvent(kind, naming=naming, frame_number=n)]
        if naming.card in self.cards:
            self._push(detail, None, darker=dark, where=where)  # it lies on the pile, not counted
            return [DealEvent(ALREADY, naming.card, naming, n)]
        self._push(detail, naming.card, darker=dark, where=where)
        self._card_area = 0.7 * self._card_area + 0.3 * blob.area if self._card_area else blob.area
        return [DealEvent(COUNTED, naming.card, naming, n)]
