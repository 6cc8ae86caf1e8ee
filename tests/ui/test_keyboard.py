"""The on-screen keyboard types Catalan and Spanish names: its letters, and a shift that
capitalises with one finger (tap shift, then the letter)."""

from __future__ import annotations

import pytest

from tests.ui.harness import SHOTS

pytestmark = pytest.mark.ui


def _tap_key(d, kb, char: str) -> None:
    """A real touch on the key of the real VKeyboard that shows ``char`` now."""
    layout = kb.available_layouts[kb.layout]
    for line_nb in range(1, layout["rows"] + 1):
        keys = layout[f"{kb.layout_mode}_{line_nb}"]
        for index, key in enumerate(keys):
            if key[0] == char:
                (x, y), (w, h) = kb.layout_geometry[f"LINE_{line_nb}"][index]
                wx, wy = kb.to_window(kb.x + x + w / 2, kb.y + y + h / 2)
                d.touch_at(wx, wy)
                return
    raise AssertionError(f"no key {char!r} in the {kb.layout_mode} layout")


def test_catalan_letters_and_one_finger_shift(kiosk):
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard
    from kiosk.ui.app import KEYBOARD_LAYOUT
    d = kiosk.start()
    kb = VKeyboard(layout=str(KEYBOARD_LAYOUT), size=(Window.width, Window.height * 0.5),
                   pos=(0, 0), do_translation=False, do_rotation=False, do_scale=False)
    typed: list[str] = []
    kb.bind(on_textinput=lambda w, text: typed.append(text),
            on_key_down=lambda w, keycode, text, modifiers: typed.append(text) if text else None)
    Window.add_widget(kb)
    try:
        d.pump(3)
        assert kb.layout.endswith("keyboard_ca.json")
        for ch in "çàèéíïòóúü·ñ":
            _tap_key(d, kb, ch)
        _tap_key(d, kb, "\u21e7")  # shift: stays on for the next letters, one finger
        assert kb.layout_mode == "shift"
        _tap_key(d, kb, "Ç")
        _tap_key(d, kb, "À")
        shot = SHOTS / f"{Window.width}x{Window.height}" / "test_keyboard-shift.png"
        d.pump(2, draw=True)
        d.grab(shot)
        _tap_key(d, kb, "\u21e7")
        assert kb.layout_mode == "normal"
        _tap_key(d, kb, "a")
        assert "".join(typed) == "çàèéíïòóúü·ñÇÀa", typed
    finally:
        Window.remove_widget(kb)
        d.finish()
