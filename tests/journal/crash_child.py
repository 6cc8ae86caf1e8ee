"""Child of the crash test: appends a known sequence of events until it is killed.

Run as ``python -S -m tests.journal.crash_child DB`` from the repo root. After each
``create_match``/``append`` returns it prints ``<match id> <number of events>`` and flushes,
so the parent knows which saves returned. Imports only the journal (sqlite3) and the game
core, so it starts fast. Exit 3 = the journal would not open cleanly (a test failure).
"""
from __future__ import annotations

import sys

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


def main(db: str) -> int:
    try:
        journal = Journal(db, recover=False)
        current = journal.current_match()
    except JournalError as exc:
        print(f"journal did not open cleanly: {exc}", file=sys.stderr)
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
        sys.stdout.write(f"{match_id} {count}\n")
        sys.stdout.flush()
        if count == 1 + len(script(match_id)):
            match_id = None
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
