"""The double-tap walk: every button of every screen a table reaches, tapped twice.

The walk finds the buttons itself (every enabled button shown on the screen, as the tap
guard sees them), so a button added later is walked too. Each table situation ("place") is
a copy of the kiosk's files (journal, draft, what the table shows) taken once, plus the few
taps that open a screen's own state after a restart (the PIN typed, a question asked); every
button is tried from a fresh restart on that copy, so nothing one tap did leaks into the next.
"""

from __future__ import annotations

import shutil
import tempfile
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.stencilview import StencilView

from kiosk.settings import Settings

INTERVALS = (0.06, 0.3)  # seconds between the two touches of a double tap


@dataclass(frozen=True)
class Place:
    """A table situation: the kiosk's files as they were, the settings, the taps after."""
    name: str
    files: Path
    settings: tuple[tuple[str, object], ...] = ()
    taps: tuple[str, ...] = ()


@dataclass
class Tally:
    buttons: int = 0
    runs: int = 0
    screens: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def journal_events(db: Path) -> list[tuple]:
    """Every event on disk, read by a second connection (what a restart would find)."""
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT match_id, seq, type, data FROM events ORDER BY match_id, seq").fetchall()


def _visible_centre(widget):
    """The widget's centre on the window, or None if a scroll view hides it."""
    x, y = widget.to_window(*widget.center)
    w = widget.parent
    while w is not None and w.parent is not w:
        if isinstance(w, StencilView):
            wx, wy = w.to_window(w.x, w.y)
            if not (wx <= x <= wx + w.width and wy <= y <= wy + w.height):
                return None
        w = w.parent
    return x, y


def _shown(widget) -> bool:
    w = widget
    while w is not None and w.parent is not w:
        if w.opacity == 0 or w.width <= 1 or w.height <= 1:
            return False
        w = w.parent
    return True


def button_keys(d) -> list[str]:
    """A name for every enabled button shown on the current screen (its action, else what
    it says), numbered when two share one."""
    keys: list[str] = []
    for widget in _buttons(d):
        keys.append(_key(widget, keys))
    return keys


def _buttons(d):
    return [w for w in d.current.walk(restrict=True)
            if isinstance(w, ButtonBehavior) and not w.disabled and _shown(w)
            and _visible_centre(w) is not None]


def _name(widget) -> str:
    action = getattr(widget, "action", "")
    if action:
        return str(action)
    number = getattr(widget, "number", "")
    if number:
        return f"row{number}"
    return f"{type(widget).__name__}:{getattr(widget, 'text', '')}"


def _key(widget, taken: list[str]) -> str:
    name = _name(widget)
    n = sum(1 for k in taken if k == name or k.startswith(name + "#"))
    return name if n == 0 else f"{name}#{n}"


def find_button(d, key: str):
    taken: list[str] = []
    for widget in _buttons(d):
        k = _key(widget, taken)
        taken.append(k)
        if k == key:
            return widget
    return None


