"""THE crash test: kill -9 a process that is appending, hundreds of times.

After every kill the journal must open, pass PRAGMA integrity_check, hold every event
whose save returned (the child acknowledged it) and no half-written one: the stored
events are exactly a prefix of the known sequence, at most one event past the last
acknowledged one (the append that was committing when the kill came).
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.journal import Journal
from tests.journal.crash_child import CREATED, script

ROOT = Path(__file__).resolve().parents[2]
KILLS = 200


class Zygote:
    """The warm process that forks one appending child per cycle (see crash_child)."""

    def __init__(self) -> None:
        # -S: no site-packages; the child needs only the standard library and our code.
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-m", "tests.journal.crash_child"], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line: str) -> int:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "the zygote died"
        return int(answer.split()[1])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


def acknowledged(acks: Path, acked: dict[int, int]) -> None:
    if not acks.exists():
        return
    for line in acks.read_text().splitlines(keepends=True):
        if line.endswith("\n"):
            match_id, count = map(int, line.split())
            acked[match_id] = max(acked.get(match_id, 0), count)


def stored_read_only(db: Path) -> tuple[list[str], dict[int, list[dict]]]:
    """Integrity and events through a read-only connection: leaves a hot WAL hot, so the
    next child has to recover it (and may be killed while it does). A read-only connection
    cannot itself recover a WAL whose index the kill left stale (SQLite's
    SQLITE_READONLY_RECOVERY, "attempt to write a readonly database": seen on a loaded
    machine); then the journal's own opening, which recovers, is what is checked."""
    try:
        return _read_only(db)
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc):
            raise
        return stored_by_journal(db)


def _read_only(db: Path) -> tuple[list[str], dict[int, list[dict]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        check = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        events: dict[int, list[dict]] = {}
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone():
            return check, events  # killed while creating the file: no schema committed yet
        for match_id, data in conn.execute("SELECT match_id, data FROM events ORDER BY match_id, seq"):
            events.setdefault(match_id, []).append(json.loads(data))
        return check, events
    finally:
        conn.close()


def stored_by_journal(db: Path) -> tuple[list[str], dict[int, list[dict]]]:
    with Journal(db, recover=False) as j:
        assert j.moved_aside is None
        current = j.current_match()
        if current is not None:  # the state folds
            assert len(current.match.events) == len(j.events(current.match_id))
        return j.integrity_check(), {m.id: j.events(m.id) for m in j.matches()}


@pytest.mark.slow
def test_the_journal_survives_kill_9_hundreds_of_times(tmp_path):
    db = tmp_path / "journal.sqlite"
    seed = int(os.environ.get("CRASH_SEED", time.time()))
    rng = random.Random(seed)
    acked: dict[int, int] = {}
    kills = in_flight_saved = 0
    started = time.monotonic()
    zygote = Zygote()
    try:
        for cycle in range(KILLS):
            acks = tmp_path / f"acks-{cycle}.txt"
            pid = zygote.ask(f"go {db} {acks}")
            # Anywhere: while it opens (and recovers a hot WAL), folds, or appends.
            time.sleep(rng.uniform(0.0, 0.12))
            os.kill(pid, signal.SIGKILL)
            status = zygote.ask(f"wait {pid}")
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
                f"cycle {cycle} (seed {seed}): the child ended by itself: {status}")
            kills += 1
            acknowledged(acks, acked)
            if not db.exists():
                assert not acked
                continue
            check, events = (stored_by_journal if cycle % 2 else stored_read_only)(db)
            assert check == ["ok"], f"cycle {cycle} (seed {seed}): {check[:3]}"
            extra = 0
            for match_id, stored in events.items():
                assert stored[0]["type"] == "match_created"
                assert stored[0]["players"] == CREATED["players"]
                assert stored[1:] == script(match_id)[: len(stored) - 1], (
                    f"cycle {cycle} (seed {seed}): match {match_id} is not a prefix")
                saved = acked.get(match_id, 0)
                assert len(stored) >= saved, (
                    f"cycle {cycle} (seed {seed}): match {match_id} lost acknowledged events")
                extra += len(stored) - saved
            assert set(acked) <= set(events), f"cycle {cycle} (seed {seed}): a match is missing"
            assert extra <= 1, f"cycle {cycle} (seed {seed}): {extra} events beyond the acknowledged"
            in_flight_saved += extra
            if extra:  # the unacknowledged save counts as saved from now on
                for match_id, stored in events.items():
                    acked[match_id] = max(acked.get(match_id, 0), len(stored))
    finally:
        zygote.close()
    elapsed = time.monotonic() - started
    total = sum(acked.values())
    print(f"\ncrash test (seed {seed}): {kills} kills, {total} events in {len(acked)} matches, "
          f"{in_flight_saved} committed but unacknowledged at the kill, {elapsed:.1f} s")
    assert total >= kills, "the children were mostly killed before they appended anything"
