"""The docked on-screen keyboard of the new-match screen (the kiosk's keyboard_mode
systemanddock): keys of at least 9 mm at every size, and neither the name being typed nor
Començar under it; ⏎ goes on to the next name."""

from __future__ import annotations

import pytest

from tests.ui.harness import SHOTS, SIZES
from tests.ui.test_keyboard import _tap_key

pytestmark = pytest.mark.ui

PX_PER_MM_AT_U1 = 5.19  # the Pi 7" screen at 800x480 (docs/ui.md; the harness's audit)
FIELDS = ("team_a", "player_0", "player_2", "team_b", "player_1", "player_3")


@pytest.fixture
def docked():
    """The kiosk's keyboard mode (kiosk/commands/run.py), for this test only."""
    from kivy.config import Config
    from kivy.core.window import Window
    saved = (Config.get("kivy", "keyboard_mode"), Window.use_syskeyboard, Window.allow_vkeyboard,
             Window.single_vkeyboard, Window.docked_vkeyboard)
    Config.set("kivy", "keyboard_mode", "systemanddock")
    Window.use_syskeyboard, Window.allow_vkeyboard = True, True
    Window.single_vkeyboard, Window.docked_vkeyboard = True, True
    yield
    Config.set("kivy", "keyboard_mode", saved[0])
    (Window.use_syskeyboard, Window.allow_vkeyboard, Window.single_vkeyboard,
     Window.docked_vkeyboard) = saved[1:]


def keyboard():
    from kivy.core.window import Window
    from kiosk.ui.keyboard import KioskKeyboard
    found = [w for w in Window.children if isinstance(w, KioskKeyboard)]
    return found[0] if found else None


def rect(w):
    x, y = w.to_window(*w.pos)
    return x, y, x + w.width, y + w.height


def in_sight_above(w, kb, window) -> bool:
    x0, y0, x1, y1 = rect(w)
    return y0 >= kb.top - 0.5 and y1 <= window.height + 0.5 and x0 >= -0.5 and x1 <= window.width + 0.5


def test_keys_of_9mm_and_nothing_under_the_keyboard(kiosk, docked):
    d = kiosk.start()
    d.tap("new_match")
    assert d.screen == "new_match"
    ids = d.current.ids
    smallest: dict[tuple[int, int], tuple[float, float, float]] = {}
    for n, size in enumerate(SIZES):
        d.resize(size)
        field = ids[FIELDS[0]]
        d.touch_at(*field.to_window(*field.center))
        d.pump(4)
        kb = keyboard()
        assert kb is not None and field.focus, (size, d.errors)
        u = d.app.u
        nine_mm = 9 * PX_PER_MM_AT_U1 * u
        keys = [wh for line, geo in kb.layout_geometry.items() if line.startswith("LINE_") and "HINT" not in line for _pos, wh in geo]
        kw = min(w for w, _h in keys)
        kh = min(h for _w, h in keys)
        smallest[size] = (kw, kh, nine_mm)
        assert kw >= nine_mm and kh >= nine_mm, (size, kw, kh, nine_mm)
        assert d.app.keyboard_h == pytest.approx(kb.height) and kb.y == 0 and kb.width == size[0]
        start = d.find("start")
        assert in_sight_above(start, kb, d.window), (size, rect(start), kb.top)
        # each name in turn, with ⏎: the one being typed is in sight above the keys
        for i, key in enumerate(FIELDS):
            f = ids[key]
            assert f.focus, (size, key)
            assert in_sight_above(f, kb, d.window), (size, key, rect(f), kb.top)
            if i == 1:
                d.pump(2, draw=True)
                d.grab(SHOTS / f"{size[0]}x{size[1]}" / "test_keyboard_dock-typing.png")
            _tap_key(d, kb, "abcdef"[i])
            assert f.text.endswith("abcdef"[i]), (size, key, f.text)
            if i + 1 < len(FIELDS):
                _tap_key(d, kb, "\u23ce")
                d.pump(3)
        assert in_sight_above(d.find("start"), kb, d.window)
        if n + 1 < len(SIZES):  # the last ⏎ closes the keyboard: the screen is whole again
            _tap_key(d, kb, "\u23ce")
            d.pump(4)
            assert keyboard() is None or keyboard().parent is None
            assert d.app.keyboard_h == 0
    # Començar taken with the keyboard still up
    d.tap("start", shot=False)
    assert d.screen == "scoreboard"
    assert d.app.session.state.team_names["A"].endswith("a"), d.app.session.state.team_names
    d.finish()
    print("smallest key (w, h, 9 mm) px:", smallest)
