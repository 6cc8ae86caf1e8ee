"""The match: an immutable fold of events (see the events table in docs/ARCHITECTURE.md).

``match.apply(event)`` validates one event and returns a NEW match; the old one is
untouched. ``undo`` / ``redo`` / ``edit`` are events too, so the journal replays them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from kiosk.game.bidding import BID_TYPES, Contract
from kiosk.game.log import AppendLog
from kiosk.game.errors import (
    HAND, N_, BotifarraError, IllegalBidError, InvalidScoreError, MatchStateError, Message,
    RulesError,
)
from kiosk.game.rules import Doubling, Rules, Trump
from kiosk.game.scoring import (
    HandPoints, HandRecord, points_from_piles, points_from_total, score_penalty, score_points,
)
from kiosk.game.seats import TEAMS, check_seat, check_team, roles_for, Roles, team_of

EVENT_TYPES = ("match_created", "trump", "delegate", "double", "play", "hand_scored",
               "penalty", "misdeal", "undo", "redo", "edit", "time_up", "match_ended")
# the events _extend folds without apply's checks of shape (undo and redo refold)
_PLAIN_EVENTS = frozenset(EVENT_TYPES) - {"match_created", "undo", "redo"}
SOURCES = ("camera", "cards", "points", "json")
END_REASONS = ("target", "hands", "time", "abandoned")


def _with(obj, **changes):
    """``dataclasses.replace`` for the fold's own frozen records, which have no
    ``__post_init__`` to run: a copy with ``changes``, several times quicker (it runs once
    per event, so a whole match's fold depends on it)."""
    new = object.__new__(type(obj))
    if hasattr(obj, "__dict__"):
        new.__dict__.update(obj.__dict__)
    else:
        for name in type(obj).__slots__:
            object.__setattr__(new, name, getattr(obj, name))
    for name, value in changes.items():
        object.__setattr__(new, name, value)
    return new


def _copy_json(value):
    """A deep copy of JSON data (dicts, lists, scalars); what ``copy.deepcopy`` does for an
    event, several times faster (no memo: JSON has no shared or cyclic parts)."""
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy_json(v) for v in value]
    return value


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
        d: dict = {}
        if self.trump is not None:
            d["trump"] = self.trump.value
            d["delegated"] = self.delegated
            d["doubling"] = self.doubling.key
        if self.kind == "misdeal":
            d["misdeal"] = True
        elif self.kind == "penalty":
            d["penalty"] = self.offender
        elif self.piles is not None:
            d["piles"] = {t: list(v) for t, v in self.piles.items()}
        else:
            d["points"] = dict(self.points_given or {})
        d["source"] = self.source
        if self.evidence is not None:
            d["evidence"] = self.evidence
        return d


@dataclass(frozen=True, slots=True)
class _Ending:
    at: int | None            # number of hands after which the match ended (None: not over)
    reason: str | None = None
    winner: str | None = None


def _team_word(team: str, names: dict[str, str]) -> Message:
    name = names.get(team)
    if not name or name == team:
        return Message(N_("team {team}"), team=team)
    return Message(N_("team {team} ({name})"), team=team, name=name)


def _end_check(rules: Rules, totals: dict[str, int], counted: int, k: int,
               stop_after: int | None) -> _Ending | None:
    """Does the match end after ``k`` hands (``counted`` of them not misdeals)?"""
    if rules.target is not None:
        for t in TEAMS:
            if totals[t] >= rules.target:
                return _Ending(k, "target", t)
    lead = None if totals["A"] == totals["B"] else max(TEAMS, key=lambda t: totals[t])
    if rules.max_hands is not None and counted >= rules.max_hands:
        extra = counted - rules.max_hands
        if lead is not None and (not rules.tie_extra_hands or extra % rules.tie_extra_hands == 0):
            return _Ending(k, "hands", lead)
        if lead is None and not rules.tie_extra_hands:
            return _Ending(k, "hands", None)
    if stop_after is not None and k >= stop_after:
        return _Ending(k, "time", lead)
    return None


@dataclass(frozen=True, slots=True)
class _Tally:
    """The hands with running totals, and where the match ended (derived from entries)."""

    records: AppendLog = field(default_factory=AppendLog)  # of HandRecord
    counted: int = 0
    ending: _Ending = _Ending(None)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.records[-1].totals) if self.records else {"A": 0, "B": 0}


