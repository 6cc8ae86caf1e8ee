"""Scoring one hand: piles -> points -> what each pair scores.

72 points per hand (60 card points + 1 per trick). The pair with more than 36 scores
(points - 36) x multiplier; 36-36 scores nothing. A penalty gives the other pair
36 x multiplier; a misdeal scores nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from collections.abc import Iterable, Mapping

from kiosk.game.cards import DECK, Card, card_points
from kiosk.game.errors import N_, InvalidCardError, InvalidPileError, InvalidScoreError, Message
from kiosk.game.rules import Doubling, Trump
from kiosk.game.seats import TEAMS, check_team, other

POINTS_PER_HAND = 72
HALF = 36
TRICKS_PER_HAND = 12


# A card as text: rank 1-12 in ASCII digits, no leading zero, then the suit letter.
# ("09O", "²O" or full-width digits are refused: str.isdigit() would let them through.)
CARD_TEXT = re.compile(r"\s*(?:[1-9]|1[0-2])[OCEB]\s*", re.ASCII | re.IGNORECASE)


def _cards(items: Iterable[object], what: "str | Message") -> list[Card]:
    # a list (JSON array) or tuple: a dict or a set would give its keys in no card order
    if not isinstance(items, (list, tuple)):
        raise InvalidPileError("{what} must be a list of cards such as [\"9O\", \"1C\"]", what=what)
    out = []
    for x in items:
        if isinstance(x, Card):
            out.append(x)
        else:
            if isinstance(x, str) and not CARD_TEXT.fullmatch(x):
                raise InvalidCardError("unknown card {text!r}: write rank 1-12 then O, C, E or B "
                                       "(e.g. 9O)", text=x).within("{what}", what=what)
            try:
                out.append(Card.parse(x))  # type: ignore[arg-type]
            except InvalidCardError as e:
                raise e.within("{what}", what=what) from None
    return out


_CODE_INDEX = {c.code: i for i, c in enumerate(DECK)}
_INDEX_POINTS = [c.points for c in DECK]
CODES = frozenset(_CODE_INDEX)  # the cards as written in a match's piles ("9O")


def _indices(items: object) -> list[int] | None:
    """Deck positions of a list of exact card codes ("9O"), or None for anything else."""
    if not isinstance(items, (list, tuple)):
        return None
    try:
        return list(map(_CODE_INDEX.__getitem__, items))
    except (KeyError, TypeError):
        return None


def _valid_indices(cards: object, other: object, trick_size: int) -> list[int] | None:
    """The deck positions of the pile if it (and ``other``) are plainly valid, by deck
    positions (ints hash far quicker than cards: a 100,000-hand match has millions of
    them); None sends the pile to the full check, which says what is wrong."""
    mine = _indices(cards)
    if mine is None or len(mine) % trick_size:
        return None
    if other is None:
        return mine if len(set(mine)) == len(mine) else None
    rest = _indices(other)
    if rest is None or len(rest) % trick_size:
        return None
    # the whole deck, each card once: no card twice in a pile, none in both
    both = mine + rest
    return mine if len(both) == len(DECK) == len(set(both)) else None


def _valid_codes(cards: object, other: object, trick_size: int) -> list[Card] | None:
    mine = _valid_indices(cards, other, trick_size)
    return None if mine is None else [DECK[i] for i in mine]


def validate_pile(cards: Iterable[object], *, other: Iterable[object] | None = None,
                  deck: tuple[Card, ...] = DECK, trick_size: int = 4,
                  name: "str | Message" = Message(N_("pile")),
                  other_name: "str | Message" = Message(N_("the other pile"))) -> list[Card]:
    """Check that a pile could have been captured; returns it as cards.

    Whole tricks only, every card of ``deck``, no card twice; with ``other``: no card in
    both piles and together they make the whole deck.
    """
    if deck is DECK and trick_size > 0:
        quick = _valid_codes(cards, other, trick_size)
        if quick is not None:
            return quick
    pile = _cards(cards, name)
    deck_set = set(deck)
    for c in pile:
        if c not in deck_set:
            raise InvalidPileError("{name}: {card} is not in this deck", name=name, card=c.code)
    twice = [c for c, n in Counter(pile).items() if n > 1]
    if twice:
        raise InvalidPileError("{name}: {card} is there twice", name=name, card=twice[0].code)
    if len(pile) % trick_size:
        raise InvalidPileError("{name} has {count} cards, which is not whole tricks "
                               "(a multiple of {size})", name=name, count=len(pile), size=trick_size)
    if other is not None:
        rest = validate_pile(other, deck=deck, trick_size=trick_size, name=other_name)
        both = set(pile) & set(rest)
        if both:
            first = sorted(both, key=deck.index)[0]
            raise InvalidPileError("{card} is in both piles", card=first.code)
        missing = deck_set - set(pile) - set(rest)
        if missing:
            first = sorted(missing, key=deck.index)[0]
            raise InvalidPileError("the two piles do not make the whole deck: "
                                   "{count} card(s) missing, e.g. {card}",
                                   count=len(missing), card=first.code)
    return pile


def pile_points(cards: Iterable[Card], *, trick_size: int = 4) -> tuple[int, int]:
    """``(card_points, tricks)`` of a pile; the pair's hand total is their sum."""
    cards = list(cards)
    return card_points(cards), len(cards) // trick_size


