"""Drive the real kiosk in one real Kivy window (Xvfb): touches through the event loop,
screenshots of every screen at every supported size.

Kivy allows one window per process, so the session keeps one window; each test builds a
fresh KioskApp (its own journal file) into it. A screenshot is taken at the Pi's size in
every test, and at every supported size (the window resized to each in turn) the first time
a test of this run (any xdist worker) shows that screen and state: a resize lays every label out again at
its new font size, which was three quarters of the UI tests' time when every test shot every
screen at every size.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
SIZES = ((800, 480), (1280, 720), (1920, 1080), (720, 1280))
DRIVE_SIZE = SIZES[0]  # the Pi 7" screen
# A screenshot's sizes in the order that changes the kiosk's scale least (1280x720 and
# 720x1280 share it), back at the size the tests drive at.
SHOT_ORDER = (SIZES[1], SIZES[3], SIZES[2], SIZES[0])
_SHOWN_AT_EVERY_SIZE: set[str] = set()  # the screens and states this process shot at every size


def _first_at_every_size(name: str) -> bool:
    """True the first time in this test run that a screen and state is shot: in this process,
    and under xdist in any worker of the run (a file taken once, atomically, per run), so
    two workers do not both write every size of the same screen."""
    if name in _SHOWN_AT_EVERY_SIZE:
        return False
    _SHOWN_AT_EVERY_SIZE.add(name)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return True
    taken = SHOTS / ".every-size" / run / re.sub(r"[^A-Za-z0-9_-]+", "_", name)
    taken.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(taken, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True
# A person's pace between two taps that both mean to act (read the screen, then tap): over
# the tap guard's settling time (kiosk/ui/tapguard.py), so an ordinary flow is not refused.
PACE_S = 0.6
# A button shows pressed until this long after its touch went down (Kivy's ``min_state_time``,
# 35 ms, on the real clock): a grab sooner would show the button just tapped mid-press.
PRESSED_S = 0.05
_SAVER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="screenshots")


class TouchClock:
    """The tap guard's clock in the tests: it moves only when the driver says how long a
    person waited before the next touch (a real 0.6 s wait per tap would make the suite slow).
    The double-tap tests wait for real instead (``time.monotonic``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def configure_kivy() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # No sound card here: the speaker's cues play through SDL's dummy audio driver (real
    # SDL mixer, nothing audible); tests/ui/test_sound.py relies on it.
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kiosk.ui.rendering import configure_rendering
    configure_rendering()  # what the kiosk draws with (botifarra-kiosk run does the same)
    from kivy.config import Config
    Config.set("graphics", "width", str(DRIVE_SIZE[0]))
    Config.set("graphics", "height", str(DRIVE_SIZE[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "maxfps", "0")  # no frame pacing: the tests pump the loop themselves
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")


def one_colour(data: bytes, w: int, h: int) -> bool:
    """Whether a grab (``glReadPixels``' RGBA rows, the bottom row first) is all the colour of
    its top-left pixel, but for the bottom-left 100 px square (where an unpainted canvas
    leaves its default square); the alpha is not looked at. Each pixel is compared as one
    32-bit number (a boolean mask picking the pixels outside the square copied them: 75 ms a
    1920x1080 grab, more than its PNG)."""
    pixels = np.frombuffer(data, "<u4").reshape(h, w) & np.uint32(0x00FFFFFF)  # R, G, B bytes
    top_left = pixels[h - 1, 0]
    return bool((pixels[100:] == top_left).all() and (pixels[:100, 100:] == top_left).all())


class Driver:
    def __init__(self, app, test_name: str, *, shots: bool = True) -> None:
        from kivy.base import EventLoop
        from kivy.core.window import Window
        self.app, self.window, self.loop = app, Window, EventLoop
        self.test_name = re.sub(r"[^A-Za-z0-9_]+", "_", test_name)
        self.shots = shots
        self.shot_screens: set[str] = set()
        self.written: list[Path] = []
        self.errors: list[BaseException] = []
        self.saving: list = []
        self.small_targets: list[str] = []

    # -------------------------------------------------------------- loop
    def pump(self, frames: int = 3, *, draw: bool = False) -> None:
        """Run iterations of the event loop, handling errors as Kivy's main loop does
        (``ExceptionManager``); the errors handed to it are kept in ``self.errors``.

        Without ``draw`` an iteration is the loop's work minus painting: the Clock (layout,
        scheduled callbacks) and the input queue (the touches). Painting a frame in software
        GL costs tens of milliseconds and is only needed for a screenshot."""
        from kivy.base import ExceptionManager
        from kivy.clock import Clock
        for _ in range(frames):
            try:
                if draw:
                    self.loop.idle()
                else:
                    Clock.tick()
                    self.loop.dispatch_input()
                    Clock.tick_draw()
            except Exception as exc:
                self.errors.append(exc)
                if ExceptionManager.handle_exception(exc) == ExceptionManager.RAISE:
                    raise

    @property
    def screen(self) -> str:
        return self.app.sm.current

    @property
    def current(self):
        return self.app.sm.current_screen

    # -------------------------------------------------------------- finding
    def buttons(self, action: str):
        found = []
        for w in self.current.walk(restrict=True):
            if getattr(w, "action", None) == action and not w.disabled and w.opacity > 0 \
                    and w.width > 0 and w.height > 0:
                found.append(w)
        return found

    def find(self, action: str):
        found = self.buttons(action)
        assert found, f"no enabled button {action!r} on screen {self.screen!r}"
        return found[0]

    def has(self, action: str) -> bool:
        return bool(self.buttons(action))

    # -------------------------------------------------------------- touching
    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass for the tap guard (at once on a TouchClock, else for real)."""
        clock = self.app.touch_clock
        if isinstance(clock, TouchClock):
            clock.advance(seconds)
        else:
            time.sleep(seconds)

    def touch_at(self, x: float, y: float, *, after: float = PACE_S) -> None:
        """A tap at window point (x, y), ``after`` seconds after the last one."""
        from kivy.tests.common import UnitTestTouch
        self.pump(2)  # the frames a person sees (and the layout settles in) while waiting
        self.wait(after)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(3)

    def tap(self, action: str, *, shot: bool = True) -> None:
        """Touch the centre of the button named ``action`` through the event loop."""
        if shot:
            self.shot()
        self.pump(1)  # the screen as a person sees it: laid out, after what changed it
        widget = self.find(action)
        x, y = widget.to_window(*widget.center)
        self.touch_at(x, y)

    def taps(self, *actions: str) -> None:
        for a in actions:
            self.tap(a)

    def key(self, keycode: int) -> None:
        self.window.dispatch("on_key_down", keycode, 0, "", [])
        self.window.dispatch("on_key_up", keycode, 0)
        self.pump(3)

    # -------------------------------------------------------------- screenshots
    def resize(self, size) -> None:
        if tuple(self.window.size) != tuple(size):
            self.window.size = size
            # the window made again at the new size (Kivy's ``trigger_create_window``, a Clock
            # trigger: on_resize) and the layouts settled; not painted: the grab paints what
            # it reads (a frame painted here was painted over, 0.19 s a resize: stop 41)
            self.pump(1)
            self.window.dispatch("on_flip")  # the GL surface at the new size
            self.pump(2)

    def grab(self, path: Path) -> None:
        from kivy.clock import Clock
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
        from kivy.lang import Builder
        from PIL import Image
        # the kv rules' pending updates (positions and sizes bound in kv) applied and laid
        # out, as the loop does before it paints (EventLoopBase.idle): without them a screen
        # first shown since the last painted frame is grabbed as the bare background
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()
        self.window.dispatch("on_draw")
        w, h = self.window.size
        data = glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
        path.parent.mkdir(parents=True, exist_ok=True)

        def save():  # PNG encoding off the test's thread (zlib releases the GIL)
            if one_colour(data, w, h):
                raise AssertionError(f"{path.name}: the screen was grabbed unpainted (one colour)")
            image = Image.frombytes("RGBA", (w, h), data).transpose(Image.FLIP_TOP_BOTTOM).convert("RGB")
            image.save(path, compress_level=1)
        self.saving.append(_SAVER.submit(save))
        self.written.append(path)

    def finish(self) -> None:
        """Wait for the screenshots being written (raises if one failed)."""
        for future in self.saving:
            future.result()
        self.saving.clear()

    def shot(self, *, force: bool = False, state: str = "") -> None:
        """The current screen at every supported size the first time a test of this run
        shows it; at the Pi's size when a test asks for it (``force``: the screen it ends
        on, a moment it means to show; ``state``: a second look at the same screen, as its
        file name's end). Every screen a test shows (once per screen and ``state`` per test)
        has its buttons measured at the Pi's size either way. A screen met again by a tap of
        a later test is not written again (the same screen; a grab and a PNG each, some 400
        a run: docs/perf.md, stop 37)."""
        name = f"{self.screen}-{state}" if state else self.screen
        if not self.shots or (name in self.shot_screens and not force):
            return
        self.shot_screens.add(name)
        if _first_at_every_size(name):
            sizes = SHOT_ORDER
        elif force or state:
            sizes = (DRIVE_SIZE,)
        else:
            sizes = ()
            self.resize(DRIVE_SIZE)  # where the buttons are measured
        for size in sizes:
            self.resize(size)
            self.grab(SHOTS / f"{size[0]}x{size[1]}" / f"{self.test_name}-{name}.png")
        self.audit_touch_targets()

    def audit_touch_targets(self) -> None:
        """On the Pi 7" screen (800x480, 5.19 px/mm) every enabled button is at least 9 mm."""
        from kivy.uix.behaviors import ButtonBehavior
        from kiosk.ui.theme import PI_PX_PER_MM
        if tuple(self.window.size) != (800, 480):
            return
        least = 9 * PI_PX_PER_MM
        for w in self.current.walk(restrict=True):
            if isinstance(w, ButtonBehavior) and not w.disabled and w.opacity > 0 \
                    and (w.width < least or w.height < least):
                self.small_targets.append(f"{self.screen}: {getattr(w, 'action', '') or w} "
                                          f"{w.width:.0f}x{w.height:.0f}")