def _tally_add(rules: Rules, first_dealer: int, tally: _Tally, e: _Entry,
               stop_after: int | None) -> _Tally:
    """The tally with one more finished hand (the match must not be over)."""
    i = len(tally.records)
    totals = tally.totals
    counted = tally.counted
    dealer = (first_dealer + i) % 4
    if e.kind == "misdeal":
        scored = {"A": 0, "B": 0}
        multiplier = None
    else:
        multiplier = rules.multiplier(e.trump, e.doubling)  # type: ignore[arg-type]
        if e.kind == "penalty":
            scored = score_penalty(e.offender, multiplier)  # type: ignore[arg-type]
        else:
            scored = score_points(e.hand_points.points, multiplier)  # type: ignore[union-attr]
        counted += 1
    if rules.points_cap is not None:
        scored = {t: max(0, min(scored[t], rules.points_cap - totals[t])) for t in TEAMS}
    totals = {t: totals[t] + scored[t] for t in TEAMS}
    hp = e.hand_points
    record = HandRecord(
        number=i + 1, dealer=dealer, kind=e.kind, trump=e.trump,
        trump_team=team_of(dealer) if e.trump is not None else None,
        delegated=e.delegated, doubling=e.doubling, multiplier=multiplier,
        points=dict(hp.points) if hp else None,
        card_points=dict(hp.card_points) if hp and hp.card_points else None,
        tricks=dict(hp.tricks) if hp and hp.tricks else None,
        scored=scored, totals=dict(totals), source=e.source, evidence=e.evidence,
        offender=e.offender, piles=e.piles,
    )
    end = _end_check(rules, totals, counted, i + 1, stop_after) or _Ending(None)
    return _Tally(tally.records + (record,), counted, end)


def _tally(rules: Rules, first_dealer: int, entries: tuple[_Entry, ...],
           stop_after: int | None) -> _Tally:
    """The whole tally from scratch (after an edit); stops where the match ended."""
    t = _Tally(ending=_end_check(rules, {"A": 0, "B": 0}, 0, 0, stop_after) or _Ending(None))
    for e in entries:
        if t.ending.at is not None:
            break
        t = _tally_add(rules, first_dealer, t, e, stop_after)
    return t


@dataclass(frozen=True, slots=True)
class _Fold:
    entries: AppendLog = field(default_factory=AppendLog)  # of _Entry
    contract: Contract | None = None
    stop_after: int | None = None
    abandoned: bool = False
    tally: _Tally = _Tally()

    @property
    def over(self) -> bool:
        return self.abandoned or self.tally.ending.at is not None