@dataclass(frozen=True, slots=True)
class HandPoints:
    """The points each pair made in a hand (always 72 together)."""

    points: dict[str, int]
    card_points: dict[str, int] | None = None
    tricks: dict[str, int] | None = None


def points_from_piles(piles: Mapping[str, Iterable[object]]) -> HandPoints:
    """From one pair's pile, or both (disjoint, making the whole deck)."""
    if not isinstance(piles, Mapping) or not piles:
        raise InvalidPileError("piles must be an object such as {{\"A\": [\"9O\", ...]}}")
    for t in piles:
        if t not in TEAMS:
            raise InvalidPileError("piles: unknown team {team!r} (teams are A and B)", team=t)
    teams = [t for t in TEAMS if t in piles]
    first = teams[0]
    quick = _valid_indices(piles[first], piles["B"] if len(teams) == 2 else None, 4)
    if quick is not None:  # the usual pile, card codes as written: counted by deck position
        cp, tricks = sum(map(_INDEX_POINTS.__getitem__, quick)), len(quick) // 4
    else:  # the full check, which says what is wrong
        cp, tricks = pile_points(_checked_pile(piles, teams))
    mine = cp + tricks
    o = other(first)
    return HandPoints(
        points={first: mine, o: POINTS_PER_HAND - mine},
        card_points={first: cp, o: 60 - cp},
        tricks={first: tricks, o: TRICKS_PER_HAND - tricks},
    )


def _checked_pile(piles: Mapping[str, Iterable[object]], teams: list[str]) -> list[Card]:
    first = teams[0]
    if len(teams) == 2:
        pile = validate_pile(piles["A"], other=piles["B"], name=Message(N_("pile {team}"), team="A"),
                             other_name=Message(N_("pile {team}"), team="B"))
    else:
        pile = validate_pile(piles[first], name=Message(N_("pile {team}"), team=first))
    return pile


def points_from_total(points: Mapping[str, object]) -> HandPoints:
    """From one pair's hand total (``{"B": 41}``), or both if they make 72."""
    if not isinstance(points, Mapping) or not points:
        raise InvalidScoreError("points must be an object such as {{\"A\": 45}}")
    for t, v in points.items():
        if t not in TEAMS:
            raise InvalidScoreError("points: unknown team {team!r} (teams are A and B)", team=t)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidScoreError("points of team {team} must be a whole number, not {value!r}",
                                    team=t, value=v)
        if v < 0:
            raise InvalidScoreError("points of team {team} cannot be negative ({value})", team=t, value=v)
        if v > POINTS_PER_HAND:
            raise InvalidScoreError("points of team {team} are {value}, over the {total} of a hand",
                                    team=t, value=v, total=POINTS_PER_HAND)
    if len(points) == 2 and points["A"] + points["B"] != POINTS_PER_HAND:
        raise InvalidScoreError("points {a} + {b} do not make {total}", a=points["A"], b=points["B"],
                                total=POINTS_PER_HAND)
    t = next(iter(points))
    v = points[t]
    return HandPoints(points={t: v, other(t): POINTS_PER_HAND - v})  # type: ignore[operator]


def score_points(points: Mapping[str, int], multiplier: int) -> dict[str, int]:
    """The pair over 36 scores (points - 36) x multiplier; 36-36 nobody scores."""
    a = points["A"]
    if a > HALF:
        return {"A": (a - HALF) * multiplier, "B": 0}
    if a < HALF:
        return {"A": 0, "B": (POINTS_PER_HAND - a - HALF) * multiplier}
    return {"A": 0, "B": 0}


def score_penalty(offender: str, multiplier: int) -> dict[str, int]:
    """Renunci: the offending pair loses what was at stake: the other pair scores 36 x multiplier."""
    o = other(check_team(offender))
    return {offender: 0, o: HALF * multiplier}


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand as the match shows it."""

    number: int                       # 1-based
    dealer: int
    kind: str                         # "played" | "penalty" | "misdeal"
    trump: Trump | None
    trump_team: str | None
    delegated: bool
    doubling: Doubling
    multiplier: int | None
    points: dict[str, int] | None
    card_points: dict[str, int] | None
    tricks: dict[str, int] | None
    scored: dict[str, int]
    totals: dict[str, int]
    source: str
    evidence: str | None = None
    offender: str | None = None       # penalty only
    piles: dict[str, tuple[str, ...]] | None = None   # as entered (card codes)

    @property
    def winner(self) -> str | None:
        """The pair that scored in this hand (None: nobody)."""
        for t in TEAMS:
            if self.scored[t] > 0:
                return t
        return None

    def to_dict(self) -> dict:
        return {
            "number": self.number, "dealer": self.dealer, "kind": self.kind,
            "trump": self.trump.value if self.trump else None, "trump_team": self.trump_team,
            "delegated": self.delegated, "doubling": self.doubling.key,
            "multiplier": self.multiplier, "points": self.points,
            "card_points": self.card_points, "tricks": self.tricks,
            "scored": self.scored, "totals": self.totals, "source": self.source,
            "evidence": self.evidence, "offender": self.offender,
        }
