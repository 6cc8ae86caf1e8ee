"""The realistic test camera (tests/realcam): the drawn deck, the stickers, the camera."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.game import DECK
from tests.realcam import deck


def test_every_card_has_its_own_face_in_both_styles():
    for name in deck.STYLES:
        faces = [deck.card_face(c, style=name, px_per_mm=3.0) for c in DECK]
        assert faces[0].shape == (round(95 * 3.0), round(61 * 3.0), 3)
        flat = {f.tobytes() for f in faces}
        assert len(flat) == 48


def test_the_two_styles_look_different():
    a = deck.card_face("9O", style="fournier", px_per_mm=3.0).astype(np.int16)
    b = deck.card_face("9O", style="moderna", px_per_mm=3.0).astype(np.int16)
    assert np.abs(a - b).mean() > 15
    assert not np.array_equal(deck.card_back(style="fournier", px_per_mm=3.0),
                              deck.card_back(style="moderna", px_per_mm=3.0))


def test_frame_breaks_count_by_suit():
    # along the top frame line of each suit's 2, count the runs of paper between line pieces
    for code, breaks in (("2O", 1), ("2C", 2), ("2E", 3), ("2B", 4)):
        ppm = 8.0
        face = deck.card_face(code, style="fournier", px_per_mm=ppm)
        st = deck.style("fournier")
        row = face[int(round(st.frame_mm * ppm)), :, :].astype(np.int16)
        inked = np.abs(row - np.array(st.paper)).sum(1) > 120
        x0, x1 = int((st.frame_mm + 12) * ppm), int((61 - st.frame_mm - 12) * ppm)
        seg = inked[int(st.frame_mm * ppm) + 2:int((61 - st.frame_mm) * ppm) - 2]
        gaps = int(np.sum(seg[1:] & ~seg[:-1]))  # paper -> ink transitions = breaks
        assert gaps == breaks, (code, gaps, x0, x1)


def test_unknown_style_is_refused():
    with pytest.raises(ValueError):
        deck.card_face("1O", style="francesa")