class Walker:
    """Takes places along a flow, then tries every button of each one."""

    def __init__(self, kiosk, size, folder: Path) -> None:
        self.kiosk, self.size, self.folder = kiosk, size, folder
        # Hundreds of restarts: the kiosk's files in memory (tmpfs), where an fsync is free.
        shm = Path("/dev/shm")
        if shm.is_dir():
            self._shm = tempfile.TemporaryDirectory(dir=shm, prefix="botifarra-walk-")
            kiosk.db = Path(self._shm.name) / kiosk.db.name
        self.places: list[Place] = []
        self._screen: dict[str, str] = {}  # the screen each place shows
        self.tally = Tally()
        self.d = None

    # ------------------------------------------------------------------ places
    def start(self, settings: tuple = ()) -> None:
        """The kiosk started on its files, as ``kiosk.start`` does, minus the frame painted
        at 800x480 first: the window stays at the walk's size (a restart is the walk's cost)."""
        from kivy.core.window import Window
        from tests.ui.conftest import _make_app
        from tests.ui.harness import Driver, TouchClock
        s = self._settings_of(Place("", Path(), settings))
        self.kiosk.stop()
        app = _make_app(self.kiosk.db, s, touch_clock=TouchClock())
        app.root = app.build()
        Window.add_widget(app.root)
        app.dispatch("on_start")
        self.kiosk.app = app
        self.kiosk.driver = self.d = Driver(app, self.kiosk.request.node.name, shots=False)
        self.kiosk.drivers.append(self.d)
        self.d.resize(self.size)
        self.d.pump(3)

    def keep(self, name: str, *, taps: tuple[str, ...] = (), settings: tuple = ()) -> None:
        """The kiosk's files now (the app stopped to take them, then started again)."""
        self.kiosk.stop()
        folder = self.folder / name
        folder.mkdir(parents=True)
        for f in self.kiosk.db.parent.glob(self.kiosk.db.name + "*"):
            shutil.copy2(f, folder / f.name)
        self.places.append(Place(name, folder, settings, taps))
        self.start(settings)

    def also(self, name: str, *, taps: tuple[str, ...], settings: tuple = ()) -> None:
        """A place on the files of the last one kept, with taps after the restart."""
        self.places.append(Place(name, self.places[-1].files, settings, taps))

    def restore(self, place: Place, events: list | None = None):
        """The kiosk back at ``place``. When the journal and the files beside it are as the
        place had them (the last tap only moved between screens), the session resumes from
        them as a restart would (``TableSession.resume``) without building the app again;
        else (or if that does not reach the place's screen) a real restart on the copy."""
        d = self.d
        if (events is not None and d is not None and self._files_as(place)
                and journal_events(self.kiosk.db) == events
                and d.app.settings.values == self._settings_of(place).values
                and d.app.language == "ca"):
            d.app.session.resume()
            d.app.close_overlay()  # the state's step, as after a restart
            d.pump(2)
            if self._taps(place) and d.screen == self._screen[place.name]:
                return d
        self.kiosk.stop()
        self._forget_drivers()
        for f in self.kiosk.db.parent.glob(self.kiosk.db.name + "*"):
            f.unlink()
        for f in place.files.iterdir():
            shutil.copy2(f, self.kiosk.db.parent / f.name)
        self.start(place.settings)
        for action in place.taps:
            self.d.tap(action, shot=False)
        self._screen.setdefault(place.name, self.d.screen)
        return self.d

    def _taps(self, place: Place) -> bool:
        for action in place.taps:
            if not self.d.has(action):
                return False
            self.d.tap(action, shot=False)
        return True

    def _files_as(self, place: Place) -> bool:
        for f in place.files.iterdir():
            if f.suffix == ".json":
                here = self.kiosk.db.parent / f.name
                if not here.exists() or here.read_bytes() != f.read_bytes():
                    return False
        return not any(not (place.files / f.name).exists()
                       for f in self.kiosk.db.parent.glob(self.kiosk.db.name + ".*.json"))

    @staticmethod
    def _settings_of(place: Place) -> Settings:
        s = Settings()
        for name, value in place.settings:
            s.set(name, value)
        return s

    def _forget_drivers(self) -> None:
        """The stopped kiosks' drivers: their errors and small buttons counted, then let go
        (hundreds of restarts would otherwise keep every widget tree alive)."""
        for d in self.kiosk.drivers[:-1] if self.kiosk.app is not None else self.kiosk.drivers[:]:
            d.finish()
            self.tally.problems += [f"error in the event loop: {e!r}" for e in d.errors]
            self.tally.problems += [f"under 9 mm: {t}" for t in d.small_targets]
            self.kiosk.drivers.remove(d)

    # ------------------------------------------------------------------ the walk
    def walk(self) -> Tally:
        """Every button once per size (the first place it is met on its screen), each
        double-tapped at every interval."""
        walked: set[tuple[str, str]] = set()
        for place in self.places:
            d = self.restore(place)
            screen = d.screen
            self.tally.screens.add(screen)
            keys = [k for k in button_keys(d) if (screen, k) not in walked]
            walked.update((screen, k) for k in keys)
            self.tally.buttons += len(keys)
            events = journal_events(self.kiosk.db)
            # the place's own taps wrote nothing: it can be reached again by resuming
            light = events == journal_events(place.files / self.kiosk.db.name)
            for key in keys:
                for interval in INTERVALS:
                    # A restart only when the last double tap left the screen, wrote to the
                    # journal or changed which buttons there are: a card or a digit more
                    # changes none of these, and the next button means what it meant.
                    if (self.d.screen != screen or journal_events(self.kiosk.db) != events
                            or find_button(self.d, key) is None):
                        self.restore(place, events if light else None)
                    self._double_tap(place, key, interval)
        self._forget_drivers()
        return self.tally

    def _double_tap(self, place: Place, key: str, interval: float) -> None:
        d = self.d
        where = f"{place.name}/{key} at {interval * 1000:.0f} ms"
        widget = find_button(d, key)
        if widget is None:
            self.tally.problems.append(f"{where}: the button is not there after a restart")
            return
        x, y = _visible_centre(widget)
        before = journal_events(self.kiosk.db)
        d.touch_at(x, y)
        after_first, screen_first = journal_events(self.kiosk.db), d.screen
        d.touch_at(x, y, after=interval)  # (it pumps the frames after the touch itself)
        after_second, screen_second = journal_events(self.kiosk.db), d.screen
        self.tally.runs += 1
        if not _one_change(before, after_first):
            self.tally.problems.append(f"{where}: the first tap wrote {len(after_first) - len(before)} events")
        if after_second != after_first:
            added = [e[2] for e in after_second if e not in after_first]
            self.tally.problems.append(f"{where}: the second tap wrote {added or 'a change'}")
        if screen_second != screen_first:
            self.tally.problems.append(f"{where}: the first tap led to {screen_first}, "
                                       f"the second to {screen_second}")


def _one_change(before: list, after: list) -> bool:
    """At most one event added (an undo is an event too: the journal only grows)."""
    return len(after) - len(before) <= 1 and after[:len(before)] == before