@dataclass(frozen=True)
class Match:
    """A botifarra match, folded from its events. Never mutated: ``apply`` returns a new one."""

    rules: Rules
    first_dealer: int
    players: tuple[str | None, ...]
    team_names: dict[str, str]
    _events: AppendLog = field(repr=False)
    _done: AppendLog = field(repr=False, default_factory=AppendLog)
    _undone: AppendLog = field(repr=False, default_factory=AppendLog)
    _fold: _Fold = field(repr=False, default=_Fold())

    # -- building ---------------------------------------------------------------------
    @classmethod
    def create(cls, rules: Rules | dict | str | None = None, first_dealer: int = 0,
               players: list | None = None, team_names: dict | None = None) -> "Match":
        """A new match. ``rules`` may be a ``Rules``, a preset name or a rules dict."""
        if isinstance(rules, str):
            rules = Rules.from_dict({"preset": rules})
        elif rules is None or isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        if not isinstance(rules, Rules):
            raise RulesError("rules must be a Rules, a preset name or a dict")
        return cls._created({"type": "match_created", "rules": rules.to_dict(),
                             "first_dealer": first_dealer, "players": players,
                             "team_names": team_names})

    def rematch(self) -> "Match":
        """A new match for the same table: same rules, players and team names; the player
        on the right of the last dealer deals first (Reglament, 15)."""
        return Match.create(self.rules, first_dealer=self.dealer, players=list(self.players),
                            team_names=dict(self.team_names))

    @classmethod
    def _created(cls, event: dict) -> "Match":
        rules = Rules.from_dict(event.get("rules"))
        try:
            first_dealer = check_seat(event.get("first_dealer", 0))
        except RulesError:
            raise RulesError("first_dealer must be a seat 0-3, not {value!r}",
                             value=event.get("first_dealer")) from None
        players = event.get("players")
        if players is None:
            players = [None] * 4
        if not isinstance(players, (list, tuple)) or len(players) != 4 or not all(
                p is None or isinstance(p, str) for p in players):
            raise RulesError("players must be a list of 4 names (or null) in seat order")
        names = event.get("team_names")
        if names is None:
            names = {"A": "A", "B": "B"}
        if not isinstance(names, dict) or set(names) != {"A", "B"} or not all(
                isinstance(v, str) and v.strip() for v in names.values()):
            raise RulesError("team_names must be {{\"A\": name, \"B\": name}}")
        stored = {"type": "match_created", "rules": rules.to_dict(), "first_dealer": first_dealer,
                  "players": list(players), "team_names": dict(names)}
        m = cls(rules=rules, first_dealer=first_dealer, players=tuple(players),
                team_names=dict(names), _events=AppendLog([stored]),
                _fold=_Fold(contract=Contract(first_dealer)))
        return m

    @classmethod
    def from_events(cls, events: list[dict]) -> "Match":
        """Fold a journal's events (the first must be ``match_created``)."""
        if not isinstance(events, (list, tuple)) or not events:
            raise MatchStateError("no events: a match starts with match_created")
        first = events[0]
        if not isinstance(first, dict) or first.get("type") != "match_created":
            raise MatchStateError("the first event must be match_created")
        m = cls._created(first)
        run: list[dict] = []  # plain events folded together (see _extend); undo/redo one by one
        for ev in events[1:]:
            if isinstance(ev, dict) and ev.get("type") in _PLAIN_EVENTS:
                run.append(_copy_json(ev))
                continue
            m, run = m._extend(run), []
            m = m.apply(ev)
        return m._extend(run)

    @property
    def _ending(self) -> _Ending:
        f = self._fold
        if f.abandoned and f.tally.ending.at is None:
            return _Ending(len(f.entries), "abandoned", None)
        return f.tally.ending

    # -- reading ----------------------------------------------------------------------
    @property
    def events(self) -> list[dict]:
        return copy.deepcopy(list(self._events))

    def iter_events(self):
        """The events without copying them, for a caller that only reads them (the
        journal encodes each one)."""
        return iter(self._events)

    @property
    def hands(self) -> list[HandRecord]:
        return list(self._fold.tally.records)

    @property
    def totals(self) -> dict[str, int]:
        return self._fold.tally.totals

    @property
    def is_over(self) -> bool:
        return self._ending.at is not None

    @property
    def winner(self) -> str | None:
        return self._ending.winner

    @property
    def end_reason(self) -> str | None:
        """``"target" | "hands" | "time" | "abandoned"`` once over."""
        return self._ending.reason

    @property
    def hand_number(self) -> int:
        """The number (1-based) of the hand in progress (or the next one)."""
        return len(self._fold.entries) + 1

    @property
    def dealer(self) -> int:
        """The dealer of the hand in progress (once over: of the next match's first hand)."""
        return (self.first_dealer + len(self._fold.entries)) % 4

    @property
    def roles(self) -> Roles:
        return roles_for(self.dealer)

    @property
    def contract(self) -> Contract | None:
        """The bidding of the hand in progress (None once the match is over)."""
        return None if self.is_over else self._fold.contract

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        return self._fold.contract.phase  # type: ignore[union-attr]

    @property
    def time_up(self) -> bool:
        return self._fold.stop_after is not None

    def legal_bids(self) -> list[dict]:
        if self.is_over:
            return []
        return self._fold.contract.legal_bids(self.rules)  # type: ignore[union-attr]

    def available_events(self) -> list[str]:
        """The event types that make sense now (to enable buttons); bids: see ``legal_bids``."""
        out: list[str] = []
        if not self.is_over:
            c = self._fold.contract
            if c is not None and c.trump is not None:
                out += ["hand_scored", "penalty"]
            out += ["misdeal"]
            if not self.time_up:
                out.append("time_up")
            out.append("match_ended")
        if self._fold.entries:
            out.append("edit")
        if self.can_undo:
            out.append("undo")
        if self.can_redo:
            out.append("redo")
        return out

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def state(self) -> dict:
        """What a screen shows, as plain data (hands excluded)."""
        c = self.contract
        return {"phase": self.phase, "hand": self.hand_number, "dealer": self.dealer,
                "totals": self.totals, "winner": self.winner, "end_reason": self.end_reason,
                "contract": c.to_dict() if c else None}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self.rules, self.first_dealer, self.players, self.team_names, self._fold) == \
            (other.rules, other.first_dealer, other.players, other.team_names, other._fold)

    __hash__ = None  # type: ignore[assignment]

    # -- changing (returns a new Match) -------------------------------------------------
    def apply(self, event: dict) -> "Match":
        """Validate ``event`` and return the match after it. Raises a ``BotifarraError``."""
        if not isinstance(event, dict):
            raise MatchStateError("an event must be an object with a 'type'")
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            raise MatchStateError("unknown event type {kind!r}", kind=kind)
        ev = _copy_json(event)
        if kind == "match_created":
            raise MatchStateError("the match already exists")
        if kind == "undo":
            if not self._done:
                raise MatchStateError("nothing to undo")
            done = self._done[:-1]
            fold = _Fold(contract=Contract(self.first_dealer))
            for e in done:
                fold = self._step(fold, e)
            return self._next(ev, fold, done, self._undone + (self._done[-1],))
        if kind == "redo":
            if not self._undone:
                raise MatchStateError("nothing to redo")
            again = self._undone[-1]
            return self._next(ev, self._step(self._fold, again), self._done + (again,),
                              self._undone[:-1])
        return self._next(ev, self._step(self._fold, ev), self._done + (ev,), ())

    def _extend(self, events: list[dict]) -> "Match":
        """``apply`` of several events made by the core itself (match JSON's hands, already
        of the right shape and owned by no one else): one new Match for all of them, which
        keeps folding a whole match linear and quick."""
        if not events:
            return self
        fold = self._fold
        contract, bidding = fold.contract, False
        for ev in events:
            if ev["type"] in BID_TYPES and contract is not None and not fold.over:
                # a bid changes the contract only: one new _Fold for all of a hand's bids
                try:
                    contract = contract.bid(ev, self.rules, players=self.players)
                except BotifarraError as e:
                    raise _in_hand(e, len(fold.entries) + 1) from None
                bidding = True
                continue
            if bidding:
                fold, bidding = _with(fold, contract=contract), False
            fold = self._step(fold, ev)
            contract = fold.contract
        if bidding:
            fold = _with(fold, contract=contract)
        return _with(self, _events=self._events + events, _done=self._done + events,
                     _undone=AppendLog(), _fold=fold)

    def _next(self, ev: dict, fold: AppendLog, done: AppendLog, undone: AppendLog) -> "Match":
        return _with(self, _events=self._events + (ev,), _done=done, _undone=undone, _fold=fold)

    def _over_error(self, fold: _Fold) -> MatchStateError:
        hands, end = fold.tally.records, fold.tally.ending
        if fold.abandoned and end.at is None:
            return MatchStateError("the match is over (it was stopped)")
        if end.reason == "target":
            return MatchStateError("the match is over: {winner} reached {points} in hand {at}",
                                   winner=_team_word(end.winner, self.team_names),
                                   points=hands[end.at - 1].totals[end.winner], at=end.at)
        if end.reason == "time":
            return MatchStateError("the match is over: time ran out")
        return MatchStateError("the match is over after {at} hands", at=end.at)

    def _step(self, fold: _Fold, ev: dict) -> _Fold:
        number = len(fold.entries) + 1
        try:
            return self._step_inner(fold, ev, number)
        except BotifarraError as e:
            if ev.get("type") in ("edit",):
                raise
            raise _in_hand(e, number) from None

    def _step_inner(self, fold: _Fold, ev: dict, number: int) -> _Fold:
        kind = ev["type"]
        if kind == "edit":
            return self._edit(fold, ev)
        if fold.over:
            raise self._over_error(fold)
        contract = fold.contract
        assert contract is not None
        if kind in BID_TYPES:
            return _with(fold, contract=contract.bid(ev, self.rules, players=self.players))
        if kind == "time_up":
            if fold.stop_after is not None:
                raise MatchStateError("time is already up")
            stop = len(fold.entries) + (1 if contract.started else 0)
            t = fold.tally
            end = _end_check(self.rules, t.totals, t.counted, len(fold.entries), stop) or _Ending(None)
            return _with(fold, stop_after=stop, tally=replace(t, ending=end))
        if kind == "match_ended":
            reason = ev.get("reason", "abandoned")
            if not isinstance(reason, str):
                raise MatchStateError("match_ended: reason must be text such as 'abandoned'")
            return _with(fold, abandoned=True)
        entry = entry_from_event(contract, ev)
        entries = fold.entries + (entry,)
        tally = _tally_add(self.rules, self.first_dealer, fold.tally, entry, fold.stop_after)
        return _with(fold, entries=entries, tally=tally,
                       contract=Contract((self.first_dealer + len(entries)) % 4))

    def _edit(self, fold: _Fold, ev: dict) -> _Fold:
        index = ev.get("hand")
        n = len(fold.entries)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
            if n == 0:
                raise MatchStateError("edit: no hand has been scored yet")
            if isinstance(index, int) and not isinstance(index, bool):
                raise MatchStateError("edit: there is no hand {number} to change "
                                      "(hands 1 to {n} are finished; 'hand' counts from 0)",
                                      number=index + 1, n=n)
            raise MatchStateError("edit: 'hand' must be the index of a finished hand (0 to {last})",
                                  last=n - 1)
        number = index + 1
        data = ev.get("data")
        dealer = (self.first_dealer + index) % 4
        if isinstance(data, dict) and "source" not in data:  # a correction typed at the kiosk
            data = {**data, "source": "points" if "points" in data else "cards"}
        try:
            entry = entry_from_hand_json(data, dealer, self.rules)
        except BotifarraError as e:
            raise _in_hand(e, number) from None
        entries = fold.entries[:index] + (entry,) + fold.entries[index + 1:]
        new = _with(fold, entries=entries,
                      tally=_tally(self.rules, self.first_dealer, entries, fold.stop_after))
        end = new.tally.ending
        if end.at is not None and end.at < n:
            raise MatchStateError(
                "with this change the match would end after hand {at}, "
                "but {more} more hand(s) were played; undo those first",
                at=end.at, more=n - end.at).within(HAND, number=number)
        if end.at is not None and fold.contract is not None and fold.contract.started:
            raise MatchStateError(
                "with this change the match would end after hand {at}, "
                "but hand {next} has already begun; undo its bids first",
                at=end.at, next=n + 1).within(HAND, number=number)
        return new

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        from kiosk.game.matchjson import match_to_json
        return match_to_json(self)

    @classmethod
    def from_json(cls, data: dict) -> "Match":
        from kiosk.game.matchjson import match_from_json
        return match_from_json(data)


