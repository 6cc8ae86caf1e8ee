"""THE crash test: kill -9 a process that is appending, hundreds of times.

After every kill the journal must open, pass PRAGMA integrity_check, hold every event
whose save returned (the child acknowledged it on stdout) and no half-written one: the
stored events are exactly a prefix of the known sequence, at most one event past the
last acknowledged one (the append that was committing when the kill came).
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
KILLS = 250


def child(db: Path) -> subprocess.Popen:
    # -S: no site-packages; the child needs only the standard library and our code.
    return subprocess.Popen([sys.executable, "-S", "-m", "tests.journal.crash_child", str(db)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def acknowledged(out: bytes, acked: dict[int, int]) -> None:
    for line in out.decode().splitlines(keepends=True):
        if line.endswith("\n"):
            match_id, count = map(int, line.split())
            acked[match_id] = max(acked.get(match_id, 0), count)


def stored_read_only(db: Path) -> tuple[list[str], dict[int, list[dict]]]:
    """Integrity and events through a read-only connection: leaves a hot WAL hot, so the
    next child has to recover it (and may be killed while it does)."""
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
    rng = random.Random(int(os.environ.get("CRASH_SEED", time.time())))
    acked: dict[int, int] = {}
    kills = in_flight_saved = 0
    started = time.monotonic()
    for cycle in range(KILLS):
        proc = child(db)
        # Mostly while it appends (startup is ~0.1 s), sometimes while it opens/recovers.
        time.sleep(rng.uniform(0.0, 0.08) if rng.random() < 0.2 else rng.uniform(0.08, 0.16))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == -signal.SIGKILL, (
            f"cycle {cycle}: the child ended by itself ({proc.returncode}): {err.decode()[-800:]}")
        kills += 1
        acknowledged(out, acked)
        if not db.exists():
            assert not acked
            continue
        check, events = (stored_by_journal if cycle % 2 else stored_read_only)(db)
        assert check == ["ok"], f"cycle {cycle}: {check[:3]}"
        extra = 0
        for match_id, stored in events.items():
            assert stored[0]["type"] == "match_created"
            assert stored[0]["players"] == CREATED["players"]
            assert stored[1:] == script(match_id)[: len(stored) - 1], f"cycle {cycle}: match {match_id}"
            saved = acked.get(match_id, 0)
            assert len(stored) >= saved, f"cycle {cycle}: match {match_id} lost acknowledged events"
            extra += len(stored) - saved
        assert set(acked) <= set(events), f"cycle {cycle}: an acknowledged match is missing"
        assert extra <= 1, f"cycle {cycle}: {extra} events beyond the acknowledged ones"
        in_flight_saved += extra
        if extra:  # the unacknowledged save counts as saved from now on
            for match_id, stored in events.items():
                acked[match_id] = max(acked.get(match_id, 0), len(stored))
    elapsed = time.monotonic() - started
    total = sum(acked.values())
    print(f"\ncrash test: {kills} kills, {total} events in {len(acked)} matches, "
          f"{in_flight_saved} committed-but-unacknowledged at the kill, {elapsed:.1f} s")
    assert total > kills * 3, "the child was mostly killed before it appended anything"
