"""The rough-table generator (tests/realcam/rough, issue 21) is honest: its ground truth is
where the pixels are, its nuisances are there and as strong as they say, its seeds repeat."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.learning import CUT, REFLECTION_ON, learning_photo
from tests.realcam.rough.marked import marked_frame
from tests.realcam.rough.nuisances import SWEEP, neat, pushed, realistic_nuisances
from tests.realcam.rough.surfaces import KINDS, table_points, table_surface


def _card_mask(image: np.ndarray) -> np.ndarray:
    """The bright card on dark felt."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))


@pytest.mark.parametrize("resolution", ["720p", "1080p"])
def test_the_top_cards_quad_is_where_the_card_is_drawn(resolution):
    nu = dataclasses.replace(neat(background="felt"), reflection=0.0, gain=1.0, rotation_deg=25, either_way=True)
    seq = deal_sequence(4, nu, resolution=resolution, cards=["7B"])
    last = seq.frame_truth[-1]
    assert last.top == "7B" and last.still
    drawn = _card_mask(seq.frame(last.n).image)
    truth = np.zeros_like(drawn)
    cv2.fillConvexPoly(truth, np.round(last.quad).astype(np.int32), 255)
    inter = np.count_nonzero(drawn & truth)
    union = np.count_nonzero(drawn | truth)
    assert inter / union > 0.95


def test_noise_at_gain_8_is_much_larger_than_at_gain_1():
    def spread(gain: float) -> float:
        seq = deal_sequence(5, dataclasses.replace(neat(), gain=gain, reflection=0.0), cards=12)
        a, b = (seq.frame(n).image.astype(np.float32) for n in (0, 1))  # the same empty table twice
        return float((a - b).std())

    low, high = spread(1.0), spread(8.0)
    assert high > 2 * low, (low, high)


def test_dealing_at_once_has_no_empty_frame_and_the_neat_table_has_three():
    at_once = deal_sequence(6, dataclasses.replace(neat(), at_once=True), cards=12)
    assert all(t.top is not None or t.flying is not None for t in at_once.frame_truth)
    tidy = deal_sequence(6, neat(), cards=12)
    assert [t.top is None and t.flying is None for t in tidy.frame_truth[:4]] == [True, True, True, False]


def test_the_timeline_is_a_10_fps_camera_s():
    seq = deal_sequence(7, realistic_nuisances(np.random.default_rng(7)), cards=24)
    order = [t.top for t in seq.frame_truth if t.top is not None]
    assert [c for i, c in enumerate(order) if i == 0 or order[i - 1] != c] == seq.truth
    for i in range(len(seq.truth)):
        lying = seq.lying_frames(i)
        in_air = [t for t in seq.frame_truth if t.flying == seq.truth[i]]
        assert len(lying) - sum(1 for n in lying if not seq.frame_truth[n].still) in range(3, 8)
        assert len(in_air) in range(0, 3)


def test_the_same_seed_gives_the_same_frames_and_another_seed_others():
    nu = realistic_nuisances(np.random.default_rng(3))
    a = deal_sequence(3, nu, cards=12).frame(9).image
    b = deal_sequence(3, nu, cards=12).frame(9).image
    c = deal_sequence(4, nu, cards=12).frame(9).image
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_a_reflection_that_moves_changes_the_still_table_between_frames():
    still = deal_sequence(8, dataclasses.replace(pushed("reflection", 1.5), gain=1.0), cards=12)
    moving = deal_sequence(8, dataclasses.replace(pushed("reflection_move_mm", 40.0), gain=1.0), cards=12)

    def change(seq) -> float:
        n = next(n for n in seq.lying_frames(0) if seq.frame_truth[n + 1].still)
        a, b = (cv2.GaussianBlur(seq.frame(k).image, (0, 0), 3).astype(np.float32) for k in (n, n + 1))
        return float(np.abs(a - b).max())  # (the noise blurred away)

    assert change(moving) > 2 * change(still)
    # the truth says how bright the reflection is on the top card
    lying = [t for t in still.frame_truth if t.still and t.top is not None]
    assert max(t.glare for t in lying) >= 0.6
    assert all(t.glare == 0 for t in deal_sequence(8, pushed("reflection", 0.0), cards=12).frame_truth)


