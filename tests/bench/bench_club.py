"""Club mode figures: 200 tables x 12 hands through one mosquitto on loopback.

The figure is the time from a hand's commit at a table (``Journal.append`` of its
``hand_scored`` returned) to the organiser's standings that include it (the batch stored,
acked, folded with the game core and the standings recomputed): median and p99.

The tables run in 4 worker processes (50 each, every table its own journal, its own
publisher and paho connection); the organiser's link runs in this process. Every table
plays one hand a second (real tables: one every few minutes), so this is a whole club's
night compressed into seconds: the hardest load the broker and the organiser will see.
The latencies are wall time (the machine's load is printed with them); the CPU rows are
CPU time per committed hand: this process (the organiser's side) and the reaped children
(the table workers and mosquitto). ``python -m tests.bench club``.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import random
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path

TABLES = 200
HANDS = 12
WORKERS = 4
HAND_EVERY_S = 1.0


def _worker(tmp: str, names: list[str], url: str, start_at: float, out) -> None:
    from kiosk.club.publisher import Publisher
    from kiosk.journal import Journal
    from tests.club.broker import table_password
    from tests.club.sim import JournalRound, play_hand

    tables = []
    for name in names:
        journal = Journal(Path(tmp) / f"t{name}.sqlite")
        pub = Publisher(Path(tmp) / f"t{name}.sqlite", name, url, password=table_password(name), poll_s=1.0)
        pub.start()
        tables.append((name, journal, pub))
    while not all(p.outbox.assignment() for _, _, p in tables):
        time.sleep(0.05)
    matches = {name: JournalRound(j, p.outbox, notify=p.notify).start_match() for name, j, p in tables}
    commits: list[tuple[str, int, int, float]] = []
    rng = random.Random(names[0])
    # each table's hands are spread over the second, as real tables are not in step
    schedule = sorted((start_at + k * HAND_EVERY_S + rng.random() * HAND_EVERY_S, i)
                      for k in range(HANDS) for i in range(len(tables)))
    for at, i in schedule:
        time.sleep(max(0.0, at - time.time()))
        name, journal, pub = tables[i]
        match = journal.load(matches[name])
        if match.is_over:
            continue
        before = len(match.hands)
        while len(journal.load(matches[name]).hands) == before:  # a misdeal counts as a hand too
            play_hand(journal, matches[name], rng)
        committed = time.time()
        seq = len(journal.events(matches[name]))
        pub.notify()
        commits.append((name, matches[name], seq, committed))
    acked = all(p.wait_acked(timeout=120) for _, _, p in tables)
    totals = {name: (matches[name], len(j.events(matches[name]))) for name, j, _ in tables}
    for _, j, p in tables:
        p.stop()
        j.close()
    out.put((commits, totals, acked))


def main() -> None:
    from clubwire.payloads import EndConditions
    from organiser.link import BrokerLink
    from organiser.store import Store
    from organiser.tournament import Tournament
    from tests.club.broker import ORGANISER_PASSWORD, Broker

    with tempfile.TemporaryDirectory() as tmp:
        names = [str(t) for t in range(1, TABLES + 1)]
        broker = Broker(Path(tmp) / "broker", names).start()
        tournament = Tournament(Store(Path(tmp) / "club.sqlite"))
        for p in range(1, 2 * TABLES + 1):
            tournament.store.add_pair(f"Parella {p}", [], entered_round=1)
        updates: dict[tuple[str, int, int], float] = {}
        lock = threading.Lock()

        def on_batch(events, stored_at):
            tournament.standings()  # what the live page and /api/standings recompute
            done = time.time()
            with lock:
                for e in events:
                    updates.setdefault((e.table, e.match, e.seq), done)

        link = BrokerLink(tournament, broker.url, password=ORGANISER_PASSWORD, on_batch=on_batch)
        link.start()
        link.connected.wait(10)
        tournament.start_round(EndConditions(target=None, max_hands=HANDS, time_limit_min=None, points_cap=None))
        load = os.getloadavg()
        cpu_self = time.process_time()
        cpu_children = _children_cpu()
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        start_at = time.time() + 8.0  # every worker's tables connected and holding the round order
        chunks = [names[i::WORKERS] for i in range(WORKERS)]
        procs = [ctx.Process(target=_worker, args=(tmp, chunk, broker.url, start_at, out)) for chunk in chunks]
        for proc in procs:
            proc.start()
        results = [out.get(timeout=600) for _ in procs]
        for proc in procs:
            proc.join(timeout=60)
        time.sleep(0.5)
        cpu_self = time.process_time() - cpu_self
        commits = [c for r in results for c in r[0]]
        sent = {name: t for r in results for name, t in r[1].items()}
        all_acked = all(r[2] for r in results)
        delays = sorted(updates[(n, m, s)] - t for n, m, s, t in commits if (n, m, s) in updates)
        missing = sum(1 for n, m, s, _ in commits if (n, m, s) not in updates)
        stored = {(r.table): r.hands for r in tournament.tables()}
        link.stop()
        broker.stop()
        cpu_children = _children_cpu() - cpu_children  # the 4 table workers and mosquitto, reaped
    hands = max(1, len(commits))
    rows = [
        ("tables x hands", f"{TABLES} x {HANDS} ({len(commits)} hands committed)"),
        ("events sent / stored", f"{sum(t[1] for t in sent.values())} / "
                                  f"{sum(len(tournament.store.events_after(n, m, 0)) for n, (m, _) in sent.items())}"),
        ("hand commit -> standings updated, median", f"{statistics.median(delays) * 1000:.0f} ms"),
        ("hand commit -> standings updated, p99", f"{delays[int(len(delays) * 0.99)] * 1000:.0f} ms"),
        ("hand commit -> standings updated, slowest", f"{delays[-1] * 1000:.0f} ms"),
        ("hands never seen by the organiser", str(missing)),
        ("every table acked", "yes" if all_acked else "NO"),
        ("tables with all 12 hands at the organiser", str(sum(1 for h in stored.values() if h >= HANDS))),
        ("CPU per hand, organiser (link, fold, standings)", f"{cpu_self / hands * 1000:.2f} ms"),
        ("CPU per hand, 200 tables' publishers + mosquitto", f"{cpu_children / hands * 1000:.2f} ms"),
        ("load average at the start (1 / 5 min)", f"{load[0]:.1f} / {load[1]:.1f} on {os.cpu_count()} cores"),
    ]
    print("| club (loopback, one mosquitto) | figure |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
