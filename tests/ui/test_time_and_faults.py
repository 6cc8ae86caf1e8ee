"""The tournament clock on the scoreboard, and start-up faults shown to the table."""

from __future__ import annotations

import os
import time

import pytest

from tests.ui.flows import bid, score_points

pytestmark = pytest.mark.ui


class ShiftedClock:
    """The real clock moved forward by ``shift`` seconds (the kiosk's injected clock)."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift


def shot_as(d, label: str) -> None:
    """A screenshot of the current screen under its own name (the same screen, another state)."""
    name = d.test_name
    d.test_name = f"{name}_{label}"
    d.shot(force=True)
    d.test_name = name


def start_butinet(d) -> None:
    d.tap("new_match")
    d.tap("preset")  # reglament -> butinet: 12 hands or 101, 60 minutes
    d.tap("dealer_0")
    d.tap("start")
    assert d.screen == "scoreboard"


def test_the_clock_runs_out_and_the_hand_in_progress_is_the_last(kiosk):
    clock = ShiftedClock()
    d = kiosk.start(clock=clock)
    start_butinet(d)
    board = d.current
    assert board.clock in ("60:00", "59:59") and board.time_note and not board.time_is_up
    bid(d, "oros")
    clock.shift = 3600 - 1.2  # a tiny limit left: about a second
    deadline = time.monotonic() + 5
    while not d.app.session.tournament.time_up and time.monotonic() < deadline:
        d.pump(5)
    d.pump(3)
    assert d.app.session.tournament.time_up
    events = kiosk.app.journal.events(d.app.session.state.match_id)
    assert events[-1] == {"type": "time_up"}
    assert board.clock == "0:00" and board.time_is_up
    assert "Temps! Aquesta és l'última mà" in d.app.banner.text
    assert board.time_note == "Temps! Aquesta és l'última mà" and not d.has("call_time")
    shot_as(d, "time_up")
    score_points(d, "A", 60)
    d.tap("confirm")
    assert d.screen == "match_won"  # the last hand is scored: the match is over


def test_the_organiser_calls_time_after_a_confirmation(kiosk):
    d = kiosk.start()
    start_butinet(d)
    bid(d, "copes")
    d.tap("call_time")
    assert d.has("call_time_yes") and d.has("call_time_no") and not d.has("score_points")
    shot_as(d, "asking")
    d.tap("call_time_no")
    assert not d.app.session.tournament.time_up and d.has("score_points")
    d.tap("call_time")
    d.tap("call_time_yes")
    assert d.app.session.tournament.time_up and d.has("score_points") and not d.has("call_time")
    assert "Temps!" in d.app.banner.text
    shot_as(d, "called")


def test_a_damaged_journal_is_set_aside_and_said_on_screen(kiosk):
    kiosk.db.write_bytes(os.urandom(8192))
    d = kiosk.start()
    assert d.screen == "scoreboard"
    moved = kiosk.app.journal.moved_aside
    assert moved is not None and moved.moved_to.exists()
    text = d.app.banner.text
    assert "malmès" in text and moved.moved_to.name in text and d.app.banner.height > 0
    shot_as(d, "journal_damaged")
    # the message is long: a tap on the strip shows it whole over the screen, a tap on that
    # hides it; neither reaches the buttons under them
    banner = d.app.banner
    assert banner.shortened
    d.touch_at(*banner.center)
    assert d.app.messages.panel.parent is not None and banner.text
    d.touch_at(*d.app.messages.panel.center)
    assert d.app.messages.panel.parent is None
    assert banner.text == "" and d.screen == "scoreboard"
    assert not d.app.messages.pending
    start_butinet(d)  # the new journal works
    assert kiosk.app.journal.current_match() is not None


def test_a_corrupt_settings_file_is_said_on_screen(kiosk, tmp_path):
    from kiosk.settings import Settings
    ini = tmp_path / "settings.ini"
    ini.write_bytes(b"\xff\xfe[ui\x00 language = ??\n" + os.urandom(200))
    settings = Settings.load(ini)
    assert settings.problems
    d = kiosk.start(settings=settings)
    assert d.screen == "scoreboard"
    assert "configuració" in d.app.banner.text and "guardada" in d.app.banner.text
    shot_as(d, "settings_bad")


def test_the_status_line_is_whole_in_portrait_and_inline_in_landscape(kiosk):
    d = kiosk.start()
    start_butinet(d)
    screen = d.current
    status = screen.status
    assert status.startswith("Mà 1/12") and "101" in status
    d.resize((720, 1280))
    d.pump(3)  # the line's height follows its text's texture, then the bar's layout
    line, inline = screen.ids.status_line, screen.ids.status_inline
    buttons_row = inline.parent
    assert line.text == status and inline.text == ""
    assert line.texture_size[0] <= line.width and line.texture_size[1] <= line.height < 2.5 * line.font_size
    assert line.top <= buttons_row.y + 1 and line.width >= screen.width * 0.9  # its own full line
    shot_as(d, "portrait_status")
    d.resize((800, 480))
    assert inline.text == status and line.text == "" and line.height == 0
    assert buttons_row.parent.height == buttons_row.height  # landscape: the bar as before


def test_a_message_stays_its_time_after_a_long_frame(kiosk):
    """Kivy's clock counts a timeout from its last tick. After a long stretch with no frame
    (a slow start on the Pi, a long save), a message must still stay its whole time."""
    import time
    d = kiosk.start()
    time.sleep(1.3)  # no frame for 1.3 s
    d.app.show_message("Prova", seconds=1.0)
    d.pump(3)
    assert d.app.banner.text == "Prova"
    time.sleep(1.1)
    d.pump(3)
    assert d.app.banner.text == ""
