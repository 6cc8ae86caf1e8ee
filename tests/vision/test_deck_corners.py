"""The rank-index corners decide between a sota and a rei that look alike as a whole (the
10 and the 12 of oros of the drawn fournier deck differ in a few strokes of the figure):
realistic renders of those cards, with the outline left a few degrees and millimetres off
the card (what a frame difference over the pile gives), must be named right, and the index
must keep saying which of the two it is, both ways."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.game import Card
from tests.realcam.render import render
from tests.vision import realdeck
from vision.deck.model import CORNER_MARGIN
from vision.deck.views import views_around

# the two figures, their third, and the same ranks of another suit
LEARNT = ("10O", "11O", "12O", "10C", "12C")
CARD_W_MM = 61.0
# (turn in degrees, shift in mm) of the outline against the card: the bench's asked 10 of
# oros had its index 3-4 degrees turned and at the end of the old 2.5 mm slide
OFF = ((3.5, (2.5, 0.0)), (4.0, (2.0, 2.0)), (-3.5, (-2.0, 2.0)))


@pytest.fixture(scope="module")
def model():
    return realdeck.learnt("fournier", LEARNT)


def _card_on_mat(code: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    shot = render(seed, mode="1080p", layout="stack", cards=[code], distractors=(), deck_style="fournier",
                  marks=None, lighting="even")
    return shot.image, np.float32(shot.truth[0].card_corners)


def _off(quad: np.ndarray, turn_deg: float, shift_mm: tuple[float, float]) -> np.ndarray:
    sides = sorted(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))
    px_per_mm = float(np.mean(sides[:2])) / CARD_W_MM
    a = np.radians(turn_deg)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    middle = quad.mean(axis=0)
    return (quad - middle) @ turn.T + middle + np.float32(shift_mm) * px_per_mm


@pytest.mark.parametrize("seed", [1, 3])
def test_a_sota_under_an_outline_off_the_card_is_named_by_its_index(model, seed):
    image, quad = _card_on_mat("10O", seed)
    for turn, shift in OFF:
        naming = model.identify(views_around(image, _off(quad, turn, shift)))
        assert naming.card == Card.parse("10O"), (turn, shift, naming)
        assert naming.runner_up == Card.parse("12O")  # the whole card alone could not tell
        assert naming.corner_margin >= CORNER_MARGIN


@pytest.mark.parametrize("seed", [1, 3])
def test_the_rei_under_the_same_outlines_is_never_taken_for_the_sota(model, seed):
    image, quad = _card_on_mat("12O", seed)
    ten, twelve = Card.parse("10O"), Card.parse("12O")
    for turn, shift in OFF:
        views = views_around(image, _off(quad, turn, shift))
        assert model.identify(views).card == twelve
        # the corner alignment is searched for the rival's index too: it must not pull a
        # "12" towards a "10"
        best = max(views, key=lambda v: float(v.whole @ model.whole[2 * model.cards.index(ten)]))
        assert model.corner_margin(best, ten, [twelve]) < 0
