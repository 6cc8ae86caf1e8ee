"""Journal figures: append latency (one fsync each), open, resume, list, backup.

``python -m tests.bench.bench_journal`` (or ``make bench``); prints a markdown table.
Measured on the real file system of the current directory's temp dir: on a Pi, run it on
the SD card to see what the table will feel.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from kiosk.journal import Journal

CREATED = {"type": "match_created", "rules": {"preset": "reglament"}, "first_dealer": 0,
           "players": ["Anna", "Pere", "Marta", "Joan"],
           "team_names": {"A": "Nosaltres", "B": "Vosaltres"}}


def hand(dealer: int, points_a: int) -> list[dict]:
    return [{"type": "trump", "seat": dealer, "trump": "oros"}, {"type": "play"},
            {"type": "hand_scored", "points": {"A": points_a}, "source": "camera",
             "evidence": "evidence/x.jpg"}]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "journal.sqlite"
        with Journal(db) as j:
            # history: 300 finished matches of 8 hands
            j.import_matches([{**CREATED, "hands": [{"trump": "oros", "points": {"A": 50}}] * 8}] * 300)
            mid = j.create_match(CREATED)
            times, applying = [], []
            for n in range(40):  # a long match: 40 hands of 36-36, 120 appends
                for event in hand(n % 4, 36):
                    before = j.load(mid)
                    t = time.perf_counter()
                    before.apply(event)
                    applying.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    j.append(mid, event)
                    times.append(time.perf_counter() - t)
            times.sort()
            rows += [("append (validate + commit + fsync), median", _ms(statistics.median(times))),
                     ("  of which Match.apply (the core's validation), median",
                      _ms(statistics.median(applying))),
                     ("append, 99th percentile", _ms(times[int(len(times) * 0.99)])),
                     ("append, slowest", _ms(times[-1]))]
        with Journal(db) as j:
            listed_before = j.matches()
        t = time.perf_counter()
        j = Journal(db)
        rows.append((f"open (read-only check, quick_check, migrate), {len(listed_before)} matches", _ms(time.perf_counter() - t)))
        t = time.perf_counter()
        current = j.current_match()
        rows.append((f"current_match: fold {len(current.match.events)} events", _ms(time.perf_counter() - t)))
        t = time.perf_counter()
        listed = j.matches()
        rows.append((f"matches(): list {len(listed)}", _ms(time.perf_counter() - t)))
        t = time.perf_counter()
        j.backup(Path(tmp) / "backup.sqlite")
        rows.append(("backup (copy, integrity_check, fsync, rename)", _ms(time.perf_counter() - t)))
        j.close()
        rows.append(("file size", f"{db.stat().st_size / 1024:.0f} KiB"))
    print("| journal | figure |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print()


if __name__ == "__main__":
    main()
