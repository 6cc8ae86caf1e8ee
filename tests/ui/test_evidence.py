"""The evidence photo: a hand read by the camera (demo source) is checked on its photo before
it is confirmed, and again later from the edit of that hand; a deleted photo says so."""

from __future__ import annotations
from kiosk.table import sheet_of

import time
from pathlib import Path

import pytest

from kiosk.commands.run import camera_factory
from tests.ui.flows import bid, start_match
from tests.ui.test_score_camera import read_pile

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def wait_photo(d, *, timeout: float = 10.0):
    screen = d.current
    end = time.monotonic() + timeout
    while time.monotonic() < end and screen.loading:
        d.pump(1)
        time.sleep(0.01)
    d.pump(3)
    return screen


def open_row(d, number: str) -> None:
    row = [w for w in d.current.ids.sheet.children if getattr(w, "number", "") == number][0]
    d.touch_at(*row.to_window(*row.center))


def test_photo_from_the_confirmation_then_from_the_edit(kiosk):
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"))
    start_match(d)
    bid(d, "copes")
    d.tap("score_camera")
    assert len(read_pile(d)) == 16
    d.tap("team_A")
    d.tap("ok")
    assert d.screen == "confirm"
    path = Path(d.app.session.state.pending.result.evidence)
    assert path.is_file()
    d.tap("evidence")
    assert d.screen == "evidence"
    screen = wait_photo(d)
    assert screen.message == "" and screen.texture is not None
    assert "16" in screen.caption and "1" in screen.title
    whole = tuple(screen.texture.size)
    photo = screen.ids.photo
    d.touch_at(*photo.to_window(*photo.center))  # a tap: 2x around the point
    assert screen.zoomed and tuple(screen.texture.size) == (whole[0] // 2, whole[1] // 2)
    d.touch_at(*photo.to_window(*photo.center))  # again: the whole photo
    assert not screen.zoomed and tuple(screen.texture.size) == whole
    nw, nh = photo.norm_image_size  # a tap near the photo's bottom-right corner zooms there
    d.touch_at(*photo.to_window(photo.center_x + nw * 0.45, photo.center_y - nh * 0.45))
    assert screen.zoomed and screen.zoom_origin == (whole[0] - whole[0] // 2, whole[1] - whole[1] // 2)
    d.touch_at(*photo.to_window(*photo.center))
    assert not screen.zoomed
    d.tap("back")
    assert d.screen == "confirm" and d.app.session.state.pending is not None  # nothing was lost
    d.tap("confirm")
    assert d.screen == "scoreboard" and sheet_of(d.app.session.match)[0].source == "camera"
    open_row(d, "1")
    assert d.screen == "edit_hand"
    d.tap("evidence")
    assert d.screen == "evidence"
    screen = wait_photo(d)
    assert screen.message == "" and screen.texture is not None
    d.tap("back")
    assert d.screen == "edit_hand"
    d.tap("cancel")
    assert d.screen == "scoreboard"


def test_a_deleted_or_corrupt_photo_says_so_and_a_points_hand_offers_none(kiosk):
    d = kiosk.start(camera_factory=camera_factory("demo", "aruco"))
    start_match(d)
    bid(d, "oros")
    d.tap("score_camera")
    assert len(read_pile(d)) == 16
    d.tap("team_A")
    d.tap("ok")
    path = Path(d.app.session.state.pending.result.evidence)
    path.unlink()  # the photo was deleted (or the card wiped): a clear message, the match intact
    d.tap("evidence")
    screen = wait_photo(d)
    assert screen.texture is None and screen.message and not screen.loading
    gone = screen.message
    d.tap("back")
    d.tap("confirm")
    assert d.screen == "scoreboard" and d.app.session.state.totals["B"] > 0
    open_row(d, "1")
    d.tap("evidence")
    assert wait_photo(d).message == gone
    d.tap("back")
    path.write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 64)  # a JPEG header and nothing after it
    d.tap("evidence")
    screen = wait_photo(d)
    assert screen.texture is None and screen.message not in ("", gone) and not screen.loading
    d.tap("back")
    d.tap("cancel")
    assert d.screen == "scoreboard"
    bid(d, "copes")
    d.tap("score_points")
    d.tap("team_A")
    d.tap("5")
    d.tap("0")
    d.tap("ok")
    assert d.screen == "confirm" and not d.has("evidence")
    back, ok = d.find("back"), d.find("confirm")  # the hidden button leaves no hole
    assert ok.x - back.right < 20 and ok.right <= d.window.width
