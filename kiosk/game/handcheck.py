"""A played hand checked trick by trick: the winners, the points and the first renunci with
the card that proves it.

Once the cards of a hand have been played, each player's hand at any moment is known: the
card he played then and every card he played after it. So each card can be checked against
the play rule of the table (:mod:`kiosk.game.tricks`), the way an arbiter proves a renunci
(RULES.md, "Renunci"): the offender later plays a card he had to choose from, the suit he
did not follow or the higher card he did not beat with.

Every rule of :mod:`kiosk.game.tricks` forbids a card only because of *another* card in
the hand (a card of the suit led, a card that beats, a lower card of the suit, a winning
trump). So a card forbidden by part of a hand is forbidden by the whole of it, and a card
allowed by the whole hand is allowed by any part of it. That is what lets an unfinished
hand be checked without guessing:

- a card is a renunci as soon as it is one whatever the offender's unplayed cards are
  (the cards he played since already forbid it, or the cards nobody has played yet leave
  him no hand that allows it);
- its proof is his first later card that was allowed then; it is given once that card is
  allowed whatever his unplayed cards are, and stays null until then (a complete hand
  always has it).

Tricks and seats: ``trick`` is 1-based (trick 1 is the first, "basa 1"); seats are 0-3 in
playing order, pair A = seats 0 and 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kiosk.game.cards import DECK, Card
from kiosk.game.errors import BotifarraError, IllegalPlayError, InvalidCardError, MatchStateError, RulesError
from kiosk.game.rules import PLAY_RULES, Rules, Trump
from kiosk.game.scoring import CARD_TEXT, TRICKS_PER_HAND
from kiosk.game.seats import check_seat
from kiosk.game.tricks import legal_cards, legal_kin, winning_index

_BY_CODE = {c.code: c for c in DECK}


def card_from_code(text: Card | str) -> Card:
    """A card as written in piles and tricks ("9O"); ``InvalidCardError`` for anything else."""
    exact = _BY_CODE.get(text) if isinstance(text, str) else None
    if exact is not None:
        return exact
    if isinstance(text, str) and not CARD_TEXT.fullmatch(text):  # "²O", "09O": not cards
        raise InvalidCardError("unknown card {text!r}: write rank 1-12 then O, C, E or B (e.g. 9O)", text=text)
    return Card.parse(text)


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """The cards of one hand in the order they were played.

    ``tricks``: each trick's cards from its leader; every trick but the last has 4 cards
    (the last has 1 to 4 while the hand is being played). The first trick is led by
    ``first_lead``, each next one by the winner of the one before.

    Raises ``IllegalPlayError`` for more than 12 tricks, a trick of the wrong size or a
    card played twice; ``RulesError`` for an unknown play rule or a seat that is not 0-3.

    >>> hand = PlayedHand(Trump.OROS, 1, (tuple(map(Card.parse, ["1O", "3O", "12O", "9O"])),))
    >>> check_hand(hand).winners
    (0,)
    """

    trump: Trump
    first_lead: int
    tricks: tuple[tuple[Card, ...], ...]
    play_rule: str = "lliure"
    three_second: bool = False

    def __post_init__(self) -> None:
        check_seat(self.first_lead)
        if self.play_rule not in PLAY_RULES:
            raise IllegalPlayError("unknown play rule {rule!r}: lliure, obligat or intermediate",
                                   rule=self.play_rule)
        if len(self.tricks) > TRICKS_PER_HAND:
            raise IllegalPlayError("a hand has at most 12 tricks, not {count}", count=len(self.tricks))
        first_seen: dict[Card, int] = {}
        for number, trick in enumerate(self.tricks, start=1):
            last = number == len(self.tricks)
            if len(trick) != 4 and not (last and 1 <= len(trick) <= 4):
                raise IllegalPlayError("a trick has 4 cards, not {count}",
                                       count=len(trick)).within("trick {trick}", trick=number)
            for card in trick:
                if card in first_seen:
                    raise IllegalPlayError("{card} was already played in trick {first}", card=card.code,
                                           first=first_seen[card]).within("trick {trick}", trick=number)
                first_seen[card] = number

    @classmethod
    def of(cls, tricks: Sequence[Sequence[Card | str]], *, trump: Trump | str, first_lead: int,
           rules: Rules | None = None) -> "PlayedHand":
        """A played hand from card codes and the match's rules (``play_rule``, ``three_second``)."""
        rules = rules or Rules()
        parsed = []
        for number, trick in enumerate(tricks, start=1):
            try:
                parsed.append(tuple(card_from_code(c) for c in trick))
            except BotifarraError as e:
                raise e.within("trick {trick}", trick=number) from None
        return cls(Trump.parse(trump), first_lead, tuple(parsed), play_rule=rules.play_rule,
                   three_second=rules.three_second)

    @property
    def complete(self) -> bool:
        """Are all 48 cards played?"""
        return len(self.tricks) == TRICKS_PER_HAND and len(self.tricks[-1]) == 4


