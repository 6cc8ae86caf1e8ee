"""Settings behind a PIN: the PIN pad (3 wrong tries -> wait 30 s), the choices a bar
owner can change, and the PIN change (the new PIN typed twice).

Plain Python (no Kivy); the clock is injected. Every change is saved at once through
``Settings.save()`` (atomic). Language is switched live by the screen (``app.set_language``).
"""

from __future__ import annotations

import glob
import time
from typing import Callable

from kiosk.settings import BY_NAME, Settings
from kiosk.ui.i18n import N_, _

MAX_TRIES = 3
LOCK_SECONDS = 30.0
PIN_LENGTH = (4, 8)
TABLE_DIGITS = 4  # table numbers 1 to 9999
TARGETS = (51, 73, 100, 101, 151, 200, 201)
SIZES = ("auto", "800x480", "1024x600", "1280x720", "1920x1080", "720x1280")
CAMERA_SOURCES = ("auto", "picamera2", "demo")

# Fields (setting name -> label) in the order the screen lists them.
LABELS = {
    "match.preset": N_("Rules for new matches"),
    "match.target": N_("Points to win"),
    "ui.language": N_("Language"),
    "match.both_confirm": N_("Both pairs confirm each hand"),
    "table.name": N_("Table"),
    "ui.sound": N_("Sounds"),
    "camera.source": N_("Camera"),
    "ui.fullscreen": N_("Full screen"),
    "ui.size": N_("Window size"),
}
# The help line under each field: plain words for the bar owner (the English ``help`` of
# kiosk/settings.py documents the INI file and may be technical).
HELP = {
    "match.preset": N_("The rules a new match starts with. A match already started keeps its rules."),
    "match.target": N_("Points a pair needs to win a new match (usually 101)."),
    "ui.language": N_("The language of every screen. It changes at once."),
    "match.both_confirm": N_("Yes: a player of each pair taps Confirm before a hand's score is saved."),
    "table.name": N_("For tournaments: shown on the scoreboard, on the printed sheet and in the names "
                     "of the files saved on the USB stick. Tap it to type the table's number."),
    "ui.sound": N_("A tick for each card the camera reads, a chord when a hand is saved. "
                   "Automatic: from the screen's speaker when there is no buzzer."),
    "camera.source": N_("Automatic finds the camera by itself. Takes effect at the next start."),
    "ui.fullscreen": N_("Yes at the bar table: the kiosk fills the screen and cannot be closed by "
                        "mistake. Takes effect at the next start."),
    "ui.size": N_("Only used when Full screen is No. Takes effect at the next start."),
}
NEEDS_RESTART = ("camera.source", "ui.fullscreen", "ui.size")
# How a camera source is named on screen (the others are shown as they are written).
CAMERA_NAMES = {"auto": N_("Automatic"), "demo": N_("Demo photos")}


def camera_name(source: str) -> str:
    return _(CAMERA_NAMES[source]) if source in CAMERA_NAMES else source


class PinPad:
    """Digits typed on the big pad, checked against ``settings.ui.pin``."""

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.digits = ""
        self.wrong = 0
        self.locked_until = 0.0

    @property
    def wait(self) -> int:
        """Seconds left before another try is allowed (0 = now)."""
        left = self.locked_until - self.clock()
        return int(left + 0.999) if left > 0 else 0

    def press(self, key: str) -> None:
        if key == "back":
            self.digits = self.digits[:-1]
        elif key == "clear":
            self.digits = ""
        elif key.isdigit() and len(self.digits) < PIN_LENGTH[1]:
            self.digits += key

    @property
    def shown(self) -> str:
        return "●" * len(self.digits)

    def submit(self) -> bool:
        """True when the typed PIN is right. Wrong: ``problem`` says why (and how long to wait)."""
        if self.wait:
            self.digits = ""
            return False
        ok = self.digits == str(self.settings["ui.pin"])
        self.digits = ""
        if ok:
            self.wrong = 0
            return True
        self.wrong += 1
        if self.wrong >= MAX_TRIES:
            self.wrong = 0
            self.locked_until = self.clock() + LOCK_SECONDS
        return False

    @property
    def problem(self) -> str:
        if self.wait:
            return _("Too many wrong tries. Wait {s} s.").format(s=self.wait)
        if self.wrong:
            return _("Wrong PIN ({n} of {max} tries)").format(n=self.wrong, max=MAX_TRIES)
        return ""


