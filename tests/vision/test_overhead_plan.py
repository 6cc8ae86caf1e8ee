"""The overhead camera's plan (tests/overhead/plan.py): a played hand laid out in time, its
ground truth consistent with the rules' own answer."""

from __future__ import annotations

import numpy as np
import pytest

from tests.overhead.plan import lying_at, plan_hand, seat_place_mm


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_hand_is_48_cards_12_per_seat_each_lying_still_before_it_is_swept(seed):
    plan = plan_hand(seed)
    assert len(plan.plays) == 48
    assert sorted(p.seat for p in plan.plays) == sorted(list(range(4)) * 12)
    assert [p.code for p in plan.plays] == [c for t in plan.doc["tricks"] for c in t]
    for p in plan.plays:
        assert p.lands_s < p.still_s < p.gone_s <= plan.duration_s
        assert lying_at(plan, (p.still_s + p.gone_s) / 2)[p.seat] == p.code
    # the next trick's cards come only once the last one is swept off
    for a, b in zip(plan.plays[3::4], plan.plays[4::4]):
        assert b.lands_s > a.gone_s


def test_each_card_lies_nearer_its_own_seat_than_any_other():
    for seed in range(5):
        for p in plan_hand(seed).plays:
            centre = (p.place @ np.array([30.5, 47.5, 1.0]))[:2]
            d = [np.linalg.norm(centre - seat_place_mm(s)) for s in range(4)]
            assert int(np.argmin(d)) == p.seat


def test_some_cards_are_pushed_against_the_neighbour():
    assert any(p.touching for seed in range(3) for p in plan_hand(seed).plays)


def test_an_injected_renunci_is_the_one_the_hand_check_finds():
    for seed in range(20):
        plan = plan_hand(seed, renunci=True)
        r = plan.check["renunci"]
        if plan.injected is not None:
            assert (r["trick"], r["seat"], r["card"]) == plan.injected and r["proof"] is not None
        assert plan_hand(seed).check["renunci"] is None
