"""A tournament night against a real mosquitto and the organiser's app as a real process:
20 tables play a round concurrently while the broker is SIGKILLed and restarted, the
organiser is SIGKILLed and restarted, and one table plays its whole match offline and
reconnects after. Then the organiser's /api/tables and /api/standings must equal what each
table's own journal says, with 0 hands lost and 0 doubled."""

from __future__ import annotations

import random
import sqlite3
import threading
import time

import pytest

from kiosk.club.publisher import Publisher
from kiosk.club.round import confirming_team
from kiosk.journal import Journal
from tests.club.broker import table_password
from tests.club.sim import JournalRound, play_hand
from tests.polling import until

TABLES = [str(t) for t in range(1, 21)]
OFFLINE = "20"
CONDITIONS = {"target": 101, "max_hands": 12, "time_limit_min": 60, "points_cap": 121, "preset": "butinet"}

pytestmark = pytest.mark.slow


def _wait(predicate, timeout: float, what: str) -> None:
    if not until(predicate, timeout, pause=0.05):
        raise AssertionError(f"timed out waiting for {what}")


class Table:
    def __init__(self, tmp_path, name: str, broker_url: str) -> None:
        self.name = name
        self.db = tmp_path / f"table-{name}.sqlite"
        self.journal = Journal(self.db)
        self.broker_url = broker_url
        self.publisher: Publisher | None = None
        self.match_id: int | None = None

    def connect(self) -> None:
        self.publisher = Publisher(self.db, self.name, self.broker_url, password=table_password(self.name),
                                   resend_after_s=1.0, poll_s=0.5)
        self.publisher.start()

    def disconnect(self) -> None:
        self.publisher.stop(say_offline=False)  # as if the cable were pulled: the will says it
        self.publisher = None

    def club(self, outbox) -> JournalRound:
        return JournalRound(self.journal, outbox, notify=self.publisher.notify if self.publisher else lambda: None)


def _expected_standings(tables: dict[str, Table], pairings: list[dict]) -> dict[int, dict]:
    exp: dict[int, dict] = {}
    for p in pairings:
        if p["round"] != 1:
            continue
        m = tables[p["table"]].journal.load(tables[p["table"]].match_id)
        for pair, mine, theirs in ((p["pair_a"], "A", "B"), (p["pair_b"], "B", "A")):
            e = exp.setdefault(pair, {"won": 0, "drawn": 0, "lost": 0, "points_for": 0, "diff": 0})
            e["points_for"] += m.totals[mine]
            e["diff"] += m.totals[mine] - m.totals[theirs]
            key = "won" if m.winner == mine else "drawn" if m.winner is None else "lost"
            e[key] += 1
    return exp


def test_a_round_survives_broker_and_organiser_crashes_and_an_offline_table(tmp_path, broker_factory,
                                                                          organiser_factory):
    broker = broker_factory(TABLES)
    organiser = organiser_factory(broker)
    for p in range(1, 41):
        assert organiser.post("/api/pairs", {"name": f"Parella {p}", "players": [f"J{p}a", f"J{p}b"]})[0] == 201
    status, body = organiser.post("/api/rounds", CONDITIONS)
    assert status == 201 and body == {"round": 1}

    tables = {name: Table(tmp_path, name, broker.url) for name in TABLES}
    for t in tables.values():
        t.connect()
    # every table has the round order (retained) before play starts
    _wait(lambda: all(t.publisher.outbox.assignment() is not None for t in tables.values()), 15, "round orders")
    assert tables["7"].publisher.outbox.assignment().round == 1
    outboxes = {name: t.publisher.outbox for name, t in tables.items()}
    tables[OFFLINE].disconnect()
    offline_outbox_path = tables[OFFLINE].db

    played = threading.Barrier(len(TABLES) + 1)
    errors: list[BaseException] = []

    def play(t: Table, seed: int) -> None:
        try:
            rng = random.Random(seed)
            from kiosk.club.outbox import Outbox
            outbox = outboxes[t.name] if t.publisher else Outbox(offline_outbox_path, t.name)
            club = JournalRound(t.journal, outbox, notify=t.publisher.notify if t.publisher else lambda: None)
            t.match_id = club.start_match()
            match = t.journal.load(t.match_id)
            while not match.is_over:
                match = play_hand(t.journal, t.match_id, rng)
                if t.publisher:
                    t.publisher.notify()
                time.sleep(rng.uniform(0.05, 0.25))
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            played.wait()

    threads = [threading.Thread(target=play, args=(t, i)) for i, t in enumerate(tables.values())]
    for th in threads:
        th.start()
    time.sleep(0.8)
    broker.kill()             # SIGKILL mid-round: no chance to save anything more
    time.sleep(1.0)
    broker.start()
    time.sleep(1.0)
    organiser.kill()          # SIGKILL: batches in flight are lost before their acks
    time.sleep(0.5)
    organiser.start()
    played.wait()
    assert not errors, errors

    # the offline table comes back after its whole match
    tables[OFFLINE].connect()
    for t in tables.values():
        assert t.publisher.wait_acked(timeout=40), (t.name, t.publisher.status())

    rows = organiser.get("/api/tables")
    by_key = {(r["table"], r["match"]): r for r in rows}
    assert len(rows) == len(TABLES)
    lost = doubled = 0
    org = sqlite3.connect(tmp_path / "club.sqlite")
    for name, t in tables.items():
        m = t.journal.load(t.match_id)
        row = by_key[(name, t.match_id)]
        assert (row["totals"], row["hands"], row["winner"], row["round"]) == (m.totals, len(m.hands), m.winner, 1), name
        stored = org.execute("SELECT count(*), max(seq) FROM events WHERE tbl = ? AND match = ?",
                             (name, t.match_id)).fetchone()
        lost += len(t.journal.events(t.match_id)) - stored[0]
        doubled += stored[0] - stored[1]
    assert (lost, doubled) == (0, 0)
    assert all(r["online"] for r in rows)

    # results are provisional until the opponents tap
    standings = organiser.get("/api/standings")
    assert all(s["provisional"] for s in standings)
    for t in tables.values():
        match = t.journal.load(t.match_id)
        t.club(t.publisher.outbox).confirm(t.match_id, confirming_team(match))
    for t in tables.values():
        assert t.publisher.wait_acked(timeout=20)
    pairings = organiser.get("/api/rounds")["pairings"]
    expected = _expected_standings(tables, pairings)
    standings = organiser.get("/api/standings")
    assert not any(s["provisional"] for s in standings)
    for s in standings:
        got = {k: s[k] for k in ("won", "drawn", "lost", "points_for", "diff")}
        assert got == expected[s["pair"]], s["pair"]
    ranked = [(-(s["won"] + s["drawn"] / 2), -s["diff"], -s["points_for"]) for s in standings]
    assert ranked == sorted(ranked)

    # round 2: Swiss, no rematch, pushed to the tables
    status, body = organiser.post("/api/rounds", CONDITIONS)
    assert status == 201 and body == {"round": 2}
    pairings = organiser.get("/api/rounds")["pairings"]
    first = {frozenset((p["pair_a"], p["pair_b"])) for p in pairings if p["round"] == 1}
    second = {frozenset((p["pair_a"], p["pair_b"])) for p in pairings if p["round"] == 2}
    assert len(second) == 20 and not first & second
    _wait(lambda: all(t.publisher.outbox.assignment().round == 2 for t in tables.values()), 10, "round 2 orders")

    for t in tables.values():
        t.publisher.stop()
        t.journal.close()
    organiser.stop()
