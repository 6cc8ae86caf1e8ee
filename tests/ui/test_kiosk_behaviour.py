"""Kiosk behaviour: language switch without restart, Escape and window-close, errors that
return to the scoreboard with the score safe, the watchdog petted from the Clock, GPIO
buttons hopped onto the Clock, keyboard fallbacks."""

from __future__ import annotations

import threading
import time

import pytest
from kivy.clock import Clock

from tests.ui.flows import bid, score_points, start_match

pytestmark = pytest.mark.ui


def test_language_switch_takes_effect_at_once(kiosk):
    d = kiosk.start()
    assert d.find("new_match").text == "Nova partida"
    d.tap("language")
    assert d.app.language == "es"
    assert d.find("new_match").text == "Nueva partida"
    d.shot(force=True)
    d.tap("language")
    assert d.find("new_match").text == "New match"
    d.tap("language")
    assert d.find("new_match").text == "Nova partida"


def test_escape_and_close_do_not_quit_in_kiosk_mode(kiosk):
    d = kiosk.start(kiosk_mode=True)
    assert d.window.dispatch("on_request_close") is True
    assert d.window.dispatch("on_key_down", 27, 0, "", []) is True
    d.pump()
    assert d.app.sm is not None and d.screen == "scoreboard"


def test_windowed_mode_may_close(kiosk):
    d = kiosk.start(kiosk_mode=False)
    assert not d.window.dispatch("on_request_close")


@pytest.mark.expect_errors
def test_an_unexpected_error_returns_to_the_scoreboard_with_the_score_safe(kiosk, caplog):
    d = kiosk.start()
    start_match(d)
    bid(d, "oros")
    score_points(d, "A", 45)
    assert d.screen == "confirm"

    def boom(dt):
        raise RuntimeError("a bug in a screen")
    Clock.schedule_once(boom, 0)
    d.pump(3)  # Kivy's Clock hands the error to the ExceptionManager (our handler)
    assert d.screen == "scoreboard"
    assert "La puntuació està guardada" in d.app.banner.text
    assert "a bug in a screen" in caplog.text  # logged with its traceback
    d.shot(force=True)
    # the match is intact and the hand can still be scored
    assert d.app.session.match is not None and d.app.session.state.phase == "playing"


class FakeWatchdog:
    def __init__(self):
        self.pets = 0
        self.ready_calls = 0

    def interval(self):
        return 0.01

    def pet(self):
        self.pets += 1

    def ready(self):
        self.ready_calls += 1


def test_the_watchdog_is_petted_from_the_clock(kiosk):
    dog = FakeWatchdog()
    d = kiosk.start(watchdog=dog)
    assert dog.ready_calls == 1
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        d.pump(1)
        time.sleep(0.01)
    assert dog.pets >= 3


class FakeControls:
    when_scan = when_confirm = when_undo = when_settings = None


def test_gpio_buttons_are_hopped_onto_the_clock(kiosk):
    controls = FakeControls()
    d = kiosk.start(controls=controls)
    start_match(d)
    bid(d, "oros")
    ui_thread = threading.current_thread()
    seen = []
    original = d.app.press
    d.app.press = lambda name: (seen.append(threading.current_thread() is ui_thread), original(name))
    t = threading.Thread(target=controls.when_undo)  # a gpiozero thread
    t.start()
    t.join()
    assert d.app.session.state.phase == "playing"  # nothing happened on the button's thread
    d.pump(2)
    assert seen == [True]
    assert d.app.session.state.phase == "doubling"  # undo of "play" ran on the UI thread


def test_enter_confirms_a_hand(kiosk):
    d = kiosk.start()
    start_match(d)
    bid(d, "copes")
    score_points(d, "B", 46)
    d.key(13)
    assert d.screen == "scoreboard" and d.app.session.state.totals == {"A": 0, "B": 10}




def test_a_resize_writes_to_no_widget_that_a_collection_took_during_it(kiosk):
    """The scale ``u`` that some 500 kv rules follow changes on a resize. Widgets a screen
    dropped (the card grid, rebuilt when the window turns) wait for the cycle collector,
    which any thread may run at any moment while it is on (the camera's, the screenshot
    writer's). Here another thread runs it at the worst one: as Kivy calls a dropped label's
    rule. Kivy then writes to the label that is gone: "ReferenceError: weakly-referenced
    object no longer exists" (CI, once). No collection runs while the scale changes."""
    import gc
    import sys
    import threading

    from kiosk.ui.widgets import KLabel

    d = kiosk.start()
    labels = [KLabel(text=str(i)) for i in range(6)]
    for label in labels:
        label.cycle = label  # only the cycle collector frees it, once dropped
    dropped, ids = [w.proxy_ref for w in labels], {id(w) for w in labels}
    del label
    collections, met = [], []

    def another_thread_collects_at_the_worst_moment(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "call_fn":
            if id(getattr(frame.f_locals["args"][0], "__self__", None)) in ids:
                met.append(1)
                if not gc.isenabled():
                    return
                collector = threading.Thread(target=lambda: collections.append(gc.collect()))
                collector.start()
                collector.join()

    sys.setprofile(another_thread_collects_at_the_worst_moment)
    try:
        del labels  # dropped: alive until a collection
        d.resize((1280, 720))
        d.resize((800, 480))
    finally:
        sys.setprofile(None)
    assert d.app.u == 1.0 and collections == [] and met  # a dropped label's rule was called
    gc.collect()
    for proxy in dropped:  # and collected after
        with pytest.raises(ReferenceError):
            proxy.text
