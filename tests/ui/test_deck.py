"""Ordinary decks at the kiosk: "Aprendre la baralla" from the settings, and scoring a pile by
dealing it face up (camera.marks = deck:NAME), on drawn frames played by the file camera."""

from __future__ import annotations

import os

import cv2
import numpy as np
import pytest

from kiosk.commands.run import camera_factory
from kiosk.game import DECK, Card
from kiosk.settings import Settings
from tests.ui.flows import bid, start_match, wait_for
from tests.ui.ui2steps import open_settings
from tests.vision import deckdraw
from vision.deck.store import DeckStore

pytestmark = [pytest.mark.ui, pytest.mark.slow]
ORDER = [Card.parse(c) for c in ("9O", "1C", "7E", "8B", "3O")]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"



def test_a_pile_dealt_face_up_is_counted_and_goes_to_the_confirmation(kiosk, data_dir, tmp_path):
    DeckStore(data_dir / "decks").save(deckdraw.learnt("A"))
    frames = tmp_path / "frames"
    frames.mkdir()
    # the second card lands under a stain of beer: the kiosk asks, the player lays it down again
    deal = deckdraw.deal(ORDER, seed=21, still=12, stained=(1,))
    for i, frame in enumerate(deal.frames):
        cv2.imwrite(str(frames / f"{i:04d}.jpg"), frame)
    lying = (frames / f"{len(deal.frames) - 1:04d}.jpg").read_bytes()
    for i in range(len(deal.frames), len(deal.frames) + 100):  # the pile lies there 10 s more
        (frames / f"{i:04d}.jpg").write_bytes(lying)  # the same picture: encoded once
    settings = Settings()
    settings.set("camera.marks", "deck:deckA")

    def camera(*, on_frame=None, on_cards=None, on_status=None, **_):
        """camera_factory's deal-through service, the frames in lockstep with the reader (a
        camera gives its frames whatever the machine's load: a busy test machine made the
        file camera skip frames, and the 4th and 5th cards came out swapped)."""
        from kiosk.commands.deck import deal_service
        from tests.overhead.lockstep import LockstepSource

        return deal_service(LockstepSource(frames), "deckA", on_frame=on_frame, on_cards=on_cards,
                            on_status=on_status)

    d = kiosk.start(settings=settings, camera_factory=camera)
    start_match(d)
    bid(d, "oros")
    d.tap("score_camera")
    assert d.screen == "deal"
    screen = d.current
    shown = []
    screen.deal.bind(ask=lambda _w, text: shown.append(text))
    assert wait_for(d, lambda: "torneu-la a posar" in screen.deal.ask), (shown, screen.pile.cards, screen.deal.ask, screen.pile.status)
    assert wait_for(d, lambda: "torneu-la a posar" in screen.deal.ask), (screen.pile.cards, screen.deal.ask, screen.pile.status)
    assert screen.pile.cards == [ORDER[0].code]  # asked, never guessed
    d.pump(2, draw=True)
    d.shot(state="ask")
    assert wait_for(d, lambda: len(screen.pile.cards) == len(ORDER)), (screen.pile.cards, screen.deal.ask, screen.pile.status)
    assert screen.pile.cards == [c.code for c in ORDER]
    assert screen.deal.ticked and screen.deal.last_card.startswith("3 oros")
    d.pump(2, draw=True)
    d.shot()
    d.tap("take_back")
    assert screen.pile.cards == [c.code for c in ORDER[:4]]
    assert screen.deal.last_card.startswith("8 bastos")
    d.tap("team_A")  # whose pile: an explicit choice on every score path
    d.tap("ok")
    assert d.screen == "confirm"
    result = d.app.session.state.pending.result
    assert result.source == "camera" and result.piles["A"] == [c.code for c in ORDER[:4]]
    d.finish()


def test_learn_the_deck_from_the_settings(kiosk, data_dir, tmp_path):
    photo = tmp_path / "9O.jpg"
    cv2.imwrite(str(photo), deckdraw.enrol_photo(Card.parse("9O")))
    d = kiosk.start(camera_factory=camera_factory(f"file:{photo}", "aruco"))
    open_settings(d)
    d.tap("learn_deck")
    assert d.screen == "learn_deck"
    screen = d.current
    assert wait_for(d, lambda: screen.service is not None and screen.service.latest_frame is not None)
    assert screen.learning.current == DECK[0]  # 9O, the first card asked for
    d.tap("learn", shot=False)
    assert wait_for(d, lambda: not screen.busy)
    assert dict(screen.grid)["9O"] == "learnt" and screen.learning.current == DECK[1]
    # the same card again, for 1O: flagged, not learnt
    d.tap("learn", shot=False)
    assert wait_for(d, lambda: not screen.busy)
    assert screen.learning.flagged == {DECK[1]: DECK[0]} and "9 oros" in screen.prompt
    assert screen.learning.current == DECK[1]  # still the card to show
    assert not d.has("save")  # not before all 48 are learnt
    d.pump(2, draw=True)
    d.shot()
    # a card across the photo's edge: refused for that, and circled on the preview there
    from kiosk.ui.i18n import _
    from kiosk.ui.screens.learn_deck import PROBLEMS
    cut = tmp_path / "cut.jpg"
    cv2.imwrite(str(cut), deckdraw.enrol_photo(Card.parse("3E"), centre=(1270, 360), light=deckdraw.Light(gain=0.9)))
    shown = screen.service.latest_frame.image
    os.replace(cut, photo)  # the file camera reads the file again each frame
    # wait for the new photo itself, not for two more frames: a frame read from the old file
    # just before the swap may still be handed on after it (a busy machine: the old 9O was learnt)
    assert wait_for(d, lambda: not np.array_equal(screen.service.latest_frame.image, shown))
    d.tap("learn", shot=False)
    assert wait_for(d, lambda: not screen.busy)
    assert screen.prompt == _(PROBLEMS["cut"]) and screen.learning.current == DECK[1]
    assert len(screen.problem_where) == 8 and max(screen.problem_where[0::2]) > 0.95
    d.pump(2, draw=True)
    preview = screen.ids.preview
    x, y, r = screen.preview_ring(screen.problem_where, preview.center, preview.norm_image_size)
    # at the preview's right edge, half way up, about a card across
    assert abs(x - (preview.center_x + preview.norm_image_size[0] / 2)) < 0.1 * preview.norm_image_size[0]
    assert abs(y - preview.center_y) < 0.1 * preview.height and 0.1 < r / preview.norm_image_size[1] < 0.6
    d.shot(state="refused")
    d.app.set_language("es")  # the refusal is said again in the new language, still circled
    assert screen.prompt == "La carta no se ve entera: ponla en el centro" and len(screen.problem_where) == 8
    d.app.set_language("ca")
    assert screen.prompt == _(PROBLEMS["cut"]) and len(screen.problem_where) == 8
    # any card can be learnt again alone: choose 9O in the grid
    screen.choose("9O")
    assert dict(screen.grid)["9O"] == "current" and dict(screen.grid)["1O"] == "flagged"
    assert screen.ids.grid.children[-1].cell_state == "flagged"  # the 1O cell is red
    d.tap("back", shot=False)
    assert d.screen == "settings"
    d.finish()