def entry_from_event(contract: Contract, ev: dict) -> _Entry:
    """A finished hand from its closing event (hand_scored, penalty or misdeal)."""
    kind = ev["type"]
    source = ev.get("source", "cards")
    if source not in SOURCES:
        raise InvalidScoreError("unknown source {source!r} (camera, cards, points or json)", source=source)
    evidence = ev.get("evidence")
    if evidence is not None and not isinstance(evidence, str):
        raise InvalidScoreError("evidence must be an image path or null")
    common = dict(trump=contract.trump, delegated=contract.delegated,
                  doubling=contract.doubling, source=source, evidence=evidence)
    if kind == "misdeal":
        if contract.trump is None:  # a delegate without trump says nothing about the void hand
            common["delegated"] = False
        return _Entry(kind="misdeal", **common)
    if contract.trump is None:
        if kind == "penalty":
            raise IllegalBidError("trump has not been chosen, so a penalty cannot be scored yet")
        raise IllegalBidError("trump has not been chosen, so the hand cannot be scored yet")
    if kind == "penalty":
        offender = ev.get("offender")
        try:
            check_team(offender)
        except RulesError:
            raise InvalidScoreError("penalty: the offender must be team 'A' or 'B', not {value!r}",
                                    value=offender) from None
        return _Entry(kind="penalty", offender=offender, **common)
    # hand_scored
    piles, points = ev.get("piles"), ev.get("points")
    if (piles is None) == (points is None):
        raise InvalidScoreError("give either the piles or one team's points")
    if piles is not None:
        hp = points_from_piles(piles)
        stored = {t: tuple(c.upper().strip() if isinstance(c, str) else str(c) for c in piles[t])
                  for t in TEAMS if t in piles}
        return _Entry(kind="played", hand_points=hp, piles=stored, **common)
    hp = points_from_total(points)
    return _Entry(kind="played", hand_points=hp, points_given=dict(points), **common)


def entry_from_hand_json(data: object, dealer: int, rules: Rules) -> _Entry:
    """A finished hand from its match-JSON form, checked like the events it stands for."""
    from kiosk.game.matchjson import hand_events
    contract = Contract(dealer)
    events = hand_events(data, dealer)
    for ev in events[:-1]:
        contract = contract.bid(ev, rules)
    return entry_from_event(contract, events[-1])
