"""Child of the crash test: appends a known sequence of events until it is killed.

``python -S -m tests.journal.crash_child --zygote`` (from the repo root) imports the
journal and the game core once, then for every ``go DB ACKS`` line on stdin forks a child
that opens the journal and appends; it answers ``pid N``. ``wait N`` reaps that child and
answers ``status S`` (the raw waitpid status). Forking from a warm process lets the test
kill hundreds of fresh processes in seconds, each a real process killed by a real SIGKILL
in the middle of whatever it was doing.

After each ``create_match``/``append`` returns, the child appends ``<match id> <number of
events>`` to the ACKS file with one ``write`` (O_APPEND), so the parent knows which saves
returned. Exit 3 = the journal would not open cleanly (a test failure).
"""
from __future__ import annotations

import os
import sys

import kiosk.game  # noqa: F401  (warm: the fork must not pay for imports)
from kiosk.journal import Journal, JournalError

HANDS_PER_MATCH = 10
MAX_EVENTS = 100_000  # a bound, in case nobody kills us
CREATED = {"type": "match_created", "rules": {"preset": "reglament"}, "first_dealer": 0,
           "players": ["Anna", "Pere", "Marta", "Joan"], "team_names": None}


def script(match_id: int) -> list[dict]:
    """The events after match_created: HANDS_PER_MATCH hands of 36-36 (nobody scores, so
    the match never ends by itself), then the match is stopped by hand."""
    events = []
    for hand in range(HANDS_PER_MATCH):
        events += [{"type": "trump", "seat": hand % 4, "trump": "oros"}, {"type": "play"},
                   {"type": "hand_scored", "points": {"A": 36}, "source": "camera",
                    "evidence": f"evidence/m{match_id}-h{hand}.jpg"}]
    return events + [{"type": "match_ended", "reason": "abandoned"}]


def append_until_killed(db: str, acks: str) -> int:
    ack = os.open(acks, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        journal = Journal(db, recover=False)
        current = journal.current_match()
    except JournalError as exc:
        os.write(2, f"journal did not open cleanly: {exc}\n".encode())
        return 3
    if current is None:
        match_id, count = None, 0
    else:
        match_id, count = current.match_id, len(journal.events(current.match_id))
    for _ in range(MAX_EVENTS):
        if match_id is None:
            match_id, count = journal.create_match(CREATED), 1
        else:
            journal.append(match_id, script(match_id)[count - 1])
            count += 1
        os.write(ack, f"{match_id} {count}\n".encode())
        if count == 1 + len(script(match_id)):
            match_id = None
    return 0


def zygote() -> None:
    for line in sys.stdin:
        command, *rest = line.split()
        if command == "go":
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                status = 1
                try:
                    status = append_until_killed(*rest)
                finally:
                    os._exit(status)
            print(f"pid {pid}", flush=True)
        elif command == "wait":
            _, status = os.waitpid(int(rest[0]), 0)
            print(f"status {status}", flush=True)


if __name__ == "__main__":
    zygote()
