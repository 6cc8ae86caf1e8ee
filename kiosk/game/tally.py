"""A match's finished hands and their running totals: the part of the fold that scores.

``_Entry`` is one finished hand as entered; ``_Tally`` the hand records with totals and
where the match ended. Each hand adds to the tally in constant time (``AppendLog``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kiosk.game.bidding import Contract
from kiosk.game.errors import (
    HAND, N_, BotifarraError, InvalidScoreError, Message, RulesError,
)
from kiosk.game.finished import NOT_OVER, Ending
from kiosk.game.handjson import SOURCES, check_trump_chosen, ended_json, hand_events, result_source  # noqa: F401
from kiosk.game.log import AppendLog
from kiosk.game.rules import Doubling, Rules, Trump
from kiosk.game.scoring import (
    CODES, HandPoints, HandRecord, points_from_piles, points_from_total, score_penalty, score_points,
)
from kiosk.game.seats import TEAMS, check_team



def _in_hand(err: BotifarraError, number: int) -> BotifarraError:
    """The same error said about hand ``number`` (``hand 3: ...``; ``err.hand`` == 3)."""
    if str(err).startswith(f"hand {number}"):
        return err
    return err.within(HAND, number=number)


@dataclass(frozen=True, slots=True)
class _Entry:
    """One finished hand as entered (before totals)."""

    kind: str                              # played | penalty | misdeal
    trump: Trump | None = None
    delegated: bool = False
    doubling: Doubling = Doubling.NONE
    hand_points: HandPoints | None = None
    piles: dict[str, tuple[str, ...]] | None = None
    points_given: dict[str, int] | None = None
    offender: str | None = None
    source: str = "cards"
    evidence: str | None = None

    def to_json(self) -> dict:
        said = {} if self.trump is None else {
            "trump": self.trump.value, "delegated": self.delegated, "doubling": self.doubling.key}
        piles = None if self.piles is None else {t: list(v) for t, v in self.piles.items()}
        return ended_json(said, self.kind, self.offender, piles, dict(self.points_given or {}),
                          self.source, self.evidence)


def _team_word(team: str, names: dict[str, str]) -> Message:
    name = names.get(team)
    if not name or name == team:
        return Message(N_("team {team}"), team=team)
    return Message(N_("team {team} ({name})"), team=team, name=name)


def _end_check(rules: Rules, totals: dict[str, int], counted: int, k: int,
               stop_after: int | None) -> Ending | None:
    """Does the match end after ``k`` hands (``counted`` of them not misdeals)?"""
    if rules.target is not None:
        for t in TEAMS:
            if totals[t] >= rules.target:
                return Ending(k, "target", t)
    hands_done = rules.max_hands is not None and counted >= rules.max_hands
    timed_out = stop_after is not None and k >= stop_after
    if not (hands_done or timed_out):  # the usual case, once per hand: decided without the lead
        return None
    a, b = totals["A"], totals["B"]
    lead = None if a == b else ("A" if a > b else "B")
    if hands_done:
        extra = counted - rules.max_hands  # type: ignore[operator]
        if lead is not None and (not rules.tie_extra_hands or extra % rules.tie_extra_hands == 0):
            return Ending(k, "hands", lead)
        if lead is None and not rules.tie_extra_hands:
            return Ending(k, "hands", None)
    if timed_out:
        return Ending(k, "time", lead)
    return None


@dataclass(frozen=True, slots=True)
class _Tally:
    """The hands with running totals, and where the match ended (derived from entries)."""

    records: AppendLog = field(default_factory=AppendLog)  # of HandRecord
    counted: int = 0
    ending: Ending = NOT_OVER

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.records[-1].totals) if self.records else {"A": 0, "B": 0}


class _Running:
    """A tally being added to, hand by hand, with its running totals kept here; ``frozen()``
    gives the ``_Tally``. Folding a whole match through one of these builds one frozen
    tally at the end instead of one per hand."""

    __slots__ = ("rules", "first_dealer", "stop_after", "base", "added", "totals", "counted",
                 "ending")

    def __init__(self, rules: Rules, first_dealer: int, tally: _Tally,
                 stop_after: int | None) -> None:
        self.rules, self.first_dealer, self.stop_after = rules, first_dealer, stop_after
        self.base = tally
        self.added: list[HandRecord] = []
        self.totals = tally.totals
        self.counted = tally.counted
        self.ending = tally.ending

    def add(self, e: _Entry) -> None:
        """One more finished hand (the match must not be over)."""
        rules, totals = self.rules, self.totals
        i = len(self.base.records) + len(self.added)
        dealer = (self.first_dealer + i) % 4
        if e.kind == "misdeal":
            scored = {"A": 0, "B": 0}
            multiplier = None
        else:
            multiplier = rules.multiplier(e.trump, e.doubling)  # type: ignore[arg-type]
            if e.kind == "penalty":
                scored = score_penalty(e.offender, multiplier)  # type: ignore[arg-type]
            else:
                scored = score_points(e.hand_points.points, multiplier)  # type: ignore[union-attr]
            self.counted += 1
        if rules.points_cap is not None:
            scored = {t: max(0, min(scored[t], rules.points_cap - totals[t])) for t in TEAMS}
        totals = {"A": totals["A"] + scored["A"], "B": totals["B"] + scored["B"]}
        self.totals = totals
        hp = e.hand_points
        # HandRecord(number, dealer, kind, trump, trump_team, delegated, doubling, multiplier,
        # points, card_points, tricks, scored, totals, source, evidence, offender, piles),
        # positionally: one per hand of a match
        self.added.append(HandRecord(
            i + 1, dealer, e.kind, e.trump, TEAMS[dealer % 2] if e.trump is not None else None,
            e.delegated, e.doubling, multiplier,
            dict(hp.points) if hp else None,
            dict(hp.card_points) if hp and hp.card_points else None,
            dict(hp.tricks) if hp and hp.tricks else None,
            scored, dict(totals), e.source, e.evidence, e.offender, e.piles,
        ))
        self.ending = _end_check(rules, totals, self.counted, i + 1, self.stop_after) or NOT_OVER

    def frozen(self) -> _Tally:
        records = self.base.records + self.added if self.added else self.base.records
        return _Tally(records, self.counted, self.ending)


def _tally(rules: Rules, first_dealer: int, entries: tuple[_Entry, ...],
           stop_after: int | None) -> _Tally:
    """The whole tally from scratch (after an edit); stops where the match ended."""
    start = _Tally(ending=_end_check(rules, {"A": 0, "B": 0}, 0, 0, stop_after) or NOT_OVER)
    running = _Running(rules, first_dealer, start, stop_after)
    for e in entries:
        if running.ending.at is not None:
            break
        running.add(e)
    return running.frozen()


def entry_from_event(contract: Contract, ev: dict) -> _Entry:
    """A finished hand from its closing event (hand_scored, penalty or misdeal)."""
    kind = ev["type"]
    source, evidence = result_source(ev)
    # _Entry(kind, trump, delegated, doubling, hand_points, piles, points_given, offender,
    # source, evidence), positionally: one per hand of a match
    trump, delegated, doubling = contract.trump, contract.delegated, contract.doubling
    if kind == "misdeal":
        if trump is None:  # a delegate without trump says nothing about the void hand
            delegated = False
        return _Entry("misdeal", trump, delegated, doubling, None, None, None, None, source,
                      evidence)
    check_trump_chosen(trump, kind)
    if kind == "penalty":
        offender = ev.get("offender")
        try:
            check_team(offender)
        except RulesError:
            raise InvalidScoreError("penalty: the offender must be team 'A' or 'B', not {value!r}",
                                    value=offender) from None
        return _Entry("penalty", trump, delegated, doubling, None, None, None, offender, source,
                      evidence)
    # hand_scored
    piles, points = ev.get("piles"), ev.get("points")
    if (piles is None) == (points is None):
        raise InvalidScoreError("give either the piles or one team's points")
    if piles is not None:
        hp = points_from_piles(piles)
        stored = {t: _as_written(piles[t]) for t in TEAMS if t in piles}
        return _Entry("played", trump, delegated, doubling, hp, stored, None, None, source,
                      evidence)
    hp = points_from_total(points)
    return _Entry("played", trump, delegated, doubling, hp, None, dict(points), None, source,
                  evidence)


def _as_written(pile: Iterable[object]) -> tuple[str, ...]:
    """A valid pile as card codes ("9O"); most are written so already, and kept as they are."""
    cards = tuple(pile)
    try:
        if CODES.issuperset(cards):
            return cards  # type: ignore[return-value]
    except TypeError:  # a Card is hashable; anything else was refused by the check before
        pass
    return tuple(c.upper().strip() if isinstance(c, str) else str(c) for c in cards)


def entry_from_hand_json(data: object, dealer: int, rules: Rules) -> _Entry:
    """A finished hand from its match-JSON form, checked like the events it stands for."""
    contract = Contract(dealer)
    events = hand_events(data, dealer)
    for ev in events[:-1]:
        contract = contract.bid(ev, rules)
    return entry_from_event(contract, events[-1])
