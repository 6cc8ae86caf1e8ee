"""The double-tap walk: every button of every screen a table reaches, tapped twice.

The walk finds the buttons itself (every enabled button shown on the screen, as the tap
guard sees them), so a button added later is walked too. Each table situation ("place") is
a copy of the kiosk's files (journal, draft, what the table shows) taken once, plus the few
taps that open a screen's own state after a restart (the PIN typed, a question asked); every
button is tried on the kiosk put back at that copy, so nothing one tap did leaks into the
next: a real restart the first time a worker meets the place (at whichever size; the start
that took a place without taps of its own is one), then the running kiosk put back as a
restart would find it (``Walker._warm``: building the app and its
screens again was most of the walk's time), at that size and the others. A warm restore
must show the buttons a real restart showed at the place (``looks``), else the place is
restarted for real: it once showed others (the journal's folds kept across the copy put a
game of three back at naming its trump; wrong PINs the walk typed kept the PIN pad locked),
both now put back as a restart would.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView

from kiosk.settings import Settings
from tests.ui.harness import DRIVE_SIZE, PACE_S, SIZES

INTERVALS = (0.06, 0.3)  # seconds between the two touches of a double tap
# The sizes the walk double-taps at: the Pi's screen, a 16:9 landscape and the portrait. The
# kiosk is laid out in units of a 480th of the window's smaller side (``KioskApp.u``), so
# 1920x1080 is 1280x720 magnified (853 x 480 units both): the same buttons at the same places,
# the tap guard's clock is the same, and a double tap there proves nothing 1280x720's does not
# (checked place by place: docs/perf.md, stop 38). Its screens are still shot and read whole
# (test_readable.py) and its labels checked like every size's.
WALK_SIZES = (SIZES[0], SIZES[1], SIZES[3])
assert DRIVE_SIZE == WALK_SIZES[0]


def intervals_at(size, n: int) -> tuple[float, ...]:
    """The interval the ``n``-th button walked is double-tapped at, at ``size``: one, taking
    turns with the button's number and the size's, so that over the three sizes walked each
    button meets both intervals (where the sizes show the same buttons; a button shown at one
    size only is double-tapped there at one interval). The tap guard's clock does not depend
    on the window: a size changes where a button is and whether it shows, which one double tap
    there proves. (The Pi's own screen took both intervals until stop 41: the second was the
    same check as the other sizes' on the same button, at the same guard clock; a third of
    the walk's double taps: docs/perf.md, stop 41 (suiteui).)"""
    return (INTERVALS[(n + WALK_SIZES.index(tuple(size))) % len(INTERVALS)],)
BLANK = "walk-blank"  # an empty screen the warm restore passes through


@dataclass(frozen=True)
class Place:
    """A table situation: the kiosk's files as they were, the settings, the taps after."""
    name: str
    files: Path
    settings: tuple[tuple[str, object], ...] = ()
    taps: tuple[str, ...] = ()
    # buttons walked here again though met on their screen before: one that means something
    # else here (Undo with Redo shown undoes the hand before)
    again: tuple[str, ...] = ()


@dataclass
class Tally:
    buttons: int = 0
    runs: int = 0
    buttons_walked: int = 0  # the buttons' running number (which interval each takes)
    planned: int = 0  # the double taps the walk meant to make (``intervals_at``)
    restarts: int = 0  # the kiosk built again on a place's files
    warm: int = 0  # the running kiosk put back at a place instead
    refused_place_taps: int = 0  # a place's own tap the guard refused (tapped again)
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


def look(d) -> tuple:
    """What a screen shows, at any of the walk's sizes: its name and every enabled button
    shown (by name, in the tree's order; where each is, and whether a scroll view lets it
    show, depend on the size)."""
    return d.screen, tuple(_name(w) for w in d.current.walk(restrict=True)
                           if isinstance(w, ButtonBehavior) and not w.disabled and _shown(w))


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


@dataclass
class Table:
    """The places taken along one table's flow, for every size the walk is run at (the files
    do not depend on the window): the places, the screen each shows, and the folder the
    kiosk's files are walked in (in memory, tmpfs: an fsync is free; kept, as a draft holds
    the path of the evidence photo taken there)."""
    folder: Path
    places: list[Place] = field(default_factory=list)
    screens: dict[str, str] = field(default_factory=dict)
    # what a real restart showed at each place (at any size): the warm restore must show one
    looks: dict[str, set[tuple]] = field(default_factory=dict)
    home: tempfile.TemporaryDirectory | None = None


class Walker:
    """Takes places along a flow (once per table), then tries every button of each one."""

    def __init__(self, kiosk, size, table: Table) -> None:
        self.kiosk, self.size, self.folder = kiosk, size, table.folder
        shm = Path("/dev/shm")
        if table.home is None:
            table.home = tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None, prefix="botifarra-walk-")
        kiosk.db = Path(table.home.name) / kiosk.db.name
        self.places = table.places
        self._screen = table.screens  # the screen each place shows
        self._looks = table.looks
        self.tally = Tally()
        self.d = None
        self.camera = None  # a camera factory for the kiosk's next start (the evidence photo's read)

    # ------------------------------------------------------------------ places
    def start(self, settings: tuple = ()) -> None:
        """The kiosk started on its files, as ``kiosk.start`` does, minus the frame painted
        at 800x480 first: the window stays at the walk's size (a restart is the walk's cost)."""
        from kivy.core.window import Window
        from tests.ui.conftest import _make_app
        from tests.ui.harness import Driver, TouchClock
        s = self._settings_of(Place("", Path(), settings))
        self.kiosk.stop()
        app = _make_app(self.kiosk.db, s, touch_clock=TouchClock(), camera_factory=self.camera)
        app.root = app.build()
        Window.add_widget(app.root)
        app.dispatch("on_start")
        self.kiosk.app = app
        self.kiosk.driver = self.d = Driver(app, self.kiosk.request.node.name, shots=False)
        self.kiosk.drivers.append(self.d)
        from kivy.uix.screenmanager import Screen
        app.sm.add_widget(Screen(name=BLANK))  # where the warm restore leaves a screen for
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
        if not taps:  # this start is a real restart on the place's files: what one shows there
            self._screen.setdefault(name, self.d.screen)
            self._looks.setdefault(name, set()).add(look(self.d))

    def also(self, name: str, *, taps: tuple[str, ...], settings: tuple = (),
             again: tuple[str, ...] = ()) -> None:
        """A place on the files of the last one kept, with taps after the restart."""
        self.places.append(Place(name, self.places[-1].files, settings, taps, again))

    def restore(self, place: Place):
        """The kiosk back at ``place``: warm when it can (below), else a real restart on the
        copy of its files, with the place's taps after it."""
        if self._warm(place):
            self.tally.warm += 1
            return self.d
        self.tally.restarts += 1
        self.kiosk.stop()
        self._forget_drivers()
        for f in self.kiosk.db.parent.glob(self.kiosk.db.name + "*"):
            f.unlink()
        for f in place.files.iterdir():
            shutil.copy2(f, self.kiosk.db.parent / f.name)
        self.start(place.settings)
        for action in place.taps:
            self._place_tap(action)
        self._screen.setdefault(place.name, self.d.screen)
        self._looks.setdefault(place.name, set()).add(look(self.d))
        return self.d

    def _warm(self, place: Place) -> bool:
        """The running kiosk put back at ``place`` as a restart would find it, without
        building it again (building the app and its screens was most of the walk's time):
        the screen left (its own state let go, as on leaving it), the place's journal copied
        into the open one (SQLite's backup: the same file, the same connection), its files
        beside the journal put back, the session resumed from them (``TableSession.resume``,
        what a restart does), the screen entered afresh, then the place's taps. False (a
        restart is needed) the first time at a place (what it shows is learnt after a real
        restart), when the kiosk differs from a fresh one in what a restart would reset
        (language, settings, camera), or the place's screen is not reached or shows other
        buttons than a real restart did there."""
        d = self.d
        if (d is None or self.kiosk.app is not d.app or place.name not in self._looks
                or d.app.language != "ca" or d.app.camera_factory is not self.camera
                or d.app.settings.values != self._settings_of(place).values or self._pin_touched(d.app)):
            return False
        app, db = d.app, self.kiosk.db
        app.sm.current = BLANK  # the screen left: what it held on screen is let go
        d.pump(1)
        if app.sm.has_screen("settings"):  # left for one of its own (diagnostics, learning the
            settings = app.sm.get_screen("settings")  # deck, the seats), it stayed unlocked:
            if settings.svm.unlocked:  # a restart asks for the PIN again (as leaving it does)
                settings.svm.lock()
                settings.mode = "pin"
        for screen in app.sm.screens:  # every list back at its start, as when built
            for view in screen.walk(restrict=True):
                if isinstance(view, ScrollView):
                    view.scroll_x, view.scroll_y = 0, 1
        source = sqlite3.connect(place.files / db.name)
        try:
            source.backup(app.journal._conn)
        finally:
            source.close()
        # the folds the journal kept (by match and last event): a restart starts without, and
        # the copy may hold as many events as now but others (three-doubling after the misdeal)
        app.journal._reader._folds.clear()
        for f in db.parent.glob(db.name + ".*.json"):
            f.unlink()
        for f in place.files.glob(db.name + ".*.json"):
            shutil.copy2(f, db.parent / f.name)
        app.session.resume()
        app.show_message("")
        app.close_overlay()  # the state's step, as after a restart
        d.pump(2)
        return self._taps(place) and d.screen == self._screen[place.name] and look(d) in self._looks[place.name]

    @staticmethod
    def _pin_touched(app) -> bool:
        """The PIN pad holds digits or wrong PINs (the walk's), which a restart forgets."""
        if not app.sm.has_screen("settings"):
            return False
        pin = app.sm.get_screen("settings").svm.pin
        return bool(pin.digits or pin.wrong or pin.locked_until)

    def _taps(self, place: Place) -> bool:
        for action in place.taps:
            if self._button(action) is None:
                return False
            self._place_tap(action)
        return True

    def _button(self, action: str):
        """The button named ``action`` (else the walk's name for it: "row1", a sheet's line)."""
        found = self.d.buttons(action)
        return found[0] if found else find_button(self.d, action)

    def _place_tap(self, action: str) -> None:
        """One of a place's own taps. The tap guard sometimes refuses the first tap on the
        portrait scoreboard just reached (something there still moves a few frames after
        it is shown: a person's tap would be lost too; counted, and tapped again)."""
        d = self.d
        guard = d.app.tap_guard
        refused = guard.swallowed_count
        widget = self._button(action)
        assert widget is not None, f"no button {action!r} on {d.screen}"
        d.touch_at(*widget.to_window(*widget.center))
        if guard.swallowed_count > refused and self._button(action) is not None:
            self.tally.refused_place_taps += 1
            d.pump(4)
            widget = self._button(action)
            d.touch_at(*widget.to_window(*widget.center))

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
        """Every button once per size (the first place it is met on its screen; the places
        grouped by their settings, in the same order at every size: the kiosk is started again
        for each change of settings), each double-tapped at every interval."""
        walked: set[tuple[str, str]] = set()
        for place in sorted(self.places, key=lambda p: p.settings):  # a restart per change of settings
            d = self.restore(place)
            screen = d.screen
            self.tally.screens.add(screen)
            keys = [k for k in button_keys(d) if (screen, k) not in walked or k in place.again]
            walked.update((screen, k) for k in keys)
            self.tally.buttons += len(keys)
            self.tally.problems += [f"{place.name}/{k}: not there to walk again" for k in place.again
                                    if k not in keys]
            events = journal_events(self.kiosk.db)
            for key in keys:
                intervals = intervals_at(self.size, self.tally.buttons_walked)
                self.tally.buttons_walked += 1
                self.tally.planned += len(intervals)
                for interval in intervals:
                    # A restore only when the last double tap left the screen, wrote to the
                    # journal or changed which buttons there are: a card or a digit more
                    # changes none of these, and the next button means what it meant. (The
                    # journal read and the button found here are the double tap's own.)
                    now, widget = journal_events(self.kiosk.db), find_button(self.d, key)
                    if self.d.screen != screen or now != events or widget is None:
                        self.restore(place)
                        now, widget = journal_events(self.kiosk.db), find_button(self.d, key)
                    self._double_tap(place, key, interval, widget, now)
        self._forget_drivers()
        return self.tally

    def _double_tap(self, place: Place, key: str, interval: float, widget, before: list) -> None:
        """``widget``: the button ``key`` found now (None: waited for); ``before``: the
        journal's events now."""
        d = self.d
        where = f"{place.name}/{key} at {interval * 1000:.0f} ms"
        deadline = time.monotonic() + 10.0
        while widget is None and time.monotonic() < deadline:
            # a button held off by work the last tap started (History's export writing to
            # the stick on its thread: no second export meanwhile) is back when it ends
            d.pump(1)
            time.sleep(0.02)
            widget = find_button(d, key)
            before = journal_events(self.kiosk.db)  # what that work wrote is not the tap's
        if widget is None:
            self.tally.problems.append(f"{where}: the button is not there after a restart")
            return
        x, y = _visible_centre(widget)
        _touch(d, x, y, after=PACE_S)
        after_first, screen_first = journal_events(self.kiosk.db), d.screen
        _touch(d, x, y, after=interval)
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


def _touch(d, x: float, y: float, *, after: float) -> None:
    """A touch at window point (x, y), ``after`` seconds (on the guard's clock) after the
    last: as ``Driver.touch_at`` with fewer frames, since the guard's clock does not move
    with them (one before the touch, one while held, two after: three between the two
    touches of a double tap, as a Pi at 60 frames a second draws in 60 ms). The restore
    before a first touch has laid the screen out."""
    from kivy.tests.common import UnitTestTouch
    d.pump(1)
    d.wait(after)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    d.pump(1)
    touch.touch_up()
    d.pump(2)


def _one_change(before: list, after: list) -> bool:
    """At most one event added (an undo is an event too: the journal only grows)."""
    return len(after) - len(before) <= 1 and after[:len(before)] == before
