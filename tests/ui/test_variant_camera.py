"""Score a game without pairs by camera (issue 24): the demo camera's marked pile read for
one player, the next player's pile read apart (a card already counted stays with the first
player, kept in the draft), the rest of the deck to the player left; the hand confirmed with the camera as its
source and its photo; Back, then Correct opens the card grid with the piles read."""

from __future__ import annotations

import time

import pytest

from kiosk.commands.run import camera_factory
from tests.ui.test_variants import new_game, read_pile as read

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_piles_read_by_camera_one_player_at_a_time(kiosk):
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"))
    new_game(d, "2", ["Anna", "Pere"])
    s = d.app.session
    d.tap("trump_copes")
    d.tap("camera")
    assert d.screen == "variant_camera" and d.has("seat_0") and d.has("seat_1")
    anna = read(d, 0)
    assert len(anna) == 16 and d.current.scoring is not None
    assert d.current.ids.preview.texture is not None  # the preview shows frames
    d.tap("seat_1")  # Anna's pile kept; the same pile seen again is not Pere's
    time.sleep(0.5)
    d.pump(5)
    assert d.current._piles() == [anna, []] and list(s.state.draft.piles[0]) == anna
    d.tap("ok")  # Pere takes the other 32 cards
    assert d.screen == "variant_confirm"
    result = s.state.pending.result
    assert result.source == "camera" and result.evidence and result.evidence.endswith(".jpg")
    assert sorted(result.event["piles"][0]) == sorted(anna) and len(result.event["piles"][1]) == 32
    d.tap("back")  # back to the camera, then the piles corrected by hand
    assert d.screen == "variant_camera"
    d.tap("correct")
    assert d.screen == "variant_cards" and list(s.state.draft.piles[0]) == anna
    rest = [c.code for c in s.match.game.deck if c.code not in anna]
    d.tap("seat_0", shot=False)
    d.tap(rest[0], shot=False)  # one more trick for Anna
    d.tap(rest[1], shot=False)
    d.tap("ok")
    result = s.state.pending.result
    assert [len(p) for p in result.event["piles"]] == [18, 30] and result.source == "camera"
    assert result.evidence and result.evidence.endswith(".jpg")  # the photo kept
    d.tap("confirm")
    assert s.state.game.rows[-1].kind == "played" and d.screen == "variant_board"
