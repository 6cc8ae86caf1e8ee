"""The trick reader: four seats' places watched, each card named once it lies still.

Given where each seat lays its card (image points, from the seat-learning step), the
reader takes the camera's frames one by one (:meth:`TrickReader.feed`) and says what
happened in each (typed :class:`TrickPlay` / :class:`TrickAsk`):

- a card lying still near a seat's place is named with the learnt deck (``DeckModel``);
- a card it cannot name, or names as one already played (a misread, or a card picked up
  again), is looked at again on the next frames, then asked about at that seat;
- the hand in play (:class:`kiosk.game.handrecord.HandInPlay`) says whose turn it is: a
  card at another seat is held until its turn comes, never guessed into the hand;
- a trick taken off the table clears the four places; one taken off before all its cards
  were read (a card the camera never saw lying still: a hand over it, a reflection on it) has
  its missing cards asked about, one seat at a time in turn order, never taken from the next
  trick's cards laid at that seat.

The table answers an ask with :meth:`answer` (the card, as the players say it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from kiosk.game.cards import Card
from kiosk.game.errors import IllegalPlayError
from kiosk.game.handrecord import CardPlayed, HandInPlay
from vision.deck.model import DeckModel
from vision.tricks.events import TrickAsk, TrickEvent, TrickPlay
from vision.tricks.glimpse import Glimpses
from vision.tricks.naming import CardNamer, StillPicture
from vision.tricks.rank import RankLooks
from vision.tricks.zones import Patch, TableWatch

READ_TRIES = 4  # frames a card is looked at before it is asked about
WHOLE_TRICK_S = 2.0  # the least time four cards are laid and swept off in: a longer gap may hide a trick
ZONE = 0.6  # of the nearest other seat's distance: farther off, not that seat's card
WAIT_FRAMES = 2  # a later seat's card waiting this long: the seat to play was passed over unread
LONG_SIDE = (0.25, 0.85)  # a card's long side against the distance between neighbouring seats


@dataclass
class _Seen:
    patch: Patch
    since: int  # the frame it was first seen lying still
    tries: int = 0
    card: Card | None = None  # named, waiting for its turn
    asked: bool = False
    held: bool = False  # not named after READ_TRIES looks, its seat's turn not come: asked when it comes
    answered: bool = False  # ``card`` is the table's answer, not the camera's
    box: tuple[int, int, int, int] = field(default=(0, 0, 0, 0))
    picture: StillPicture = field(default_factory=StillPicture)  # its frames lying still, averaged
    ranks: RankLooks = field(default_factory=RankLooks)  # its looks' leans, a 10 or 12 the corners left


class TrickReader:
    """Reads a hand's cards from an overhead camera, trick by trick.

    ``seats``: seat 0-3 -> (x, y) in the frame where that seat's card lies; ``hand``: the
    hand in play (trump, first lead, rules), or several when the trump is not known (one
    per trump): then each trick's leader is the seat whose card lay first, and the hands
    whose winners say otherwise are dropped; ``frame_size``: (w, h) of the frames fed.

    >>> reader = TrickReader(model, {0: (640, 560), 1: (980, 360), 2: (640, 160), 3: (300, 360)},
    ...                      HandInPlay("oros", first_lead=1), frame_size=(1280, 720))
    >>> events = reader.feed(frame)  # [TrickPlay(trick=1, seat=1, card=Card(...), frame=7)]
    """

    def __init__(self, model: DeckModel, seats: Mapping[int, tuple[float, float]],
                 hand: HandInPlay | list[HandInPlay], *, frame_size: tuple[int, int]) -> None:
        if sorted(seats) != [0, 1, 2, 3]:
            raise ValueError("the seats' places must be given for seats 0, 1, 2 and 3")
        self.model = model
        self.hands = list(hand) if isinstance(hand, list) else [hand]
        self.seats = {s: np.float32(seats[s]) for s in range(4)}
        near = min(float(np.linalg.norm(self.seats[a] - self.seats[b])) for a in range(4) for b in range(a))
        self.watch = TableWatch(frame_size, (LONG_SIDE[0] * near, LONG_SIDE[1] * near))
        self.namer = CardNamer(model, self.watch)
        self.zone_px = ZONE * near
        self.seen: dict[int, _Seen] = {}  # seat -> the card lying there, not yet in the hand
        self.down: dict[int, Card] = {}  # seat -> its card in the trick on the table
        self.down_box: dict[int, tuple[int, int, int, int]] = {}  # where it lies (work px)
        self.down_look: dict[int, np.ndarray] = {}  # how it looked there, laid (work px, grey)
        self.swept: dict[int, Card] = {}  # seat -> its card in the trick taken last
        self.left: dict[int, tuple[tuple[int, int, int, int], np.ndarray]] = {}  # seat -> where that card lay, its look
        self.asked_taken: tuple[int, int] | None = None  # (trick, seat) asked about last
        self.asked_skipped: tuple[int, int] | None = None  # (trick, seat) asked as passed over
        self.taken = False  # the trick in play was taken off with cards not read: ask for them
        self.vanished: dict[int, Card] = {}  # seat -> its card, named and waiting for its turn, gone in this trick
        self.named: dict[int, Card] = {}  # seat -> a card the table named that the camera did not see
        # a swept trick's card (or what was seen at its seat) still there, settled into the
        # table: where (work px) -> how it looked (grey). By place, not seat: two at one seat
        # (the card, then a reflection's patch beside it) are each forgotten when gone
        self.lingering: dict[tuple[int, int, int, int], np.ndarray] = {}
        self.gap_in: int | None = None  # the trick in play when frames were lost
        self.glimpses = Glimpses()  # the cards not steady to the camera, named so far
        self.frame_no = -1

    @property
    def hand(self) -> HandInPlay:
        """The hand in play as read so far (the first of the hands still possible)."""
        return self.hands[0]

    # -- the table's side -------------------------------------------------------------
    def answer(self, seat: int, card: Card) -> list[TrickEvent]:
        """The table says which card lies at ``seat`` (after an ask), or lay there: the card
        of the seat to play that the camera did not see (its trick taken off)."""
        seen = self.seen.get(seat)
        if self.taken or seen is None:
            if seat != self.hand.to_play:
                raise ValueError(f"no card is waiting at seat {seat}")
            self.named[seat] = card
        else:
            seen.card, seen.asked, seen.held, seen.answered = card, False, False, True
        return self._place()

    def lost(self, seconds: float) -> list[TrickEvent]:
        """The camera's frames were lost for ``seconds`` (a busy machine: the source keeps only
        its newest frame). What happened meanwhile mostly shows in the next frames: a card
        laid still lies there, a trick swept off leaves its places bare, and then even one
        card of the trick in play gone is the trick taken. Not cards laid and swept off again
        within the gap: after a gap that long, the trick in play's cards not seen are asked
        about in turn, never guessed (nor taken from the next trick's cards)."""
        self.gap_in = self.hand.trick_number
        if seconds < WHOLE_TRICK_S or self.taken or self.hand.to_play is None:
            return []
        self._take_unread()
        return self._place()

    # -- each frame ---------------------------------------------------------------------
    def feed(self, frame: np.ndarray) -> list[TrickEvent]:
        self.frame_no += 1
        events: list[TrickEvent] = []
        patches = self.watch.step(frame)
        for box, look in list(self.lingering.items()):
            # gone once its place is bare, or its print is no longer there (under a swaying
            # reflection the place never looks bare: the next card laid there, unlike the
            # card left lying only in its print, was never outlined)
            if self.watch.looks_bare(box) or not self.watch.still_there(box, look):
                self.watch.forget(box)
                del self.lingering[box]
        if self.down and not self.hand.trick:
            self._sweep()
        elif not self.taken:
            self._taken_unread()
        for patch in patches:
            seat = self._seat_of(patch)
            if patch.bare:
                self.watch.forget(patch.mask_box)
                if seat is not None:
                    self.seen.pop(seat, None)
                continue
            if not patch.steady:
                if seat is not None and seat not in self.down:
                    self._glimpse(frame, seat, patch)
                continue
            if seat in self.down:
                if self._overlaps(seat, patch):
                    if not self.hand.trick:
                        self._gone(seat)  # a complete trick's card touched: taken, or covered by the next
                    elif not self.taken and (patch.bare or patch.card_shaped) \
                            and not self.watch.still_there(self.down_box[seat], self.down_look[seat]):
                        # the trick taken, or covered by the next, not all read (not a
                        # reflection swaying over the card: its print is still there)
                        self._take_unread()
                continue
            if seat is None or not patch.card_shaped:
                continue
            seen = self.seen.get(seat)
            if seen is None or np.hypot(*np.subtract(seen.patch.centre, patch.centre)) > 4:
                seen = self.seen[seat] = _Seen(patch, self.frame_no, box=patch.mask_box)
            seen.patch = patch
            if seen.card is None and not seen.asked:
                events += self._read(frame, seat, seen)
        events += self._place()
        return events + self._ask_skipped()

    def _ask_skipped(self) -> list[TrickEvent]:
        """Players lay in turn: a later seat's card of this trick lying named while the seat to
        play has none named means that seat's card lies there unread (a reflection swaying
        over it, never still to the camera). It is asked about at once, not when its trick
        is taken off (the cards after it would wait as long). A card not named before its
        seat's turn came is asked about now."""
        seat = self.hand.to_play
        if seat is None or self.taken or seat in self.named or (self.down and not self.hand.trick) \
                or len(self.hands) > 1:  # (the trump not known: the leader is the first card laid)
            return []
        seen = self.seen.get(seat)
        if seen is not None and seen.held:
            seen.held = False
            return [TrickAsk(self._trick_no(), seat, "unnamed", self.frame_no)]
        if seen is not None and (seen.card is not None or seen.asked):
            return []
        if self.glimpses.naming(seat, self.frame_no):
            return []  # being named over successive frames
        played = {(self.hand.lead + k) % 4 for k in range(len(self.hand.trick))}
        if not any(s.card is not None and not s.answered and t not in played and self.frame_no - s.since >= WAIT_FRAMES
                   for t, s in self.seen.items() if t != seat):
            return []
        if self.asked_skipped == (self.hand.trick_number, seat):
            return []
        self.asked_skipped = (self.hand.trick_number, seat)
        if seen is not None:
            seen.asked = True
        return [TrickAsk(self._trick_no(), seat, "unnamed", self.frame_no)]

    def _taken_unread(self) -> None:
        """The trick in play taken off before its cards were all read: every card that lay
        for it (read, or named and waiting for its turn) gone, at least two of them."""
        for seat, seen in list(self.seen.items()):
            if seen.card is not None and self.watch.looks_settled(seen.box):
                del self.seen[seat]  # a card waiting for its turn, gone
                self.vanished[seat] = seen.card
        waiting = any(seen.card is not None for seen in self.seen.values())
        gone = all(self.watch.looks_bare(box) for box in self.down_box.values())
        least = 1 if self.gap_in == self.hand.trick_number else 2  # a card picked up again, or not
        if gone and not waiting and len(self.down) + len(self.vanished) >= least:
            self._take_unread()

    def _take_unread(self) -> None:
        for seat in list(self.down):
            self._gone(seat)
        # the cards named while waiting for their turn went with the trick: theirs, as the
        # camera named them (only the cards it never named are asked about)
        self.named.update({s: c for s, c in self.vanished.items() if s not in self.named})
        self.vanished.clear()
        self.taken = True

    def _sweep(self) -> None:
        """The trick on the table is complete: each of its cards' places seen bare again
        (still, nothing on it) is cleared. The winner takes its four cards at once: once one
        place is bare, a card whose print is no longer where it lay went with the others
        (under a swaying reflection its place never looks bare; kept, it held the next trick
        back, and the next card laid there, unlike it only in its print, was never
        outlined). A card still lying there is named as that card again: left lying."""
        for seat in [s for s, box in self.down_box.items() if self.watch.looks_bare(box)]:
            self._gone(seat)
        if len(self.down) < 4:
            for seat in [s for s in self.down if not self.watch.still_there(self.down_box[s], self.down_look[s])]:
                self._gone(seat)

    def _gone(self, seat: int) -> None:
        self.vanished.clear()
        box = self.down_box.pop(seat)
        self.watch.forget(box)
        self.left[seat] = (box, self.down_look.pop(seat))
        self.swept[seat] = self.down.pop(seat)

    def _overlaps(self, seat: int, patch: Patch) -> bool:
        a, b = self.down_box[seat], patch.mask_box
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def _seat_of(self, patch: Patch) -> int | None:
        at = np.float32(patch.centre) / self.watch.scale
        d = {s: float(np.linalg.norm(at - p)) for s, p in self.seats.items()}
        seat = min(d, key=d.__getitem__)
        return seat if d[seat] <= self.zone_px else None

    def _read(self, frame: np.ndarray, seat: int, seen: _Seen) -> list[TrickEvent]:
        # a card already in the hand cannot lie here: no rival of the card seen (a 10 is not
        # held back for a 12 of its suit played before; at the last trick three cards are left)
        ruled_out = [p.card for p in self.hand.events]
        naming, lean = self.namer.look(frame, seen.patch, ruled_out=ruled_out)
        if naming.card is None and seen.patch.by_print:
            return []  # still by its print only, something moving beside it: no try, nor a frame to average
        seen.picture.add(frame, self.namer.region(frame, seen.patch))
        picture = seen.picture.over(frame) if naming.card is None else None
        if picture is not None:  # its frames lying still averaged: the camera's noise less, the same margins
            naming, lean = self.namer.look(picture, seen.patch, ruled_out=ruled_out)
        seen.tries += 1
        seen.ranks.add(lean)
        card = naming.card
        if card is None and seen.tries >= READ_TRIES:
            card = seen.ranks.card()  # a 10 or 12 its corners could not tell, its whole card did in every look
        if card is not None and card == self.swept.get(seat) or card is None and self._left_lying(seat):
            # the last trick's card, still there (only touched, or not yet taken): table,
            # until it is taken (then its place is the bare table again). Not named, its
            # print where it lay says it (held unnamed, it was asked about at its seat's
            # turn before the next card was laid: 501 trick 9)
            self.watch.settle(seen.box)
            self.lingering[seen.box] = self.watch.look(seen.box)
            del self.seen[seat]
            return []
        if card is not None and self._played(card):
            if seen.tries >= READ_TRIES:
                seen.asked = True
                return [TrickAsk(self._trick_no(), seat, "played", self.frame_no, card)]
            return []
        if card is None:
            if seen.tries >= READ_TRIES:
                seen.asked = True  # looked at enough
                if seat != self.hand.to_play and len(self.hands) == 1:
                    # not its turn: players lay in turn, so a card there is not yet the one it
                    # will play (a reflection's still patch, more likely): asked when it is
                    seen.held = True
                    return []
                return [TrickAsk(self._trick_no(), seat, "unnamed", self.frame_no)]
            return []
        seen.card = card
        self.watch.named(seen.patch)
        return []

    def _glimpse(self, frame: np.ndarray, seat: int, patch: Patch) -> None:
        """A card whose outline stays put while a reflection's halo sways beside it (never
        still to the camera): read once named the same, with the usual margins, in successive
        frames at the same place (vision/tricks/glimpse.py); less is neither a name nor an ask."""
        seen = self.seen.get(seat)
        if seen is not None and (seen.card is not None or seen.asked):
            return
        naming = self.namer.name(frame, patch, ruled_out=[p.card for p in self.hand.events])
        card = naming.card
        if card is not None and (self._played(card) or card == self.swept.get(seat)):
            card = None
        since = self.glimpses.see(seat, card, patch.centre, self.frame_no)
        if since is not None:
            self.seen[seat] = _Seen(patch, since, card=card, box=patch.mask_box)

    def _left_lying(self, seat: int) -> bool:
        """Is the card of the complete trick cleared at ``seat`` still lying there (its print
        where it lay)? Only while that trick lies on the table: taken, it went with it."""
        left = self.left.get(seat)
        return left is not None and bool(self.down) and not self.hand.trick and self.watch.still_there(*left)

    def _played(self, card: Card) -> bool:
        return any(p.card == card for p in self.hand.events) or any(
            s.card == card for s in self.seen.values())

    def _trick_no(self) -> int:
        return self.hand.trick_number or 12

    def _place(self) -> list[TrickEvent]:
        """Named cards into the hand, in turn order (a card at the wrong turn waits)."""
        out: list[TrickEvent] = []
        while self.hand.to_play is not None:
            if self.hand.trick == () and self.down:
                break  # the last trick is still on the table
            if not self.hand.trick and len(self.hands) > 1:
                self._keep_hands_led_by_first_card()
            seat = self.hand.to_play
            named = self.named.pop(seat, None)
            seen = self.seen.get(seat)
            if named is None and self.taken:
                if self.asked_taken != (self.hand.trick_number, seat):
                    self.asked_taken = (self.hand.trick_number, seat)
                    out.append(TrickAsk(self._trick_no(), seat, "taken", self.frame_no))
                break
            card = named if named is not None else seen.card if seen is not None else None
            if card is None or seat in self.down:
                break
            try:
                hands = [h.play(CardPlayed(self.hand.trick_number, seat, card)) for h in self.hands
                         if h.to_play == seat]
            except IllegalPlayError:
                if named is None:
                    seen.card, seen.asked = None, True
                out.append(TrickAsk(self._trick_no(), seat, "played", self.frame_no))
                break
            self.hands = hands
            out.append(TrickPlay(self.hand.events[-1].trick, seat, card, self.frame_no))
            if named is not None:  # not on the table any more (its trick was taken off)
                self.swept[seat] = card
                if not self.hand.trick:
                    self.taken = False  # the taken trick is complete: the next is read again
                    self.vanished.clear()
                continue
            self.watch.settle(seen.box)
            self.down[seat] = seen.card
            self.down_box[seat] = seen.box
            self.down_look[seat] = self.watch.look(seen.box)
            self.left.pop(seat, None)  # (the card of the trick before is gone from under it)
            del self.seen[seat]
        return out

    def _keep_hands_led_by_first_card(self) -> None:
        """Trump unknown: the trick's leader is the seat whose card lay first."""
        if not self.seen:
            return
        first = min(self.seen, key=lambda s: self.seen[s].since)
        led = [h for h in self.hands if h.to_play == first]
        if led:
            self.hands = led
