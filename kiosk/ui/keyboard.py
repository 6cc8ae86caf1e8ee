"""The kiosk's docked on-screen keyboard: keys of at least 9 mm at every screen size
(docs/ui.md: 50 u = 9.6 mm), laid across the bottom; while it shows, ``app.keyboard_h`` says
how high it is, so a screen keeps what is typed into, and its own buttons, above it."""

from __future__ import annotations

import json
from pathlib import Path

from kivy.app import App
from kivy.uix.vkeyboard import VKeyboard

LAYOUT = Path(__file__).with_name("keyboard_ca.json")
NARROW = "keyboard_ca_narrow"  # the same keys in fewer columns, for a narrow (portrait) screen
KEY_U = 48  # a key's side, in u: 9.2 mm (5.19 px per mm at u = 1)
MARGIN_PX = 2  # Kivy's key margin on each side


def narrow_layout(wide: dict, cols: int) -> dict:
    """``wide``'s keys re-flowed into rows of at most ``cols`` units (the space bar last,
    ``cols`` wide); normal and shift keep the same places."""
    out = {k: v for k, v in wide.items() if not isinstance(v, list)}
    rows_out = 0
    for mode in ("normal", "shift"):
        keys = [key for r in range(1, wide["rows"] + 1) for key in wide[f"{mode}_{r}"]
                if key[2] != "spacebar"]
        lines, line, used = [], [], 0.0
        for key in keys:
            if used + key[3] > cols:
                lines.append(line)
                line, used = [], 0.0
            line.append(key)
            used += key[3]
        lines.append(line)
        lines.append([[" ", " ", "spacebar", cols]])
        for i, ln in enumerate(lines, start=1):
            out[f"{mode}_{i}"] = ln
        rows_out = len(lines)
    out.update(cols=cols, rows=rows_out)
    return out


class KioskKeyboard(VKeyboard):
    """Docked at the bottom, unscaled, as wide as the window, each key ≥ KEY_U u."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.margin_hint = [0.01, 0.005, 0.01, 0.005]

    def setup_mode_dock(self, *largs) -> None:
        self.do_translation = self.do_rotation = self.do_scale = False
        self.rotation = 0
        win = self.get_parent_window()
        if not getattr(self, "_bound", False):  # one keyboard, docked again and again
            self._bound = True
            win.fbind("on_resize", self._update_dock_mode)
            app = App.get_running_app()
            if app is not None and hasattr(app, "u"):  # after a resize the app's u changes last
                app.fbind("u", lambda *a: self._update_dock_mode(win))
        self._update_dock_mode(win)

    def _update_dock_mode(self, win, *largs) -> None:
        if self.parent is None:
            return  # not showing: sized when it docks again
        app = App.get_running_app()
        u = getattr(app, "u", 1.0)
        side = KEY_U * u + 2 * MARGIN_PX
        wide = json.loads(LAYOUT.read_text(encoding="utf-8"))
        usable_w = win.width * (1 - 2 * 0.005)
        if usable_w / wide["cols"] >= side:
            self.available_layouts.setdefault(str(LAYOUT), wide)
            name, rows = str(LAYOUT), wide["rows"]
        else:
            cols = int(usable_w // side)
            self.available_layouts[NARROW] = narrow_layout(wide, cols)
            name, rows = NARROW, self.available_layouts[NARROW]["rows"]
        self.scale = 1
        self.size = (win.width, rows * side / (1 - 2 * 0.01) + 1)
        self.pos = (0, 0)
        if self.layout != name:
            self.layout = name  # loads it, and lays the keys out
        else:
            self.refresh(True)  # the keys laid out again for the new size
        if app is not None and hasattr(app, "keyboard_h"):
            app.keyboard_h = self.height

    def on_parent(self, instance, parent) -> None:
        """Docked again (one keyboard, shared): sized for the window as it is now; taken
        away: the screen has its whole height again."""
        app = App.get_running_app()
        if parent is None:
            if app is not None and hasattr(app, "keyboard_h"):
                app.keyboard_h = 0
        elif self.docked:
            self._update_dock_mode(parent)
