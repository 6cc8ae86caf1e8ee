"""How events change a match: the fold behind :class:`kiosk.game.match.Match`.

``step`` applies one event of any kind to a frozen ``_Fold`` and returns a new one (what
``Match.apply`` and an undo's refold use). ``extend`` folds many events at once: bids and
results, the events of nearly every hand, go through mutable running state (the contract,
the new entries, a ``_Running`` tally) and one frozen ``_Fold`` is built at the end, so a
whole match folds in linear time without an immutable copy per event. The rarer events
(time up, the end of a match, an edit, anything once the match is over) go through
``step``, so both paths give the same results and the same errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Protocol

from kiosk.game.bidding import BID_TYPES, Contract
from kiosk.game.errors import BotifarraError, MatchStateError
from kiosk.game.finished import Ending, check_edit_end, edited_hand, over_error
from kiosk.game.handrecord import CARD_CORRECTED, CARD_PLAYED, HandInPlay, event_from_dict
from kiosk.game.log import AppendLog
from kiosk.game.rules import Rules
from kiosk.game.seats import roles_for
from kiosk.game.tally import (
    _end_check, _in_hand, _Running, _Tally, _tally, _team_word, entry_from_event,
    entry_from_hand_json,
)

RESULT_TYPES = frozenset({"hand_scored", "penalty", "misdeal"})
CARD_TYPES = frozenset({CARD_PLAYED, CARD_CORRECTED})
_BIDS = frozenset(BID_TYPES)


class _Table(Protocol):
    """What the fold needs of its match: fixed for the match's whole life."""

    rules: Rules
    first_dealer: int
    players: tuple[str | None, ...]
    team_names: dict[str, str]


def _with(obj, **changes):
    """``dataclasses.replace`` for the fold's own frozen records, which have no
    ``__post_init__`` to run: a copy with ``changes``, several times quicker."""
    new = object.__new__(type(obj))
    if hasattr(obj, "__dict__"):
        new.__dict__.update(obj.__dict__)
    else:
        for name in type(obj).__slots__:
            object.__setattr__(new, name, getattr(obj, name))
    for name, value in changes.items():
        object.__setattr__(new, name, value)
    return new


@dataclass(frozen=True, slots=True)
class _Fold:
    entries: AppendLog = field(default_factory=AppendLog)  # of _Entry
    contract: Contract | None = None
    stop_after: int | None = None
    abandoned: bool = False
    tally: _Tally = _Tally()
    cards: HandInPlay | None = None  # the hand in progress as played trick by trick (trick mode)
    played: tuple = ()  # per entry: its hand as played trick by trick (HandInPlay), or None

    @property
    def over(self) -> bool:
        return self.abandoned or self.tally.ending.at is not None


def step(table: _Table, fold: _Fold, ev: dict) -> _Fold:
    """``fold`` after one event (of a shape ``Match.apply`` checked). Errors name the hand."""
    number = len(fold.entries) + 1
    try:
        return _step(table, fold, ev)
    except BotifarraError as e:
        if ev.get("type") in ("edit",):
            raise
        raise _in_hand(e, number) from None


def _step(table: _Table, fold: _Fold, ev: dict) -> _Fold:
    kind = ev["type"]
    if kind == "edit":
        return _edit(table, fold, ev)
    if fold.over:
        raise _over_error(table, fold)
    contract = fold.contract
    assert contract is not None
    if kind in _BIDS:
        return _with(fold, contract=contract.bid(ev, table.rules, players=table.players))
    if kind == "time_up":
        if fold.stop_after is not None:
            raise MatchStateError("time is already up")
        stop = len(fold.entries) + (1 if contract.started else 0)
        t = fold.tally
        end = _end_check(table.rules, t.totals, t.counted, len(fold.entries), stop) or Ending(None)
        return _with(fold, stop_after=stop, tally=replace(t, ending=end))
    if kind == "match_ended":
        reason = ev.get("reason", "abandoned")
        if not isinstance(reason, str):
            raise MatchStateError("match_ended: reason must be text such as 'abandoned'")
        return _with(fold, abandoned=True)
    if kind in CARD_TYPES:
        return _with(fold, cards=_card(table, fold, contract, ev))
    entry = entry_from_event(contract, ev)
    running = _Running(table.rules, table.first_dealer, fold.tally, fold.stop_after)
    running.add(entry)
    entries = fold.entries + (entry,)
    return _with(fold, entries=entries, tally=running.frozen(), cards=None, played=fold.played + (fold.cards,),
                 contract=Contract((table.first_dealer + len(entries)) % 4))


def _card(table: _Table, fold: _Fold, contract: Contract, ev: dict) -> HandInPlay:
    """The hand in play after one card laid (or corrected): only once the bidding is closed;
    the first trick is led by the seat on the dealer's right (kiosk.game.handrecord)."""
    if not contract.closed or contract.trump is None:
        raise MatchStateError("the cards are played once the bidding is over")
    hand = fold.cards or HandInPlay(contract.trump, first_lead=roles_for(contract.dealer).first_lead,
                                    rules=table.rules)
    return hand.apply(event_from_dict(ev))


