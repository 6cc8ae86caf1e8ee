"""Score by camera: the scan screen hosts the CameraService fed by the demo source (no
camera needed), reads a pile live and reaches the confirmation; a read can be corrected."""

from __future__ import annotations
from kiosk.table import sheet_of

import time

import numpy as np
import pytest

from kiosk.commands.run import camera_factory
from kiosk.ui.sound import SoundPlayer
from tests.ui.flows import bid, start_match, wait_for

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def read_pile(d, *, want: int = 16, timeout: float = 30.0) -> list[str]:
    screen = d.current
    end = time.monotonic() + timeout
    while time.monotonic() < end and len(screen.pile.cards) < want:
        d.pump(1)
        time.sleep(0.02)
    return list(screen.pile.cards)


def test_match_to_101_by_camera(kiosk):
    """The demo pile (16 cards, 25 points) read for Nosaltres: Vosaltres make 47, and under
    botifarra + contro + recontro (x8) score 88 a hand."""
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"))
    start_match(d)
    hands = 0
    while d.screen != "match_won":
        bid(d, "botifarra", levels=("contro", "recontro"))
        d.tap("score_camera")
        assert d.screen == "score_camera"
        screen = d.current
        cards = read_pile(d)
        assert len(cards) == 16, screen.pile.status
        assert screen.ids.preview.texture is not None  # the preview shows frames
        assert screen.pile.complete  # the hint says the read is complete
        d.tap("ok")  # whose pile? not said yet: nothing proposed
        assert d.screen == "score_camera" and d.app.banner.text
        d.tap("team_A")
        d.tap("ok")
        assert d.screen == "confirm"
        result = d.app.session.state.pending.result
        assert result.source == "camera" and sorted(result.piles["A"]) == sorted(cards)
        assert result.evidence and result.evidence.endswith(".jpg")
        d.tap("confirm")
        assert sheet_of(d.app.session.match)[-1].source == "camera"
        assert screen.pile.service is None  # the camera is stopped when the screen is left
        hands += 1
        assert hands <= 3
    assert d.app.session.state.winner == "B" and d.app.session.state.totals["B"] >= 101


def test_space_bar_scans_and_a_read_is_corrected_card_by_card(kiosk, tmp_path):
    player = SoundPlayer(tmp_path / "sounds")  # no buzzer: the speaker ticks (SDL dummy audio)
    assert player.prepare()
    ticks = []
    player.sound("tick").bind(on_play=lambda sound: ticks.append(sound))
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"), sound=player)
    start_match(d)
    bid(d, "copes")
    d.key(32)  # space = scan: opens the camera from the scoreboard
    assert d.screen == "score_camera"
    cards = read_pile(d)
    assert len(cards) == 16
    assert len(ticks) == 16  # one tick per card counted
    d.tap("team_A")
    d.tap("correct")
    assert d.screen == "score_cards"
    assert sorted(c.code for c in d.current.picker.selected) == sorted(cards)
    where = [tuple(b.to_window(*b.pos)) for b in d.current._buttons.values()]
    d.tap(cards[0])  # remove one card: not whole tricks any more
    d.tap("ok")
    assert d.screen == "score_cards" and d.current.problem  # said in its reserved line
    assert [tuple(b.to_window(*b.pos)) for b in d.current._buttons.values()] == where
    d.tap(cards[0])
    d.tap("ok")
    assert d.screen == "confirm" and d.app.session.state.pending.result.source == "camera"


def test_no_camera_says_so_and_other_paths_work(kiosk):
    def broken(**callbacks):
        raise OSError("no such device")
    d = kiosk.start(camera_factory=broken)
    start_match(d)
    bid(d, "espases")
    d.tap("score_camera")
    assert "Cards" in d.current.pile.status or "Cartes" in d.current.pile.status
    d.tap("back")
    assert d.screen == "scoreboard"


def test_a_still_says_what_to_fix_and_circles_the_card_to_move(kiosk, tmp_path):
    """A realistic pile under a harsh lamp: the still (taken when the pile settles) finds
    cards veiled by the lamp's reflection; the screen asks, in Catalan, to move them until they
    no longer shine, and the preview circles where they lie in yellow."""
    from tests.realcam.render import render
    from vision.reader import PileReader
    from vision.service import StickerService
    from vision.sources import FileSource

    shot = render(1, mode="1080p", cards=14, layout="spread", lighting="harsh", glare=1.6, distractors=(),
                  height_cm=55)
    photo = tmp_path / "pile.jpg"
    photo.write_bytes(shot.jpeg)

    def factory(**callbacks):
        return StickerService(FileSource(photo, fps=10, still=photo), PileReader(), **callbacks)

    d = kiosk.start(camera_factory=factory)
    start_match(d)
    bid(d, "oros")
    d.tap("score_camera")
    screen = d.current
    assert wait_for(d, lambda: screen.pile.guidance, timeout=30)
    assert "reflex" in screen.pile.guidance and "encerclad" in screen.pile.guidance and "brilli" in screen.pile.guidance
    assert d.current.ids.hint.text == screen.pile.guidance  # shown where the status was

    def yellow() -> int:
        px = np.frombuffer(screen.ids.preview.texture.pixels, np.uint8).reshape(-1, 4)
        return int(((px[:, 0] > 200) & (px[:, 1] > 180) & (px[:, 2] < 60)).sum())

    assert wait_for(d, lambda: screen.ids.preview.texture is not None and yellow() > 30, timeout=10)
    d.pump(2, draw=True)
    d.shot()
