"""The scoring option of the standings on a real tournament file: league 3/1/0 per meeting
(and the wins scoring, 1/½/0), whatever the results, with byes and draws; the ranking is
score, then points difference, then points for."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from clubwire.payloads import EndConditions
from organiser.scoring import SCORINGS, scoring_named
from organiser.store import Pairing, Store
from organiser.tournament import Tournament


def _play(store: Store, rounds: int, pairs: int, rng: random.Random) -> dict[int, dict]:
    """Rounds paired at random (the last pair of an odd field rests), results entered as the
    organiser's corrections; returns what each pair should have, counted here by hand."""
    expect = {p: dict(won=0, drawn=0, lost=0, byes=0, pf=0, pa=0) for p in range(1, pairs + 1)}
    for number in range(1, rounds + 1):
        order = list(expect)
        rng.shuffle(order)
        pairings = [Pairing(0, str(i + 1), order[2 * i], order[2 * i + 1]) for i in range(pairs // 2)]
        if pairs % 2:
            pairings.append(Pairing(0, None, order[-1], None))
            expect[order[-1]]["byes"] += 1
        store.add_round(EndConditions(), "butinet", pairings, manual=True)
        for p in pairings:
            if p.pair_b is None:
                continue
            a, b = rng.choice([(101, rng.randint(0, 100)), (rng.randint(0, 100), 101), (80, 80)])
            store.add_correction(number, p.table, {"A": a, "B": b}, None, "entered by hand")
            for pid, mine, theirs in ((p.pair_a, a, b), (p.pair_b, b, a)):
                e = expect[pid]
                e["pf"] += mine
                e["pa"] += theirs
                e["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
    return expect


@settings(max_examples=15, deadline=None)
@given(pairs=st.integers(2, 9), rounds=st.integers(1, 4), seed=st.integers(0, 10_000),
       scoring=st.sampled_from(sorted(SCORINGS)))
def test_standings_count_each_meeting_by_the_chosen_scoring(pairs, rounds, seed, scoring):
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "club.sqlite")
        try:
            for p in range(pairs):
                store.add_pair(f"Parella {p + 1}", [], entered_round=1)
            expect = _play(store, rounds, pairs, random.Random(seed))
            rows = Tournament(store, scoring=scoring).standings()
            per_win = 3 if scoring == "league" else 1
            for row in rows:
                e = expect[row.pair]
                assert (row.won, row.drawn, row.lost, row.byes) == (e["won"], e["drawn"], e["lost"], e["byes"])
                assert row.score == per_win * (e["won"] + e["byes"]) + (1 if scoring == "league" else 0.5) * e["drawn"]
                assert (row.points_for, row.diff) == (e["pf"], e["pf"] - e["pa"])
            keys = [(-r.score, -r.diff, -r.points_for) for r in rows]
            assert keys == sorted(keys) and [r.rank for r in rows] == list(range(1, pairs + 1))
        finally:
            store.close()


def test_league_is_kept_in_the_tournament_file(tmp_path):
    store = Store(tmp_path / "club.sqlite")
    assert Tournament(store).scoring.name == "wins"
    assert Tournament(store, scoring="league").scoring.name == "league"
    assert Tournament(store).scoring == scoring_named("league")  # reopened: the file's option
    with pytest.raises(ValueError):
        Tournament(store, scoring="football")
    store.close()