class SettingsViewModel:
    """The settings a bar owner may change from the screen; saved at once."""

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.monotonic,
                 video_devices: Callable[[], list[str]] | None = None) -> None:
        self.settings = settings
        self.pin = PinPad(settings, clock=clock)
        self.unlocked = False
        self.video_devices = video_devices or (lambda: sorted(glob.glob("/dev/video*")))
        self.new_pin: str | None = None  # the first entry of a PIN change

    # ------------------------------------------------------------------ lock
    def unlock(self) -> bool:
        self.unlocked = self.pin.submit()
        return self.unlocked

    def lock(self) -> None:
        self.unlocked = False
        self.new_pin = None
        self.pin.digits = ""

    # ------------------------------------------------------------------ values
    def value(self, name: str):
        return self.settings[name]

    def help(self, name: str) -> str:
        """The help line under a field, in the current language (else the INI help, English)."""
        return _(HELP[name]) if name in HELP else BY_NAME[name].help

    def _choices(self, name: str) -> tuple:
        if name == "match.target":
            return TARGETS
        if name == "ui.size":
            return SIZES
        if name == "camera.source":
            current = str(self.settings[name])
            found = tuple(f"v4l2:{d}" for d in self.video_devices())
            extra = (current,) if current not in CAMERA_SOURCES + found else ()
            return CAMERA_SOURCES + found + extra
        if name == "camera.marks":  # the stickers, then the decks learnt
            from kiosk.decks import deck_store
            return ("aruco", "qr") + tuple(f"deck:{name}" for name in deck_store().names())
        return BY_NAME[name].choices or (False, True)

    def cycle(self, name: str) -> object:
        """The next choice of ``name``, saved; returns the new value."""
        self._require_unlocked()
        choices = self._choices(name)
        current = self.settings[name]
        value = choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]
        return self.change(name, value)

    def change(self, name: str, value) -> object:
        self._require_unlocked()
        self.settings.set(name, value)
        self.settings.save()
        return self.settings[name]

    @staticmethod
    def needs_restart(name: str) -> bool:
        return name in NEEDS_RESTART

    def _require_unlocked(self) -> None:
        if not self.unlocked:
            raise PermissionError("the settings are locked: type the PIN first")

    # ------------------------------------------------------------------ table name
    @staticmethod
    def table_name_for(digits: str) -> str:
        """The table name a typed number gives, in the kiosk's language ("Taula 7");
        nothing or 0 = no table name (""). The name is then data: stored as text."""
        number = int(digits) if digits.isdigit() else 0
        return _("Table {n}").format(n=number) if number else ""

    def set_table(self, digits: str) -> str:
        """Save the table name for the number typed on the pad; returns it ("" = none)."""
        self._require_unlocked()
        return self.change("table.name", self.table_name_for(digits))

    # ------------------------------------------------------------------ PIN change
    def enter_new_pin(self, digits: str) -> str:
        """Step of a PIN change: returns ``"again"`` (type it once more), ``"changed"``, or a
        problem sentence (then the change starts over)."""
        self._require_unlocked()
        if not digits.isdigit() or not PIN_LENGTH[0] <= len(digits) <= PIN_LENGTH[1]:
            self.new_pin = None
            return _("A PIN has 4 to 8 digits")
        if self.new_pin is None:
            self.new_pin = digits
            return "again"
        first, self.new_pin = self.new_pin, None
        if digits != first:
            return _("The two PINs differ; the PIN was not changed")
        self.change("ui.pin", digits)
        return "changed"
