"""The kiosk application: one ScreenManager over one table session, kiosk behaviour.

Navigation follows the session's state: the app's one subscription (``_on_state``) shows
the screen of ``state.step``, or the overlay the table opened over it (``open_overlay``,
``close_overlay``: kiosk/ui/navigation.py). ``act(fn, *args)`` runs a session action (which
journals first), shows the core's message if the rules refuse it or the journal's if the
disk refused the save, and closes any overlay. Screens observe the session's state
themselves. Threads (camera, GPIO buttons) reach the UI only through ``self.to_ui``
(``hardware.bridge.call_on`` over the Clock); the hardware outputs are ``self.hardware``.
"""

from __future__ import annotations

import gc
import importlib
import logging
import time
from contextlib import contextmanager
from pathlib import Path

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.logger import Logger
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from hardware.bridge import call_on
from kiosk.game import BotifarraError
from kiosk.table import DraftStore, SaveResult, TableMemory, TableSession, TableState
from kiosk.messages import explain
from kiosk.settings import Settings
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import _
from kiosk.ui.navigation import Overlay, screen_for
from kiosk.ui.table_hardware import TableHardware
from kiosk.ui.tapguard import TapGuard
from kiosk.ui.screens import SCREEN_MODULES
from kiosk.ui.tr import tr
from kiosk.ui.keyboard import KioskKeyboard
from kiosk.ui.messagestrip import MessageStrip

log = logging.getLogger("kiosk.ui")
# Our on-screen keyboard: Catalan and Spanish letters (ç à è é í ï ò ó ú ü ñ ·), and a shift
# key that stays on until tapped again (Kivy's own shift only holds under a second finger).
KEYBOARD_LAYOUT = Path(__file__).with_name("keyboard_ca.json")
KEY_SPACE, KEY_ENTER, KEY_NUMPAD_ENTER, KEY_BACKSPACE, KEY_ESCAPE = 32, 13, 271, 8, 27


class _RecoverToScoreboard(ExceptionHandler):
    """An unexpected error: log it with its traceback, go back to the scoreboard, keep running."""

    def __init__(self, app: "KioskApp") -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst):
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        Logger.exception("kiosk: unexpected error; back to the scoreboard (the score is saved)")
        self.app.to_ui(self.app.recover)()
        return ExceptionManager.PASS


class LazyScreenManager(ScreenManager):
    """A ScreenManager that imports a screen's module (and loads its .kv) and builds the
    screen the first time it is asked for (``current = name`` or ``get_screen(name)``), so
    the first frame pays only for the scoreboard. ``screens`` lists those built so far."""

    def __init__(self, *, session, app, **kwargs) -> None:
        self._session = session
        self._app = app
        super().__init__(**kwargs)

    def get_screen(self, name):
        if name in SCREEN_MODULES and not super().has_screen(name):
            module = importlib.import_module(f"kiosk.ui.screens.{name}")
            self.add_widget(getattr(module, SCREEN_MODULES[name])(name=name, session=self._session, app=self._app))
        return super().get_screen(name)


