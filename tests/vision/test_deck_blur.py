"""A card seen through a defocused lens (or a shaken camera, or from far away): its rank index
is a blur, and a "10" and a "12" differ in a few strokes. The learnt indices are compared with
the seen one at the blur that fits it, the same for every candidate, and that figure counts
only when the sharp comparison already leans the same way (``model.CORNER_AGREE``)."""

from __future__ import annotations

import cv2

from kiosk.game import Card
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import neat
from tests.vision import realdeck
from vision.deck import model as deck_model
from vision.deck.views import views_around

# a ten and a twelve of one suit, their neighbours and the same ranks in other suits
LEARNT = ("10E", "11E", "12E", "1E", "2E", "10B", "12B", "10O", "12O", "10C", "12C")


def test_a_blurred_ten_and_twelve_are_each_named_never_the_other(monkeypatch):
    learnt = realdeck.learnt("moderna", LEARNT)
    seq = deal_sequence(34012, neat(), resolution="720p", cards=6, deck_style="moderna")
    seen = []
    for i in (1, 2):  # 12E, then 10E: the lens defocused by 2 px (sigma)
        n = [n for n in seq.lying_frames(i) if seq.frame_truth[n].still][1]
        image = cv2.GaussianBlur(seq.frame(n).image, (0, 0), 2.0)
        seen.append((seq.truth[i], views_around(image, seq.frame_truth[n].quad)))
    assert [code for code, _ in seen] == ["12E", "10E"]
    for code, views in seen:
        assert learnt.identify(views).card == Card.parse(code)
    # the same views compared at the sharp scale alone: the index does not decide (asked, not guessed)
    monkeypatch.setattr(deck_model, "SOFTEN", (0.0,))
    for code, views in seen:
        naming = learnt.identify(views)
        assert naming.card is None and naming.why == "rank" and naming.best == Card.parse(code), naming
