"""The deck reader's geometry on the realistic camera (tests/realcam): where a learnt card's
edges are, and how big a card is on the mat. Both decide whether a dealt card is compared
with its learnt view at the right place, and whether two cards dealt together are noticed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.realcam.deal import enrol_photo
from tests.realcam.render import render
from vision.deck.scale import TableScale
from vision.deck.store import learn_photo
from vision.deck.views import order_quad


@pytest.mark.parametrize("style,code,mode", [("fournier", "9O", "1080p"), ("moderna", "9O", "1080p"),
                                             ("fournier", "6E", "1080p"), ("moderna", "6O", "720p")])
def test_a_learnt_outline_lies_on_the_card_edges(style, code, mode):
    # the moderna paper is close to the mat's colour: a colour threshold snaps to its
    # printed frame, 3 mm inside; the edge fit must find the paper's own edge. On the
    # fournier swords some profiles along a side stop short of the edge (a 9 px skew
    # when they pulled the line): the side's line keeps to the points that agree. At
    # 720p the moderna frame lies 0.13 of the card's width inside its edge.
    shot = enrol_photo(code, deck_style=style, mode=mode)
    quad, _ = learn_photo(shot.image)
    truth = order_quad(shot.truth[0].card_corners)
    error = np.linalg.norm(order_quad(quad) - truth, axis=1)
    assert error.max() < 2.5, error  # px; the card is about 200 px long at 1080p, 130 at 720p
    assert abs(np.linalg.norm(quad[1] - quad[2]) - np.linalg.norm(truth[1] - truth[2])) < 2.0


def test_the_mat_markers_give_a_cards_size_where_it_lies():
    shot = render(4, mode="720p", cards=["7B"], layout="stack", distractors=(), marks=None, lighting="even")
    scale = TableScale.find(shot.image)
    assert scale is not None and scale.markers >= 2
    corners = shot.truth[0].card_corners
    expected = scale.card_area_px(tuple(corners.mean(axis=0)))
    assert abs(expected / cv2.contourArea(np.float32(corners)) - 1) < 0.06
    # the same at half the width (the tracker looks at a smaller copy)
    half = scale.scaled(0.5).card_area_px(tuple(corners.mean(axis=0) / 2))
    assert abs(half / expected - 0.25) < 0.01


def test_no_mat_no_scale():
    shot = render(5, mode="720p", cards=["7B"], layout="stack", distractors=(), marks=None, mat=None)
    assert TableScale.find(shot.image) is None
