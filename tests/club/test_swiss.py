"""Swiss pairing properties over many drawn tournaments (hypothesis): no rematch, no
second bye, every active pair placed once, and the same data gives the same round."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from organiser.swiss import Entrant, PairingImpossible, pair_round


def _play(n: int, rounds: int, seed: int):
    """Run ``rounds`` Swiss rounds of ``n`` pairs with random results; yield each round
    with what was known before it."""
    rng = random.Random(seed)
    score = {p: 0.0 for p in range(1, n + 1)}
    diff = {p: 0 for p in score}
    pf = {p: 0 for p in score}
    played: set[frozenset[int]] = set()
    byes: set[int] = set()
    for _ in range(rounds):
        entrants = [Entrant(p, score[p], diff[p], pf[p], p in byes) for p in score]
        rnd = pair_round(entrants, played)
        yield entrants, set(played), set(byes), rnd
        for a, b in rnd.tables:
            pa, pb = rng.randint(0, 130), rng.randint(0, 130)
            score[a] += 1.0 if pa > pb else 0.5 if pa == pb else 0.0
            score[b] += 1.0 if pb > pa else 0.5 if pa == pb else 0.0
            diff[a] += pa - pb
            diff[b] += pb - pa
            pf[a] += pa
            pf[b] += pb
            played.add(frozenset((a, b)))
        if rnd.bye is not None:
            byes.add(rnd.bye)
            score[rnd.bye] += 1.0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=2, max_value=41), seed=st.integers(0, 10_000), data=st.data())
def test_no_rematch_no_second_bye_every_pair_once(n, seed, data):
    # Below n/2 rounds a round without a rematch always exists (Dirac's theorem on the
    # graph of the pairs not yet met), so the pairing must never give up there.
    rounds = data.draw(st.integers(min_value=1, max_value=max(1, n // 2 - 1)))
    for entrants, played, byes, rnd in _play(n, rounds, seed):
        placed = [p for t in rnd.tables for p in t] + ([rnd.bye] if rnd.bye is not None else [])
        assert sorted(placed) == sorted(e.pair for e in entrants)
        assert not any(frozenset(t) in played for t in rnd.tables), "a rematch"
        assert rnd.bye is None or rnd.bye not in byes, "a second bye"
        assert (rnd.bye is not None) == (n % 2 == 1)
        # reproducible: the same data (in any order) gives the same round
        shuffled = list(entrants)
        random.Random(seed).shuffle(shuffled)
        assert pair_round(shuffled, played) == rnd


def test_pairs_by_wins_then_points_difference():
    entrants = [Entrant(1, 2.0, 10), Entrant(2, 1.0, 50), Entrant(3, 2.0, 30), Entrant(4, 1.0, 40)]
    rnd = pair_round(entrants, set())
    assert rnd.tables == ((3, 1), (2, 4))


def test_the_bye_goes_to_the_lowest_pair_without_one():
    entrants = [Entrant(1, 2.0), Entrant(2, 1.0), Entrant(3, 0.0, had_bye=True)]
    assert pair_round(entrants, set()).bye == 2


def test_no_round_without_a_rematch_is_refused_not_faked():
    with pytest.raises(PairingImpossible):
        pair_round([Entrant(1), Entrant(2)], {frozenset((1, 2))})
    with pytest.raises(PairingImpossible):  # three pairs, everyone already had the bye
        pair_round([Entrant(p, had_bye=True) for p in (1, 2, 3)], set())