@contextmanager
def no_collection_while_dispatching():
    """No cycle collection, in any thread, while the block runs.

    Kivy's dispatch may call a kv rule of a widget that a collection took an instant before,
    in this thread or another (the camera's, the screenshot writer's): it then writes to a
    widget that is gone, ``ReferenceError: weakly-referenced object no longer exists`` (seen
    on a resize). A dropped widget not yet collected is written to harmlessly, and collected
    after. (A collection first would cost a second on a loaded heap.)
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class KioskApp(App):
    u = NumericProperty(1.0)
    keyboard_h = NumericProperty(0)  # the docked on-screen keyboard's height while it shows
    language = StringProperty("ca")
    title = "Botifarra"

    def __init__(self, *, journal, settings: Settings | None = None, db_path: Path | None = None,
                 kiosk_mode: bool = False, camera_factory=None, controls=None, sound=None,
                 watchdog=None, usb=None, clock=None, club=None, touch_clock=time.monotonic,
                 trick_camera=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.journal = journal
        self.settings = settings or Settings()
        self.db_path = Path(db_path) if db_path else None
        self.evidence_dir = self.db_path.parent / "evidence" if self.db_path else None
        self.kiosk_mode = kiosk_mode
        self.camera_factory = camera_factory
        self.trick_camera = trick_camera  # trick mode: make(hand, on_events=, on_status=) or None
        self._problem_shown = False  # the banner shows a problem (not an info message)
        self.watchdog = watchdog
        self.usb = usb  # the USB sticks (kiosk.usb.UsbSticks; None: this machine's)
        self.clock = clock  # seconds since the epoch for the tournament clock (time.time)
        self.touch_clock = touch_clock  # monotonic seconds: the tap guard's (kiosk/ui/tapguard.py)
        self.tap_guard: TapGuard | None = None
        self._guard_event = None
        self.club_publisher, self.club = club, None  # the [club] Publisher; its ClubTable
        self.session: TableSession | None = None
        self.to_ui = call_on(lambda f: Clock.schedule_once(lambda dt: f(), 0))
        # the buzzer, the speaker (kiosk.ui.sound.SoundPlayer or None), the light, the LED
        self.hardware = TableHardware(controls, sound=sound, settings=self.settings, to_ui=self.to_ui)
        self.overlay: Overlay | None = None  # the screen shown over the table's step
        self._save_failed = False
        self._tick_event = None
        self.sm: ScreenManager | None = None
        self.messages: MessageStrip | None = None  # the strip across the top (built with the root)
        self._handler = _RecoverToScoreboard(self)

    # ------------------------------------------------------------------ build
    def build(self):
        language = self.settings.get("ui.language", "ca")
        self.language = language if language in i18n.LANGUAGES else "ca"
        tr.switch(self.language)
        Window.clearcolor = theme.BG
        from kivy.config import Config
        Config.set("kivy", "keyboard_layout", str(KEYBOARD_LAYOUT))  # read when a keyboard docks
        Window.set_vkeyboard_class(KioskKeyboard)  # keys of 9 mm, docked below the screen
        self._rescale()
        beside = (lambda end: self.db_path.with_name(self.db_path.name + end)) if self.db_path else (lambda end: None)
        session_options = {"clock": self.clock} if self.clock is not None else {}
        self.session = TableSession(self.journal, settings=self.settings, drafts=DraftStore(beside(".draft.json")),
                               memory=TableMemory(beside(".table.json")), **session_options)
        self.session.subscribe(self._on_state)
        if self.club_publisher is not None:
            from kiosk.club.table import ClubTable
            self.club = ClubTable.over(self.club_publisher, self.session, self.to_ui, **session_options)
        self.sm = LazyScreenManager(session=self.session, app=self, transition=NoTransition())
        # The message strip (the banner) is always there, above the screen, empty when there
        # is nothing to say: no control moves when a message comes or goes, none lies under
        # it. A long message's whole text is one tap away, in a panel over the screen.
        root = FloatLayout()
        self.messages = MessageStrip(root, unit=lambda: self.u, dismissed=lambda: self.show_message(""))
        self.banner = self.messages.banner
        column = BoxLayout(orientation="vertical")
        column.add_widget(self.banner)
        column.add_widget(self.sm)
        root.add_widget(column)
        Window.bind(on_resize=self._rescale, on_key_down=self._on_key_down,
                    on_request_close=self._on_request_close)
        # One tap guard in front of every touch (before any widget sees it), watching the
        # buttons once a frame.
        self.tap_guard = guard = TapGuard(root, clock=self.touch_clock)
        Window.bind(on_touch_down=guard.on_touch_down, on_touch_move=guard.on_touch_move,
                    on_touch_up=guard.on_touch_up)
        self._guard_event = Clock.schedule_interval(lambda dt: guard.watch(), 0)
        ExceptionManager.add_handler(self._handler)
        if self.watchdog is not None:
            every = getattr(self.watchdog, "interval", lambda: None)() or 1.0
            Clock.schedule_interval(lambda dt: self.watchdog.pet(), every)
        self.hardware.start(lambda button: self.press(button))
        self._tick_event = Clock.schedule_interval(self._tick, 1.0)
        self._show()
        faults = self.startup_faults()
        if faults:
            self.show_message("\n".join(faults), seconds=60)
        return root

    def startup_faults(self) -> list[str]:
        """What went wrong while starting (a bad settings.ini, a damaged journal set aside):
        logged, and sentences for the table in the kiosk's language."""
        out = []
        problems = list(getattr(self.settings, "problems", None) or [])
        for problem in problems:
            Logger.warning("kiosk: settings: %s", problem)
        if problems:
            out.append(_("The settings file has a problem: the standard settings are in use. "
                         "The score is safe. Please tell the bar staff."))
        moved = getattr(self.journal, "moved_aside", None)
        if moved is not None:
            Logger.error("kiosk: the journal was damaged (%s); moved aside to %s",
                         moved.reason, moved.moved_to)
            out.append(moved.message(self.language) or moved.message("ca"))
        fault = getattr(self.journal, "startup_fault", None)
        if fault is not None:
            Logger.error("kiosk: journal fault at start: %s (%s)", fault.kind.value, fault.detail)
            out.append(fault.message(self.language))
        return out

    def _tick(self, dt) -> None:
        """Every second: the tournament clock (time_up is journalled when it runs out)."""
        try:
            ran_out = self.session.check_time()
            ran_out = bool(self.club is not None and self.club.tick()) or ran_out  # the round's clock
        except Exception:  # the journal refused the write: say so, try again next second
            Logger.exception("kiosk: could not journal time_up")
            if not self.banner.text:
                self.show_message(_("Something went wrong. The score is saved."), seconds=10)
            ran_out = False
        if ran_out:  # between hands the match is over: the state's step shows it
            Logger.info("kiosk: the time limit ran out: time_up journalled")
            self.show_message(_("Time! This is the last hand"), seconds=15)
        screen = self.sm.current_screen
        if hasattr(screen, "update_clock"):
            screen.update_clock()

    def on_start(self):
        if self.watchdog is not None and hasattr(self.watchdog, "ready"):
            self.watchdog.ready()

    def on_stop(self):
        if self._tick_event is not None:
            self._tick_event.cancel()
        if self._handler in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self._handler)
        Window.unbind(on_resize=self._rescale, on_key_down=self._on_key_down,
                      on_request_close=self._on_request_close)
        if self.tap_guard is not None:
            guard = self.tap_guard
            Window.unbind(on_touch_down=guard.on_touch_down, on_touch_move=guard.on_touch_move,
                          on_touch_up=guard.on_touch_up)
            self._guard_event.cancel()
        for name in ("score_camera", "deal", "tricks", "variant_camera"):
            if self.sm is not None and self.sm.has_screen(name):
                self.sm.get_screen(name).stop_camera()
        self.session.close()

    def _rescale(self, *args):
        w, h = Window.size
        u = max(0.5, min(w, h) / 480.0)
        if u != self.u:
            with no_collection_while_dispatching():
                self.u = u  # some 500 kv rules follow it

    # ------------------------------------------------------------------ navigation
    def _show(self) -> None:
        """The one place that switches screens: the overlay if any, else the state's step."""
        if self.sm is None:
            return
        name = screen_for(self.session.state.step, self.overlay, reads_deck=self.reads_deck)
        if self.sm.current != name:
            if self._problem_shown and not self._save_failed:
                self.show_message("")  # a problem of the screen left behind is gone with it
            self.sm.current = name  # the screen reads the state on entering; later, by observing
            Logger.info("kiosk: screen %s", name)

    @property
    def reads_deck(self) -> bool:
        """An ordinary deck learnt by name (``camera.marks = deck:NAME``): a pile is read by
        dealing it face up under the camera, one card at a time."""
        return str(self.settings.get("camera.marks", "")).startswith("deck:")

    def open_overlay(self, overlay: Overlay) -> None:
        """Show ``overlay`` over the table's step (the step's own screen: no overlay)."""
        self.overlay = None if overlay.value == self.session.state.step else overlay
        self._show()

    def close_overlay(self) -> None:
        """Back from an overlay: the screen of the table's step."""
        self.overlay = None
        self._show()

    def act(self, fn, *args, **kwargs) -> bool:
        """Run a session action; a rule the core refuses becomes a message, not a crash, and
        a save the journal refused says so (False: nothing changed). The state it publishes
        moves the screen; an overlay it was run from closes after it."""
        before = self.session.state.events
        try:
            result = fn(*args, **kwargs)
        except BotifarraError as exc:
            self.close_overlay()
            self.show_message(explain(exc, self.language))  # after: it belongs to that screen
            return False
        if self.tap_guard is not None and self.session.state.events != before:
            self.tap_guard.acted()  # what a touch made the table write holds its place a while
        self.close_overlay()
        return not (isinstance(result, SaveResult) and not result.saved)

    def save(self, fn, *args) -> bool:
        """An action that saves a hand: the chord only once the journal's commit returned."""
        before = self.session.state.events
        ok = self.act(fn, *args)
        if ok and self.session.state.last_save.saved and self.session.state.events > before:
            self.hardware.feedback("chord")
            return True
        return False

    def _on_state(self, state: TableState) -> None:
        """The session changed: the screen of its step shows (unless an overlay is open).
        A refused save turns the LED red and sounds the error cue once, and says the hand
        was NOT saved; a later save that works clears it."""
        failed, was = state.last_save.failed, self._save_failed
        self._save_failed = failed
        self._show()
        if failed and not was:
            Logger.error("kiosk: save failed: %s", state.last_save.error)
            self.show_message(_("NOT saved: the kiosk could not write the score. "
                                "Nothing is lost on screen: try again. Please tell the bar staff."),
                              seconds=3600)
        elif was and not failed:
            self.show_message("")  # the cause is gone: so is the banner, the LED is green again

    def show_message(self, text: str, seconds: float = 6.0, *, info: bool = False) -> None:
        """The message strip across the top. A problem (the default) sounds the error cue and
        turns the status LED amber; ``info=True`` (e.g. "saved on the USB stick") does neither."""
        problem = bool(text) and not info
        if problem and not self._problem_shown:  # once, not again for a message it replaces
            self.hardware.feedback("error")
        self._problem_shown = problem
        self.hardware.tell(problem=problem, save_failed=self._save_failed)
        self.messages.show(text, seconds)

    def recover(self) -> None:
        """After an unexpected error: reload the match from the journal, show the scoreboard."""
        try:
            self.session.resume(self.session.match_id)
        except Exception:  # the journal itself failed: still show the scoreboard
            Logger.exception("kiosk: could not reload the journal")
        if self.session.state.game is not None:
            self.close_overlay()  # a game without pairs: its own board, the state's step
        else:
            self.open_overlay(Overlay.SCOREBOARD)
        self.show_message(_("Something went wrong. The score is saved."), seconds=10)

    # ------------------------------------------------------------------ language
    def set_language(self, language: str) -> None:
        tr.switch(language)
        self.language = language
        self.settings.set("ui.language", language)
        if getattr(self.settings, "path", None) is not None:  # the kiosk's settings.ini: kept at restart
            try:
                self.settings.save()
            except OSError:
                Logger.exception("kiosk: could not keep the language in the settings")
        # The words change, not the state: the shown screen reads them again now; the
        # others do when entered (another screen's refresh may not fit the step in progress).
        self.sm.current_screen.refresh()

    def next_language(self) -> None:
        langs = i18n.LANGUAGES
        self.set_language(langs[(langs.index(self.language) + 1) % len(langs)])

    # ------------------------------------------------------------------ keys and buttons
    def _on_request_close(self, *args, **kwargs):
        return bool(self.kiosk_mode)  # True = keep running

    def _on_key_down(self, window, key, scancode, codepoint, modifiers):
        if key == KEY_ESCAPE:
            return self.kiosk_mode  # swallow Escape in kiosk mode
        from kivy.uix.textinput import TextInput
        focused = [w for w in self.sm.current_screen.walk() if isinstance(w, TextInput) and w.focus]
        if focused:
            return False
        if key == KEY_SPACE:
            self.press("scan")
            return True
        if key in (KEY_ENTER, KEY_NUMPAD_ENTER):
            self.press("confirm")
            return True
        if key == KEY_BACKSPACE:
            self.press("undo")
            return True
        return False

    def press(self, button: str) -> None:
        """The three table actions (keyboard or GPIO buttons): scan, confirm, undo."""
        screen = self.sm.current_screen
        handler = getattr(screen, f"on_{button}_button", None)
        if handler is not None and handler() is not False:
            return
        if button == "scan" and self.session.state.phase == "playing" and self.session.state.draft is None:
            self.act(self.session.begin_score, "camera")
        elif button == "undo":
            self.act(self.session.undo)
        elif button == "settings":
            self.open_overlay(Overlay.SETTINGS)