@dataclass(frozen=True, slots=True)
class Play:
    """One card on the table: ``trick`` 1-based, ``before`` the cards of the trick before it."""

    trick: int
    seat: int
    card: Card
    before: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Proof:
    """The offender's later card that he could have played instead (1-based ``trick``)."""

    trick: int
    card: Card

    def to_json(self) -> dict:
        return {"trick": self.trick, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Renunci:
    """The first card played against the rule.

    ``proof``: the offender's first later card among those he had to choose from (None while
    his unplayed cards could still change which that is). ``shown_by``: his first later card
    that on its own shows the card was forbidden (a card of the suit led, a higher one, a
    lower one), what the table can be shown at once; None only when the renunci follows from
    the cards nobody has played yet. Not in the JSON (``to_json``) of ``hand check``.
    """

    trick: int
    seat: int
    card: Card
    proof: Proof | None
    shown_by: Proof | None = None

    def to_json(self) -> dict:
        return {"trick": self.trick, "seat": self.seat, "card": self.card.code,
                "proof": None if self.proof is None else self.proof.to_json()}


@dataclass(frozen=True, slots=True)
class HandCheck:
    """What a played hand says: each complete trick's winner, each pair's points (card points
    plus one per trick won, 72 for a whole hand) and the first renunci (None: none proven)."""

    winners: tuple[int, ...]
    points_a: int
    points_b: int
    renunci: Renunci | None

    @property
    def points(self) -> dict[str, int]:
        return {"A": self.points_a, "B": self.points_b}

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "points": self.points,
                "renunci": None if self.renunci is None else self.renunci.to_json()}


def plays_of(hand: PlayedHand) -> tuple[list[Play], list[int]]:
    """Every card with its seat and trick, in the order played, and each complete trick's winner."""
    plays: list[Play] = []
    winners: list[int] = []
    lead = hand.first_lead
    for number, trick in enumerate(hand.tricks, start=1):
        for i, card in enumerate(trick):
            plays.append(Play(number, (lead + i) % 4, card, trick[:i]))
        if len(trick) == 4:
            lead = (lead + winning_index(trick, hand.trump.suit, three_second=hand.three_second)) % 4
            winners.append(lead)
    return plays, winners


def pair_points(hand: PlayedHand, winners: Sequence[int]) -> tuple[int, int]:
    """Card points plus one per trick, for pairs A and B, over the complete tricks."""
    points = [0, 0]
    for trick, winner in zip(hand.tricks, winners):
        points[winner % 2] += sum(c.points for c in trick) + 1
    return points[0], points[1]


class _Holdings:
    """What is known of each player's hand at each of his plays."""

    def __init__(self, plays: list[Play]) -> None:
        self.mine: dict[int, list[Play]] = {s: [] for s in range(4)}
        for p in plays:
            self.mine[p.seat].append(p)
        played = {p.card for p in plays}
        self.unplayed = [c for c in DECK if c not in played]
        self.unknown = {s: TRICKS_PER_HAND - len(ps) for s, ps in self.mine.items()}
        self.rest: dict[int, list[Card]] = {s: [] for s in range(4)}
        for s in range(4):
            # when the three others have played all their cards, the unplayed ones are his
            if self.unknown[s] and all(self.unknown[o] == 0 for o in range(4) if o != s):
                self.rest[s], self.unknown[s] = self.unplayed, 0

    def at(self, play: Play) -> tuple[list[Card], list[Play], int]:
        """His known cards when he made ``play``, his plays from it on, how many are unknown."""
        mine = self.mine[play.seat]
        from_here = mine[next(i for i, p in enumerate(mine) if p is play):]
        return [p.card for p in from_here] + self.rest[play.seat], from_here, self.unknown[play.seat]


