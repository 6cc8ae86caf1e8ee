"""The tournament as the organiser sees it: each table's match folded with the game core
(``kiosk.game.Match``: never a scorer of our own), the standings, the rounds.

Thread-safe: the broker thread ingests, the web server reads, the organiser's clicks write.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from clubwire.payloads import EndConditions, RoundAssignment
from organiser import swiss
from organiser.scoring import DEFAULT as DEFAULT_SCORING, Scoring, scoring_named
from organiser.store import Incoming, Pairing, RoundInfo, Store


@dataclass(frozen=True)
class TableRow:
    """One match at one table (``/api/tables``)."""

    table: str
    match: int
    round: int | None
    totals: dict
    hands: int                  # every hand recorded, misdeals included (as `score` lists)
    hand: int                   # the hand being played (k of max_hands)
    max_hands: int | None
    winner: str | None
    over: bool
    confirmed: bool             # over and the opponents tapped (or the organiser corrected)
    online: bool
    offline_since: float | None
    minutes_left: float | None
    attention: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass(frozen=True)
class Result:
    """The result that counts for one pairing."""

    totals: dict                # {"A": pair_a's points, "B": pair_b's}
    winner: str | None
    over: bool
    confirmed: bool
    corrected: bool


@dataclass(frozen=True)
class StandingRow:
    rank: int
    pair: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    score: float                # wins: won + ½ drawn + byes; league: 3 won + drawn + 3 byes
    points_for: int
    points_against: int
    diff: int
    byes: int
    provisional: bool           # some result counted here is not confirmed yet
    active: bool


@dataclass
class _Fold:
    seq: int = 0
    match: object = None
    round: int | None = None
    error: str | None = None


def _natural(table: str) -> tuple:
    return (0, int(table), "") if table.isdigit() else (1, 0, table)


class Tournament:
    """Args:
        store: the organiser's SQLite file.
        publish: ``publish(topic, payload, retain)`` to reach the tables (the broker link).
        clock: seconds since the epoch.
        scoring: ``"wins"`` or ``"league"`` (organiser.scoring); kept in the file, so
            None keeps the file's (``wins`` for a new one). Raises ValueError for another name.
    """

    def __init__(self, store: Store, *, publish: Callable[[str, bytes, bool], None] | None = None,
                 clock: Callable[[], float] = time.time, scoring: str | None = None) -> None:
        if scoring is not None:
            store.set_option("scoring", scoring_named(scoring).name)
        self.scoring: Scoring = scoring_named(store.option("scoring", DEFAULT_SCORING))
        self.store = store
        self._publish = publish
        self._clock = clock
        self._lock = threading.RLock()
        self._folds: dict[tuple[str, int], _Fold] = {}
        self._changed = threading.Condition()
        self.version = 0
        for key in store.matches():
            self._refold(key)

    # -- changes -----------------------------------------------------------------------

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def wait_change(self, version: int, timeout: float) -> int:
        """Block until ``self.version`` passes ``version`` (or timeout); returns it."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout=timeout)
            return self.version

    def set_publisher(self, publish: Callable[[str, bytes, bool], None]) -> None:
        self._publish = publish

    # -- table traffic -----------------------------------------------------------------

    def ingest(self, events: list[Incoming], confirmations: list[tuple[str, int, str, int]] = (),
               online: dict[str, bool] | None = None, states: dict[str, dict] | None = None
               ) -> dict[tuple[str, int], int]:
        """Store a batch (with the tables' online flags and states), fold what it added;
        returns (table, match) -> seq to ack."""
        acks = self.store.ingest(list(events), list(confirmations), online, states)
        with self._lock:
            for key in acks:
                self._refold(key)
        self._bump()
        return acks

    def _refold(self, key: tuple[str, int]) -> None:
        from kiosk.game import BotifarraError, Match
        fold = self._folds.setdefault(key, _Fold())
        for inc in self.store.events_after(key[0], key[1], fold.seq):
            if inc.seq != fold.seq + 1:
                break  # a gap: the table resends it
            try:
                fold.match = Match.from_events([inc.event]) if inc.seq == 1 else fold.match.apply(inc.event)
                if inc.seq == 1:
                    fold.round = inc.round
            except (BotifarraError, AttributeError, KeyError, TypeError, ValueError) as exc:
                fold.error = f"event {inc.seq}: {exc}"
                break
            fold.seq = inc.seq

    # -- views -------------------------------------------------------------------------

    def tables(self) -> list[TableRow]:
        status = self.store.table_status()
        rows = []
        with self._lock:
            folds = sorted(self._folds.items(), key=lambda kv: (_natural(kv[0][0]), kv[0][1]))
        now = self._clock()
        for (table, match_id), fold in folds:
            if fold.match is None:
                continue
            m = fold.match
            online, since, state = status.get(table, (False, now, None))
            # confirmed = the opponents tapped for the result as it stands now (an undo after
            # the tap reopens it)
            confirmed = m.is_over and (self.store.confirmation(table, match_id) or 0) >= fold.seq
            minutes = (state or {}).get("minutes_left") if (state or {}).get("match") == match_id else None
            attention = []
            if not online:
                attention.append("offline")
            if m.is_over and not confirmed:
                attention.append("unconfirmed")
            if fold.error:
                attention.append("error")
            if minutes == 0 and not m.is_over:
                attention.append("time_up")
            rows.append(TableRow(table, match_id, fold.round, dict(m.totals), len(m.hands), m.hand_number,
                                 m.rules.max_hands, m.winner, m.is_over, confirmed, online,
                                 None if online else since, minutes, attention, fold.error))
        return rows

    def results(self) -> dict[tuple[int, str], Result]:
        """(round, table) -> the result that counts: the organiser's latest correction, else
        the latest match that table played in that round."""
        out: dict[tuple[int, str], Result] = {}
        for row in self.tables():
            if row.round is not None:
                out[(row.round, row.table)] = Result(row.totals, row.winner, row.over, row.confirmed, False)
        for c in self.store.corrections():
            winner = None if c.totals["A"] == c.totals["B"] else ("A" if c.totals["A"] > c.totals["B"] else "B")
            out[(c.round, c.table)] = Result(c.totals, winner, True, True, True)
        return out

    def standings(self) -> list[StandingRow]:
        pairs = {p.id: p for p in self.store.pairs()}
        results = self.results()
        rounds = self.store.rounds()
        current = rounds[-1].number if rounds else 0
        acc = {pid: dict(played=0, won=0, drawn=0, lost=0, score=0.0, pf=0, pa=0, byes=0, prov=False)
               for pid in pairs}
        for p in self.store.pairings():
            if p.pair_b is None:
                if p.pair_a in acc:
                    acc[p.pair_a]["byes"] += 1
                continue
            r = results.get((p.round, p.table))
            if r is None:
                continue
            for pid, mine, theirs in ((p.pair_a, "A", "B"), (p.pair_b, "B", "A")):
                a = acc.get(pid)
                if a is None:
                    continue
                a["pf"] += r.totals[mine]
                a["pa"] += r.totals[theirs]
                a["prov"] = a["prov"] or not r.confirmed
                if not r.over:
                    continue
                a["played"] += 1
                if r.winner == mine:
                    a["won"] += 1
                elif r.winner is None:
                    a["drawn"] += 1
                else:
                    a["lost"] += 1
        for a in acc.values():
            a["score"] = self.scoring.score(won=a["won"], drawn=a["drawn"], lost=a["lost"], byes=a["byes"])
        order = sorted(acc, key=lambda pid: (-acc[pid]["score"], -(acc[pid]["pf"] - acc[pid]["pa"]),
                                             -acc[pid]["pf"], pid))
        return [StandingRow(rank, pid, pairs[pid].name, a["played"], a["won"], a["drawn"], a["lost"],
                            a["score"], a["pf"], a["pa"], a["pf"] - a["pa"], a["byes"], a["prov"],
                            pairs[pid].active_in(current + 1) or pairs[pid].active_in(current))
                for rank, pid in enumerate(order, start=1) for a in [acc[pid]]]

    # -- the organiser's actions ----------------------------------------------------------

    def next_round(self, override: list[tuple[int, int | None]] | None = None) -> swiss.Round:
        """The pairing of the next round (not started): Swiss, or ``override`` checked."""
        number = len(self.store.rounds()) + 1
        active = [p for p in self.store.pairs() if p.active_in(number)]
        history = self.store.pairings()
        played = {frozenset((p.pair_a, p.pair_b)) for p in history if p.pair_b is not None}
        had_bye = {p.pair_a for p in history if p.pair_b is None}
        if override is not None:
            tables = tuple((a, b) for a, b in override if b is not None)
            byes = [a for a, b in override if b is None]
            seen = [x for t in tables for x in t] + byes
            if sorted(seen) != sorted(p.id for p in active) or len(byes) > 1:
                raise ValueError("a manual round must list every active pair once (at most one bye)")
            return swiss.Round(tables, byes[0] if byes else None)
        standing = {s.pair: s for s in self.standings()}
        entrants = [swiss.Entrant(p.id, standing[p.id].score, standing[p.id].diff,
                                  standing[p.id].points_for, p.id in had_bye) for p in active]
        return swiss.pair_round(entrants, played)

    def start_round(self, conditions: EndConditions, *, preset: str = "reglament",
                    override: list[tuple[int, int | None]] | None = None) -> RoundInfo:
        """Pair and start the next round; push each table its pairing (retained)."""
        plan = self.next_round(override)
        pairings = [Pairing(0, str(i), a, b) for i, (a, b) in enumerate(plan.tables, start=1)]
        if plan.bye is not None:
            pairings.append(Pairing(0, None, plan.bye, None))
        info = self.store.add_round(conditions, preset, pairings, manual=override is not None)
        self.push_round(info.number)
        self._bump()
        return info

    def push_round(self, number: int) -> list[RoundAssignment]:
        from clubwire import topics
        info = next(r for r in self.store.rounds() if r.number == number)
        names = {p.id: p.name for p in self.store.pairs()}
        out = []
        for p in self.store.pairings():
            if p.round != number or p.table is None:
                continue
            a = RoundAssignment(p.table, number, p.pair_a, p.pair_b, names.get(p.pair_a, ""),
                                names.get(p.pair_b, ""), info.conditions, info.started_at, info.preset)
            out.append(a)
            if self._publish:
                self._publish(topics.topic(p.table, "round"), a.to_bytes(), True)
        return out

    def correct(self, round_number: int, table: str, totals: dict, reason: str) -> int:
        if not reason.strip():
            raise ValueError("a correction needs a reason (it is kept in the audit trail)")
        before = self.results().get((round_number, table))
        cid = self.store.add_correction(round_number, table, totals,
                                        dict(before.totals) if before else None, reason)
        self._bump()
        return cid
