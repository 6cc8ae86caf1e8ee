"""The record of a hand played trick by trick, as the table's camera sees it.

Each card laid on the table is one :class:`CardPlayed` event (seat, trick, card), ready for
the journal as a plain dict (``to_event`` / ``from_event``). :class:`HandInPlay` folds
them: whose turn it is, the trick in progress, each complete trick's winner and the
running points of both pairs, the last trick (the one the rules let a player look at),
the whole-deck check, and the hand check of :mod:`kiosk.game.handcheck` (the first
renunci and its proof). It knows nobody's cards in advance: a card is refused only when it
cannot be right (already played, or a trick or seat that is not the one being played), so
a misread is asked about, never guessed.

Tricks are numbered from 1, seats 0-3 in playing order (pair A = seats 0 and 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from kiosk.game.cards import DECK, Card
from kiosk.game.errors import IllegalPlayError, InvalidCardError, MatchStateError
from kiosk.game.handcheck import TRICKS_PER_HAND, HandCheck, PlayedHand, card_from_code, check_hand
from kiosk.game.rules import Rules, Trump
from kiosk.game.seats import check_seat
from kiosk.game.tricks import winning_index

CARD_PLAYED = "card_played"
CARD_CORRECTED = "card_corrected"


def _trick_number(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TRICKS_PER_HAND:
        raise MatchStateError("a trick is numbered 1 to 12, not {value!r}", value=value)
    return value


@dataclass(frozen=True, slots=True)
class _CardEvent:
    trick: int
    seat: int
    card: Card
    TYPE = ""

    def __post_init__(self) -> None:
        _trick_number(self.trick)
        check_seat(self.seat)
        if not isinstance(self.card, Card):
            raise InvalidCardError("unknown card {text!r}", text=self.card)

    def to_event(self) -> dict:
        return {"type": self.TYPE, "trick": self.trick, "seat": self.seat, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class CardPlayed(_CardEvent):
    """One card laid on the table: journal event ``{"type": "card_played", "trick": 3,
    "seat": 1, "card": "9O"}`` (``trick`` 1-12, ``seat`` 0-3)."""

    TYPE = CARD_PLAYED


@dataclass(frozen=True, slots=True)
class CardCorrected(_CardEvent):
    """The table's correction of a card already recorded (a misread): journal event
    ``{"type": "card_corrected", "trick": 3, "seat": 1, "card": "8O"}``."""

    TYPE = CARD_CORRECTED


HandEvent = CardPlayed | CardCorrected
_EVENTS: dict[str, type[CardPlayed] | type[CardCorrected]] = {CARD_PLAYED: CardPlayed,
                                                               CARD_CORRECTED: CardCorrected}


def event_from_dict(event: object) -> HandEvent:
    """A journal event of a hand in play, typed (``MatchStateError`` when it is not one)."""
    kind = event.get("type") if isinstance(event, dict) else None
    if not isinstance(kind, str) or kind not in _EVENTS or set(event) != {"type", "trick", "seat", "card"}:
        raise MatchStateError("a card on the table is an event such as {{\"type\": \"card_played\", "
                              "\"trick\": 1, \"seat\": 0, \"card\": \"9O\"}}")
    return _EVENTS[kind](_trick_number(event["trick"]), check_seat(event["seat"]), card_from_code(event["card"]))


@dataclass(frozen=True, slots=True)
class TrickDone:
    """A complete trick: who led, its cards from the leader, its winner, and both pairs'
    hand points once it was won (card points plus one per trick)."""

    number: int
    lead: int
    cards: tuple[Card, Card, Card, Card]
    winner: int
    points_a: int
    points_b: int

    @property
    def points(self) -> dict[str, int]:
        return {"A": self.points_a, "B": self.points_b}

    def seat_of(self, card: Card) -> int:
        return (self.lead + self.cards.index(card)) % 4


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The whole deck's check of a hand: every one of the 48 cards once, 12 per seat."""

    missing: tuple[Card, ...]
    doubled: tuple[Card, ...]
    per_seat: tuple[int, int, int, int]

    @property
    def whole(self) -> bool:
        return not self.missing and not self.doubled and self.per_seat == (12, 12, 12, 12)


def deck_check(plays: Iterable[CardPlayed]) -> DeckCheck:
    """Which cards are missing or there twice, and how many each seat played."""
    seen: set[Card] = set()
    doubled: list[Card] = []
    per_seat = [0, 0, 0, 0]
    for p in plays:
        if p.card in seen and p.card not in doubled:
            doubled.append(p.card)
        seen.add(p.card)
        per_seat[p.seat] += 1
    missing = tuple(c for c in DECK if c not in seen)
    return DeckCheck(missing, tuple(doubled), (per_seat[0], per_seat[1], per_seat[2], per_seat[3]))