def extend(table: _Table, fold: _Fold, events: Iterable[dict]) -> tuple[_Fold, list[dict]]:
    """``fold`` after ``events`` (each as ``step`` would take it), and the events as a
    list. The same results and errors as one ``step`` per event, in linear time."""
    run = _Run(table, fold)
    for ev in events:
        run.event(ev)
    return run.frozen(), run.taken


def extend_hands(table: _Table, fold: _Fold,
                 hands: Iterable[tuple[list[dict], Contract | None]]) -> tuple[_Fold, list[dict]]:
    """``extend`` by whole hands: each is its events (bids, then the result) and the
    contract its bids lead to, made at once (None: unknown, the bids are made one by one)."""
    run = _Run(table, fold)
    for events, contract in hands:
        run.hand(events, contract)
    return run.frozen(), run.taken


class _Run:
    """The running state of ``extend``: the contract, the entries and the tally being
    added to, and the events taken; ``fold`` is brought up to date only when a rare event
    needs it (and by ``frozen()`` at the end)."""

    __slots__ = ("table", "fold", "contract", "entries", "running", "over", "taken", "played")

    def __init__(self, table: _Table, fold: _Fold) -> None:
        self.table = table
        self.taken: list[dict] = []
        self._start(fold)

    def _start(self, fold: _Fold) -> None:
        self.fold, self.contract, self.entries, self.played = fold, fold.contract, [], []
        self.running = _Running(self.table.rules, self.table.first_dealer, fold.tally,
                                fold.stop_after)
        self.over = fold.over

    def frozen(self) -> _Fold:
        fold, entries = self.fold, self.entries
        if not entries and self.contract is fold.contract:
            return fold
        if not entries:
            return _with(fold, contract=self.contract, tally=self.running.frozen())
        return _with(fold, contract=self.contract, tally=self.running.frozen(), cards=None,
                     entries=fold.entries + entries, played=fold.played + tuple(self.played))

    def event(self, ev: dict) -> None:
        self.taken.append(ev)
        kind = ev["type"]
        if not self.over and kind in _BIDS:
            try:
                self.contract = self.contract.bid(  # type: ignore[union-attr]
                    ev, self.table.rules, players=self.table.players)
            except BotifarraError as e:
                raise _in_hand(e, len(self.fold.entries) + len(self.entries) + 1) from None
        elif not self.over and kind in RESULT_TYPES:
            self._result(ev)
        else:
            self._start(step(self.table, self.frozen(), ev))

    def hand(self, events: list[dict], contract: Contract | None) -> None:
        now = self.contract
        if contract is None or self.over or now is None or now.started \
                or now.dealer != contract.dealer:
            for ev in events:
                self.event(ev)
            return
        # the bids were all legal from the hand's fresh contract (see contract_for)
        self.taken.extend(events)
        self.contract = contract
        self._result(events[-1])

    def _result(self, ev: dict) -> None:
        entries = self.entries
        try:
            entry = entry_from_event(self.contract, ev)  # type: ignore[arg-type]
            self.running.add(entry)
        except BotifarraError as e:
            raise _in_hand(e, len(self.fold.entries) + len(entries) + 1) from None
        self.played.append(self.fold.cards if not entries else None)
        entries.append(entry)
        self.contract = Contract((self.table.first_dealer + len(self.fold.entries)
                                  + len(entries)) % 4)
        self.over = self.running.ending.at is not None


def _over_error(table: _Table, fold: _Fold) -> MatchStateError:
    end = fold.tally.ending
    if fold.abandoned and end.at is None:
        return over_error(None, None)
    reached = None
    if end.reason == "target":
        reached = (_team_word(end.winner, table.team_names),
                   fold.tally.records[end.at - 1].totals[end.winner])
    return over_error(end.at, end.reason, reached)


def _edit(table: _Table, fold: _Fold, ev: dict) -> _Fold:
    n = len(fold.entries)
    index, data = edited_hand(ev, n)
    number = index + 1
    dealer = (table.first_dealer + index) % 4
    try:
        entry = entry_from_hand_json(data, dealer, table.rules)
    except BotifarraError as e:
        raise _in_hand(e, number) from None
    entries = fold.entries[:index] + (entry,) + fold.entries[index + 1:]
    played = fold.played[:index] + (None,) + fold.played[index + 1:]  # typed: not as played
    new = _with(fold, entries=entries, played=played,
                tally=_tally(table.rules, table.first_dealer, entries, fold.stop_after))
    check_edit_end(new.tally.ending.at, n, fold.contract is not None and fold.contract.started,
                   number)
    return new
