"""One finished hand of a game other than the pair game: as entered (``VariantEntry``), as
the match shows it (``VariantHand``), its JSON and how it scores.

A hand ends with every player's pile (together the game's deck), every player's points
(together 72), a renunci (``penalty``: the offender's seat) or a misdeal.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.handjson import (
    check_dealer, check_trump_chosen, ended_json, is_misdeal, result_event, result_source,
)
from kiosk.game.errors import IllegalBidError, InvalidScoreError, MatchStateError, RulesError
from kiosk.game.rules import Doubling, Trump
from kiosk.game.variantbid import Call, bid_events, check_seat
from kiosk.game.variantrules import VariantRules
from kiosk.game.variants import Variant

HAND_KEYS = frozenset({"trump", "delegated", "doubling", "piles", "points", "penalty", "misdeal",
                       "source", "evidence", "dealer"})


@dataclass(frozen=True, slots=True)
class VariantEntry:
    """One finished hand as entered (before totals)."""

    kind: str                                   # played | penalty | misdeal
    trump: Trump | None = None
    doubling: Doubling = Doubling.NONE
    doubled_by: tuple[int, ...] = ()
    points: tuple[int, ...] | None = None
    card_points: tuple[int, ...] | None = None  # from piles only
    tricks: tuple[int, ...] | None = None       # from piles only
    piles: tuple[tuple[str, ...], ...] | None = None
    offender: int | None = None
    source: str = "cards"
    evidence: str | None = None

    def to_json(self) -> dict:
        said = {} if self.trump is None else {"trump": self.trump.value,
                                              "doubling": self.doubling.key}
        piles = None if self.piles is None else [list(p) for p in self.piles]
        return ended_json(said, self.kind, self.offender, piles, list(self.points or ()),
                          self.source, self.evidence)


@dataclass(frozen=True, slots=True)
class VariantHand:
    """One finished hand as the match shows it: every list has one item per seat."""

    number: int                       # 1-based
    dealer: int                       # who chose trump
    kind: str                         # "played" | "penalty" | "misdeal"
    trump: Trump | None
    doubling: Doubling
    doubled_by: tuple[int, ...]
    multiplier: int | None
    points: tuple[int, ...] | None
    card_points: tuple[int, ...] | None
    tricks: tuple[int, ...] | None
    scored: tuple[int, ...]
    totals: tuple[int, ...]
    source: str
    evidence: str | None = None
    offender: int | None = None
    piles: tuple[tuple[str, ...], ...] | None = None

    def to_dict(self) -> dict:
        def listed(v):
            return None if v is None else list(v)
        return {"number": self.number, "dealer": self.dealer, "kind": self.kind,
                "trump": self.trump.value if self.trump else None,
                "doubling": self.doubling.key, "doubled_by": list(self.doubled_by),
                "multiplier": self.multiplier, "points": listed(self.points),
                "card_points": listed(self.card_points), "tricks": listed(self.tricks),
                "scored": list(self.scored), "totals": list(self.totals),
                "source": self.source, "evidence": self.evidence, "offender": self.offender}


def hand_scores(game: Variant, rules: VariantRules, e: VariantEntry) -> tuple[tuple[int, ...], int | None]:
    """What each seat scores for a hand (before any cap), and the multiplier (None: misdeal).

    Renunci: rector i vicari as the pair game (the other player scores 36 x multiplier);
    without pairs (``rules.renunci``) ``share``: the offender scores -baseline x multiplier
    (as if he took nothing) and the others share it; ``each``: every other player scores
    baseline x multiplier and the offender pays them all. Both add up to 0."""
    n = game.players
    if e.kind == "misdeal":
        return (0,) * n, None
    m = rules.base.multiplier(e.trump, e.doubling)  # type: ignore[arg-type]
    if e.kind == "played":
        return tuple(game.score(list(e.points or ()), m)), m
    off, base = e.offender, game.baseline
    if game.pair_style:
        return tuple(0 if s == off else base * m for s in range(n)), m
    if rules.renunci == "each":
        return tuple(-(n - 1) * base * m if s == off else base * m for s in range(n)), m
    return tuple(-base * m if s == off else base * m // (n - 1) for s in range(n)), m


def entry_from_event(game: Variant, call: Call, ev: dict) -> VariantEntry:
    """A finished hand from its closing event (hand_scored, penalty or misdeal)."""
    kind = ev["type"]
    source, evidence = result_source(ev)
    said = (call.trump, call.doubling, call.doubled_by)
    if kind == "misdeal":
        return VariantEntry("misdeal", *said, source=source, evidence=evidence)
    check_trump_chosen(call.trump, kind)
    if kind == "penalty":
        offender = ev.get("offender")
        try:
            check_seat(offender, game.players)
        except RulesError:
            raise InvalidScoreError("penalty: the offender must be a seat 0 to {last}, not {value!r}",
                                    last=game.players - 1, value=offender) from None
        return VariantEntry("penalty", *said, offender=offender, source=source, evidence=evidence)
    piles, points = ev.get("piles"), ev.get("points")
    if (piles is None) == (points is None):
        raise InvalidScoreError("give either every player's pile or every player's points")
    if piles is not None:
        cp, tricks, tp = game.counts(piles)
        stored = tuple(tuple(c.upper().strip() if isinstance(c, str) else str(c) for c in p)
                       for p in piles)
        return VariantEntry("played", *said, points=tuple(c + t for c, t in zip(cp, tp)),
                            card_points=tuple(cp), tricks=tuple(tricks), piles=stored,
                            source=source, evidence=evidence)
    if not isinstance(points, list):
        raise InvalidScoreError("points must be a list, one per seat, such as [20, 14, 18, 20]")
    game.score(points)  # checks them: whole numbers 0-72, one per seat, adding up to 72
    return VariantEntry("played", *said, points=tuple(points), source=source, evidence=evidence)


def hand_events(game: Variant, data: object, dealer: int) -> list[dict]:
    """The events one hand of a variant's match JSON stands for (bids, play, the result)."""
    if not isinstance(data, dict):
        raise MatchStateError(
            "a hand must be an object such as {{\"trump\": \"oros\", \"points\": [20, 14, 18, 20]}}")
    if not HAND_KEYS.issuperset(data):
        unknown = sorted(set(data) - HAND_KEYS)
        raise MatchStateError("unknown field {field!r} (use trump, doubling, piles, points, "
                              "penalty or misdeal)", field=unknown[0])
    check_dealer(data, dealer)
    delegated = data.get("delegated", False)  # false is harmless (the pair JSON writes it)
    if not isinstance(delegated, bool):
        raise MatchStateError("delegated must be true or false")
    if delegated:
        raise IllegalBidError("there is no delegating in this game: the dealer chooses trump")
    misdeal = is_misdeal(data)
    events: list[dict] = []
    if data.get("trump") is not None:
        trump = Trump.parse(data["trump"])
        events = bid_events(game, dealer, trump, Doubling.parse(data.get("doubling")))
    elif not misdeal:
        raise MatchStateError("trump is missing (oros, copes, espases, bastos or botifarra)")
    elif data.get("doubling") not in (None, "none"):
        raise MatchStateError("doubling or delegated given without trump")
    events.append(result_event(data, misdeal))
    return events