def test_a_lingering_hand_is_in_view_while_the_cards_lie_still():
    seq = deal_sequence(9, pushed("linger", 1.0), cards=12)
    still = [t for t in seq.frame_truth if t.still and t.top is not None]
    assert sum(t.hand for t in still) > len(still) / 3


def test_realistic_nuisances_are_at_least_as_harsh_as_the_issue_says():
    draws = [realistic_nuisances(np.random.default_rng(s)) for s in range(300)]
    assert max(d.offset_cm for d in draws) >= 3.5
    assert max(d.rotation_deg for d in draws) >= 22
    assert sum(d.either_way for d in draws) > 150
    assert sum(d.gain >= 6 for d in draws) > 60
    assert 50 < sum(d.at_once for d in draws) < 200
    assert {d.background for d in draws} == {"mat", "felt", "wood", "marble"}
    assert all(50 <= d.height_cm <= 65 for d in draws)
    assert sum(d.reflection_move_mm > 10 for d in draws) > 100
    assert set(SWEEP) >= {"offset_cm", "rotation_deg", "gain", "reflection", "shadow", "jitter", "at_once", "linger"}


def test_learning_photos_say_the_true_reason_to_refuse_them():
    fine = learning_photo("3C", "wood", 1, reflection=True)
    assert fine.truth.refuse is None and fine.truth.reflection is not None
    x, y, r = fine.truth.reflection
    # beside the card: its nearest corner is at least the reflection's tenth-of-peak radius away
    assert np.linalg.norm(fine.truth.quad - (x, y), axis=1).min() >= r
    h, w = fine.image.shape[:2]
    assert (fine.truth.quad >= 0).all() and (fine.truth.quad[:, 0] < w).all() and (fine.truth.quad[:, 1] < h).all()
    assert learning_photo("3C", "felt", 2, cut=True).truth.refuse == CUT
    assert learning_photo("3C", "marble", 3, reflection_on=True).truth.refuse == REFLECTION_ON


def test_every_surface_is_drawn_and_a_gingham_is_checked():
    x, y = np.meshgrid(np.arange(0, 200, 0.5, dtype=np.float32), np.arange(0, 100, 0.5, dtype=np.float32))
    means = set()
    for kind in KINDS:
        albedo = table_surface(kind, np.random.default_rng(1)).albedo(x, y)
        assert albedo.shape == (*x.shape, 3)
        means.add(tuple(np.round(albedo.reshape(-1, 3).mean(0) / 10)))
    assert len(means) >= 5
    cloth = table_surface("gingham", np.random.default_rng(2)).albedo(x, y)
    assert cloth.std() > 30  # white and coloured squares
    hm = np.eye(3)
    px, py = table_points((8, 4), hm)
    assert px[0, 7] == pytest.approx(7) and py[3, 0] == pytest.approx(3)


def test_marked_frames_see_only_cards_on_the_table():
    f = marked_frame(11, "gingham", resolution="720p", cards=12, layout="spread")
    assert f.image.shape == (720, 1280, 3)
    assert f.visible <= set(f.face_up) and len(f.visible) >= 6


def test_a_learning_card_on_the_mat_lies_wholly_on_it_clear_of_its_markers():
    from tests.realcam.props import move, rot
    from tests.realcam.rough.learning import _on_mat

    middle = move(-30.5, -47.5)
    assert _on_mat(middle) and _on_mat(rot(90) @ middle)
    assert not _on_mat(move(180, 0) @ middle)  # over the mat's right edge (210 mm from the middle)
    assert not _on_mat(move(-170, -100) @ middle)  # on the top-left corner marker