def check_hand(hand: PlayedHand) -> HandCheck:
    """Winners, points and the first renunci (with its proof) of a played hand."""
    plays, winners = plays_of(hand)
    a, b = pair_points(hand, winners)
    return HandCheck(tuple(winners), a, b, first_renunci(hand, plays))


def first_renunci(hand: PlayedHand, plays: list[Play]) -> Renunci | None:
    holdings = _Holdings(plays)
    trump = hand.trump.suit

    def legal(cards: list[Card], play: Play) -> list[Card]:
        return legal_cards(cards, play.before, trump=trump, play_rule=hand.play_rule,
                           three_second=hand.three_second)

    for play in plays:
        known, from_here, unknown = holdings.at(play)
        allowed = legal(known, play)
        if play.card in allowed:
            if unknown == 0:
                continue
            # allowed by what is known: a renunci only when too few of the unplayed cards
            # leave it allowed to fill the rest of his hand
            # (a card's legality is asked once for all unplayed cards of the same kin)
            kin: dict[tuple, bool] = {}
            winner = play.before[winning_index(play.before, trump, three_second=hand.three_second)] \
                if play.before else None
            fillers = (c for c in holdings.unplayed if _allowed_with(kin, c, known, play, winner, trump, hand, legal))
            if sum(1 for _ in zip(range(unknown), fillers)) == unknown:
                continue
        proof = None
        first = next((p for p in from_here[1:] if p.card in allowed), None)
        if first is not None and (unknown == 0 or first.card in legal(known + holdings.unplayed, play)):
            proof = Proof(first.trick, first.card)
        # every rule forbids a card because of one other card: the first such later card
        shown = next((p for p in from_here[1:] if play.card not in legal([play.card, p.card], play)), None)
        return Renunci(play.trick, play.seat, play.card, proof,
                       None if shown is None else Proof(shown.trick, shown.card))
    return None


def _allowed_with(kin: dict[tuple, bool], card: Card, known: list[Card], play: Play, winner: Card | None, trump,
                  hand: PlayedHand, legal) -> bool:
    """Whether ``play.card`` is legal from ``known`` with ``card`` in the hand too (``kin``:
    the answers so far, by the added card's ``legal_kin``; ``winner``: the card winning the
    trick when he played)."""
    key = legal_kin(card, known, winner, trump, hand.three_second)
    if key not in kin:
        kin[key] = play.card in legal(known + [card], play)
    return kin[key]


PLAYED_HAND_KEYS = ("rules", "trump", "first_lead", "tricks")


def read_played_hand(data: object) -> PlayedHand:
    """A played hand from its JSON object: ``{"rules": {...}, "trump": "oros", "first_lead": 1,
    "tricks": [["1O", "3O", "12O", "9O"], ...]}`` (``rules`` as in the match JSON: a preset
    name or an object, default the reglament)."""
    if not isinstance(data, dict):
        raise MatchStateError("a played hand must be an object such as {{\"trump\": \"oros\", "
                              "\"first_lead\": 1, \"tricks\": [[\"1O\", \"3O\", \"12O\", \"9O\"]]}}")
    unknown = sorted(set(data) - set(PLAYED_HAND_KEYS))
    if unknown:
        raise MatchStateError("unknown field {field!r} (a played hand has {fields})", field=unknown[0],
                              fields=", ".join(PLAYED_HAND_KEYS))
    rules = data.get("rules")
    if isinstance(rules, str):
        rules = {"preset": rules}
    if isinstance(rules, dict) and not isinstance(rules.get("preset", ""), str):
        raise RulesError("rules: preset must be a name")
    rules = Rules.from_dict(rules)
    if data.get("trump") is None:
        raise MatchStateError("trump is missing (oros, copes, espases, bastos or botifarra)")
    lead = data.get("first_lead")
    if isinstance(lead, bool) or not isinstance(lead, int) or lead not in (0, 1, 2, 3):
        raise MatchStateError("first_lead must be the seat 0-3 that leads the first trick, not {value!r}",
                              value=lead)
    tricks = data.get("tricks")
    if not isinstance(tricks, list) or not all(isinstance(t, list) for t in tricks):
        raise MatchStateError("tricks must be a list of tricks, each the list of its cards in the "
                              "order played")
    return PlayedHand.of(tricks, trump=data["trump"], first_lead=lead, rules=rules)