class HandInPlay:
    """A hand followed card by card. Immutable: ``play(event)`` returns a new one.

    Raises ``IllegalPlayError`` for a card that cannot be the next one: already played
    (a misread, or a card picked up again), a seat whose turn it is not, a trick that is not
    the one being played, or a card after the 48th.

    >>> hand = HandInPlay(Trump.OROS, first_lead=1)
    >>> hand = hand.play(CardPlayed(1, 1, Card.parse("1O"))).play(CardPlayed(1, 2, Card.parse("3O")))
    >>> hand.to_play, hand.trick_number
    (3, 1)
    """

    __slots__ = ("trump", "first_lead", "rules", "_plays", "_trick", "_done", "_first_seen")

    def __init__(self, trump: Trump | str, *, first_lead: int, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.trump = Trump.parse(trump)
        self.first_lead = check_seat(first_lead)
        self._plays: tuple[CardPlayed, ...] = ()
        self._trick: tuple[Card, ...] = ()
        self._done: tuple[TrickDone, ...] = ()
        self._first_seen: dict[Card, int] = {}

    @classmethod
    def from_events(cls, events: Iterable[dict], trump: Trump | str, *, first_lead: int,
                    rules: Rules | None = None) -> "HandInPlay":
        """The hand as its journal events left it (a restart resumes at the same trick)."""
        hand = cls(trump, first_lead=first_lead, rules=rules)
        for event in events:
            hand = hand.apply(event_from_dict(event))
        return hand

    def apply(self, event: HandEvent) -> "HandInPlay":
        """The hand after one journal event: a card played, or a card corrected."""
        if isinstance(event, CardCorrected):
            return self.corrected(event)
        return self.play(event)

    def corrected(self, event: CardCorrected) -> "HandInPlay":
        """The hand with the card of ``event.seat`` in ``event.trick`` replaced, every card
        after it played again (refused when they no longer fit, e.g. the trick's winner, who
        led the next one, changes)."""
        at = next((i for i, p in enumerate(self._plays) if (p.trick, p.seat) == (event.trick, event.seat)), None)
        if at is None:
            raise IllegalPlayError("seat {seat} has no card in trick {trick} to correct", seat=event.seat,
                                   trick=event.trick)
        first = self._first_seen.get(event.card)
        if first is not None and self._plays[at].card != event.card:
            raise IllegalPlayError("{card} was already played in trick {first}", card=event.card.code,
                                   first=first).within("trick {trick}, seat {seat}", trick=event.trick,
                                                       seat=event.seat)
        plays = list(self._plays)
        plays[at] = CardPlayed(event.trick, event.seat, event.card)
        hand = HandInPlay(self.trump, first_lead=self.first_lead, rules=self.rules)
        for p in plays:
            hand = hand.play(p)
        return hand

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandInPlay):
            return NotImplemented
        return (self.trump, self.first_lead, self.rules, self._plays) == \
            (other.trump, other.first_lead, other.rules, other._plays)

    __hash__ = None  # type: ignore[assignment]

    # -- where the hand is -------------------------------------------------------------
    @property
    def lead(self) -> int:
        """The seat that leads the trick in progress (or would lead the next one)."""
        return self._done[-1].winner if self._done else self.first_lead

    @property
    def complete(self) -> bool:
        return len(self._done) == TRICKS_PER_HAND

    @property
    def to_play(self) -> int | None:
        """The seat whose card comes next (None once the 48 cards are played)."""
        return None if self.complete else (self.lead + len(self._trick)) % 4

    @property
    def trick_number(self) -> int | None:
        """The trick being played, 1-12 (None once the hand is complete)."""
        return None if self.complete else len(self._done) + 1

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, from its leader."""
        return self._trick

    @property
    def tricks(self) -> tuple[TrickDone, ...]:
        """The complete tricks, each with its winner and the running points."""
        return self._done

    @property
    def last_trick(self) -> TrickDone | None:
        """The last complete trick: the only one a player may look at (Reglament 13)."""
        return self._done[-1] if self._done else None

    @property
    def points(self) -> dict[str, int]:
        """Both pairs' hand points so far (card points plus one per trick won)."""
        return self._done[-1].points if self._done else {"A": 0, "B": 0}

    @property
    def events(self) -> tuple[CardPlayed, ...]:
        return self._plays

    def deck(self) -> DeckCheck:
        return deck_check(self._plays)

    def played_hand(self) -> PlayedHand:
        tricks = tuple(t.cards for t in self._done) + ((self._trick,) if self._trick else ())
        return PlayedHand(self.trump, self.first_lead, tricks, play_rule=self.rules.play_rule,
                          three_second=self.rules.three_second)

    def check(self) -> HandCheck:
        """Winners, points and the first renunci proven so far (kiosk.game.handcheck)."""
        return check_hand(self.played_hand())

    # -- the next card -----------------------------------------------------------------
    def play(self, event: CardPlayed) -> "HandInPlay":
        seat, number = self.to_play, self.trick_number
        if seat is None or number is None:
            raise IllegalPlayError("every card of this hand has been played")
        if event.trick != number:
            raise IllegalPlayError("trick {trick} is being played, not trick {value}", trick=number,
                                   value=event.trick)
        if event.seat != seat:
            raise IllegalPlayError("it is seat {seat}'s turn to play, not seat {value}'s", seat=seat,
                                   value=event.seat).within("trick {trick}", trick=number)
        first = self._first_seen.get(event.card)
        if first is not None:
            raise IllegalPlayError("{card} was already played in trick {first}", card=event.card.code,
                                   first=first).within("trick {trick}, seat {seat}", trick=number, seat=seat)
        new = object.__new__(HandInPlay)
        for name in HandInPlay.__slots__:
            setattr(new, name, getattr(self, name))
        new._plays = self._plays + (event,)
        new._first_seen = dict(self._first_seen)
        new._first_seen[event.card] = number
        trick = self._trick + (event.card,)
        if len(trick) < 4:
            new._trick = trick
            return new
        lead = self.lead
        winner = (lead + winning_index(trick, self.trump.suit, three_second=self.rules.three_second)) % 4
        points = dict(self.points)
        points["A" if winner % 2 == 0 else "B"] += sum(c.points for c in trick) + 1
        done = TrickDone(number, lead, (trick[0], trick[1], trick[2], trick[3]), winner, points["A"], points["B"])
        new._done = self._done + (done,)
        new._trick = ()
        return new
