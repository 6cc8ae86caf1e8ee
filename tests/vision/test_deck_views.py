"""The deck reader's card features and change finding: what the faster forms must keep
(the same numbers as the plain ones), and the paper's white balance under a lamp's colour."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kiosk.game import Card
from tests.realcam.deal import enrol_photo
from vision.deck.locate import change_groups, change_mask
from vision.deck.model import DeckModel
from vision.deck.store import learn_photo
from vision.deck.views import CHROMA_H, CHROMA_W, WHOLE_H, WHOLE_W, _chroma, views_around


def test_every_alignments_chroma_is_what_a_resize_of_each_gives():
    rng = np.random.default_rng(3)
    cells = rng.uniform(60, 200, (5, WHOLE_H, WHOLE_W, 2)).astype(np.float32)
    for view, got in zip(cells, _chroma(cells)):
        ab = cv2.resize(view, (CHROMA_W, CHROMA_H), interpolation=cv2.INTER_AREA)
        ab = ab - ab.reshape(-1, 2).mean(axis=0)
        want = ab.ravel() / max(float(np.linalg.norm(ab)), 25.0)
        assert np.abs(got - want).max() < 1e-5


def test_specks_are_dropped_and_a_thin_frame_line_is_kept():
    reference = np.full((120, 200, 3), 100, np.uint8)
    current = reference.copy()
    current[40, 20:120] = 160  # a card's printed frame line over a white card: 1 px wide
    current[90:92, 150:152] = 160  # 4 px of noise
    current[10, 190] = 160
    mask = change_mask(reference, current)
    assert np.count_nonzero(mask[40, 20:120]) == 100
    assert np.count_nonzero(mask) == 100


def test_change_groups_join_a_cards_pieces_and_drop_small_groups():
    mask = np.zeros((300, 400), np.uint8)
    mask[50:54, 50:150] = 255  # two pieces of one card's change, 16 px apart
    mask[70:200, 50:54] = 255
    mask[250:255, 300:305] = 255  # far away and small
    groups = change_groups(mask, join_px=21, min_area=2000)
    assert len(groups) == 1
    assert groups[0].area == pytest.approx(100 * 150 / 2, rel=0.1)  # the hull: a triangle


@pytest.mark.parametrize("gains", [(0.75, 0.95, 1.15), (1.2, 1.0, 0.7)])
def test_a_lamps_colour_leaves_a_card_as_alike_as_it_was(gains):
    # a warm or cold lamp (or a white balance unlike the learnt one) scales the suits'
    # colours: the paper made grey keeps the card where it was learnt (a blue cast left
    # the club at 0.66 of its learnt view, a third of the way to "not a card")
    codes = ("2B", "2E", "2C", "2O", "3B")
    photos = {}
    for code in codes:
        image = enrol_photo(code, deck_style="fournier").image
        photos[Card.parse(code)] = (image, learn_photo(image)[0])
    model = DeckModel.learn("t", photos)
    image, quad = photos[Card.parse("2B")]
    cast = np.clip(image * np.float32(gains), 0, 255).astype(np.uint8)
    naming = model.identify(views_around(cast, quad))
    assert naming.card == Card.parse("2B"), naming
    assert naming.score > 0.9, naming
