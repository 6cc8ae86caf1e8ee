"""Game core timings: how long the kiosk waits on the core (run: python -m tests.bench.bench_game)."""

from __future__ import annotations

import time

from kiosk.game import Match, score_match_json


def _long_match(hands: int) -> Match:
    m = Match.create({"preset": "reglament", "target": 10_000})
    for i in range(hands):
        d = m.dealer
        m = m.apply({"type": "trump", "seat": d, "trump": "oros"})
        m = m.apply({"type": "double", "seat": (d + 1) % 4, "level": "contro"})
        m = m.apply({"type": "play"})
        m = m.apply({"type": "hand_scored", "points": {"A": 30 + i % 13}, "source": "points"})
    return m


def _time(fn, repeat: int = 20) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1000


def main() -> None:
    print("| game core (best of 20) | ms |")
    print("|---|---|")
    for hands in (12, 50):
        m = _long_match(hands)
        events = m.events
        doc = m.to_json()
        d = m.dealer
        print(f"| apply one bid after {hands} hands | {_time(lambda: m.apply({'type': 'trump', 'seat': d, 'trump': 'copes'})):.2f} |")
        print(f"| undo after {hands} hands | {_time(lambda: m.apply({'type': 'undo'})):.2f} |")
        print(f"| from_events ({len(events)} events) | {_time(lambda: Match.from_events(events)):.2f} |")
        print(f"| score_match_json ({hands} hands) | {_time(lambda: score_match_json(doc)):.2f} |")


if __name__ == "__main__":
    main()
