"""The seat-learning step (vision.tricks.seats) on the overhead camera's frames, and the
check of kept places."""

from __future__ import annotations

import numpy as np

from tests.vision.test_tricks import one_trick
from vision.tricks.seats import SeatLearner, check_seats


def test_four_cards_dealt_in_seat_order_give_the_four_places():
    seq, frames = one_trick()
    learner = SeatLearner(frame_size=seq.size)
    learnt = [(n, s) for n, image in enumerate(frames) if (s := learner.feed(image)) is not None]
    assert [s for _, s in learnt] == [0, 1, 2, 3]
    # the cards were laid from the trick's leader round: the k-th card is seat lead + k
    lead = seq.plan.doc["first_lead"]
    true = {k: np.float32(seq.seats_px[(lead + k) % 4]) for k in range(4)}
    near = min(np.linalg.norm(true[a] - true[b]) for a in range(4) for b in range(a))
    for k, place in learner.seats.items():
        assert np.linalg.norm(np.float32(place) - true[k]) < 0.4 * near
    assert check_seats(learner.seats, seq.size) is None


def test_kept_places_are_checked():
    size = (1280, 720)
    good = {0: (640.0, 560.0), 1: (980.0, 360.0), 2: (640.0, 160.0), 3: (300.0, 360.0)}
    assert check_seats(good, size) is None
    assert "outside" in check_seats({**good, 1: (1500.0, 360.0)}, size)
    assert "too close" in check_seats({**good, 1: (645.0, 560.0)}, size)
    assert "0, 1, 2 and 3" in check_seats({0: (1.0, 1.0)}, size)
