"""One declarative table of the kiosk's settings, with defaults and help text.

Stored as INI (``settings.ini`` in the config dir). Reading never fails: a missing file
gives the defaults; a bad value (not of its kind, outside its range, not one of its
choices, nan, inf) falls back to its default and is reported in ``Settings.problems`` so
the kiosk shows its warning banner.
"""

from __future__ import annotations

import configparser
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hardware.pins import NOT_FITTED
from kiosk import paths
from kiosk.files import write_whole
from kiosk.game import PRESETS, TARGETS


class OptionalInt:
    """The ``kind`` of a setting that is a whole number or nothing, e.g. a GPIO pin that
    may not be fitted: empty, ``none``, ``no`` or ``-`` read as None; None is saved as empty."""

    NOTHING = NOT_FITTED


class Marks(str):
    """The ``kind`` of ``camera.marks``: ``aruco``, ``qr`` (stickers), or ``deck:NAME``
    (an ordinary deck learnt by name, read by dealing the pile face up)."""

    STICKERS = ("aruco", "qr")

    def __new__(cls, text: str) -> "Marks":
        value = str(text).strip()
        if value in cls.STICKERS or (value.startswith("deck:") and len(value) > 5):
            return super().__new__(cls, value)
        raise ValueError(f"{text!r} is not aruco, qr or deck:NAME")

    @property
    def deck(self) -> str | None:
        return self[5:] if self.startswith("deck:") else None


class SeatPlaces(str):
    """The ``kind`` of ``camera.seats``: where each seat lays its card in the trick camera's
    picture, learnt at set-up (``vision.tricks.SeatLearner``), written ``x,y x,y x,y x,y``
    for seats 0-3 in pixels; empty = not learnt yet."""

    def __new__(cls, text: str) -> "SeatPlaces":
        value = " ".join(str(text).split())
        if value:
            pairs = value.split(" ")
            try:
                points = [tuple(float(v) for v in p.split(",")) for p in pairs]
            except ValueError:
                points = []
            if len(points) != 4 or any(len(p) != 2 or not all(0 <= v < 10000 for v in p) for p in points):
                raise ValueError(f"{text!r} is not four places x,y (seats 0-3)")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, places: dict[int, tuple[float, float]]) -> "SeatPlaces":
        return cls(" ".join(f"{places[s][0]:.0f},{places[s][1]:.0f}" for s in range(4)))

    @property
    def places(self) -> dict[int, tuple[float, float]] | None:
        """Seat -> (x, y), or None when the seats have not been learnt."""
        if not self:
            return None
        out = {}
        for seat, pair in enumerate(self.split(" ")):
            x, y = pair.split(",")
            out[seat] = (float(x), float(y))
        return out


@dataclass(frozen=True)
class Setting:
    section: str
    key: str
    default: Any
    kind: type
    help: str
    choices: tuple | None = None
    low: float | None = None    # numbers: the range a value must be in (inclusive)
    high: float | None = None
    pattern: str | None = None  # text: a regular expression the whole value must match

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"


def _s(section, key, default, help, choices=None, kind=None, *, low=None, high=None, pattern=None):
    return Setting(section, key, default, kind or type(default), help, choices, low, high, pattern)


NAME = r"[^\x00-\x1f\x7f]{1,40}"  # a pair's name: 1-40 characters; printable is checked too
BCM = {"low": 0, "high": 27}       # the Pi's GPIO numbers


SETTINGS: tuple[Setting, ...] = (
    # match defaults
    _s("match", "preset", "reglament", "Rules preset for new matches", tuple(PRESETS)),
    _s("match", "target", 101, "Points to win (101 by default; 51, 73, 100, 151, 200, 201)", TARGETS),
    _s("match", "team_a", "Nosaltres", "Default name of the first pair", pattern=NAME),
    _s("match", "team_b", "Vosaltres", "Default name of the second pair", pattern=NAME),
    _s("match", "both_confirm", False, "Both pairs must confirm a hand's score"),
    # tournament
    _s("table", "name", "", "Name of this table in a tournament (e.g. Taula 7): shown on the scoreboard, "
       "on the printed sheet and in the names of exported files; empty = no table name",
       pattern=r"[^\x00-\x1f\x7f]{0,40}"),
    # club mode (docs/club.md): empty broker = not in a tournament
    _s("club", "broker", "", "Tournament broker, mqtt://HOST:PORT or mqtts://HOST:PORT; empty = no club mode"),
    _s("club", "table", "", "This table's name in the tournament: a topic level and its broker login (e.g. 7)"),
    _s("club", "user", "", "Broker user; empty = the table's name"),
    _s("club", "password", "", "Broker password of this table"),
    _s("club", "ca_file", "", "CA certificate (PEM) that signed the broker's, for mqtts://; empty = the system's"),
    # interface
    _s("ui", "language", "ca", "Interface language", ("ca", "es", "en")),
    _s("ui", "fullscreen", True, "Full screen (kiosk mode: no cursor, Escape does not quit)"),
    _s("ui", "size", "auto", "Window size when not full screen, e.g. 800x480",
       pattern=r"auto|[1-9][0-9]{2,3}x[1-9][0-9]{2,3}"),
    _s("ui", "pin", "1234", "PIN that opens the settings", pattern=r"[0-9]{4,8}"),
    _s("ui", "sound", "auto", "Sounds from the screen's speaker (card read, hand saved, error): "
       "auto = only when no GPIO buzzer is fitted, on, off", ("auto", "on", "off")),
    # camera
    _s("camera", "source", "auto",
       "auto (Pi camera, then USB, then demo), demo, picamera2, v4l2:/dev/video0, or file:PATH"),
    _s("camera", "width", 1920, "Capture width in pixels", low=160, high=4656),
    _s("camera", "height", 1080, "Capture height in pixels", low=120, high=3496),
    _s("camera", "exposure", 0, "Manual exposure (0 = automatic)", low=0, high=1_000_000),
    _s("camera", "marks", Marks("aruco"), "Card marks the reader looks for: aruco or qr stickers, or "
       "deck:NAME for an ordinary deck learnt under NAME (dealt face up, one card at a time)"),
    _s("camera", "mode", "piles", "piles = the hand is counted from the piles once it is over; tricks = "
       "an overhead camera reads each card as it is played (needs camera.marks = deck:NAME and camera.seats)",
       ("piles", "tricks")),
    _s("camera", "seats", SeatPlaces(""), "Trick mode: where each seat lays its card in the camera's "
       "picture, x,y for seats 0-3 (learnt at set-up); empty = not learnt"),
    # hardware (BCM pin numbers; empty = not fitted)
    _s("gpio", "enabled", False, "Use GPIO buttons, light, LED and buzzer"),
    _s("gpio", "pin_factory", "auto", "gpiozero pin factory: auto, lgpio, rpigpio, mock"),
    _s("gpio", "scan_pin", 17, "SCAN button (BCM), to ground; empty = not fitted", kind=OptionalInt, **BCM),
    _s("gpio", "confirm_pin", 27, "CONFIRM button (BCM), to ground; empty = not fitted", kind=OptionalInt,
       **BCM),
    _s("gpio", "undo_pin", 22, "UNDO button (BCM), to ground; hold for settings; empty = not fitted",
       kind=OptionalInt, **BCM),
    _s("gpio", "hold_seconds", 3.0, "Hold time of UNDO that opens the settings", low=0.5, high=30),
    _s("gpio", "bounce_ms", 30, "Button debounce time in milliseconds", low=0, high=1000),
    _s("gpio", "light_pin", 18, "Camera light MOSFET gate (PWM); empty = not fitted", kind=OptionalInt,
       **BCM),
    _s("gpio", "light_brightness", 0.8, "Camera light brightness while reading (0-1)", low=0, high=1),
    _s("gpio", "led_red_pin", 5, "Status LED red leg; empty = not fitted (all three legs or none)",
       kind=OptionalInt, **BCM),
    _s("gpio", "led_green_pin", 6, "Status LED green leg; empty = not fitted", kind=OptionalInt, **BCM),
    _s("gpio", "led_blue_pin", 13, "Status LED blue leg; empty = not fitted", kind=OptionalInt, **BCM),
    _s("gpio", "buzzer_pin", 12, "Buzzer (PWM tone); empty = not fitted", kind=OptionalInt, **BCM),
)

BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def check(setting: Setting, value: Any) -> Any:
    """``value`` if the table allows it for ``setting``; else ValueError saying why."""
    if value is None and setting.kind is OptionalInt:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a number")
        if (setting.low is not None and value < setting.low) or \
                (setting.high is not None and value > setting.high):
            raise ValueError(f"{value!r} is outside {setting.low:g}-{setting.high:g}")
    if isinstance(value, str) and setting.pattern is not None and not (
            re.fullmatch(setting.pattern, value) and value.isprintable()):
        raise ValueError(f"{value!r} is not allowed here")
    if setting.choices and value not in setting.choices:
        raise ValueError(f"{value!r} is not one of {', '.join(map(str, setting.choices))}")
    return value


def _convert(setting: Setting, raw: str) -> Any:
    return check(setting, _parse(setting, raw))


def _parse(setting: Setting, raw: str) -> Any:
    if setting.kind is bool:
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on", "si", "sí"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{raw!r} is not yes/no")
    if setting.kind is OptionalInt:
        text = raw.strip()
        if text.lower() in OptionalInt.NOTHING:
            return None
        if len(text) > 12:  # refused before int() reads thousands of digits
            raise ValueError(f"{raw[:20]!r}... is not a pin number")
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{raw!r} is not a whole number (empty = not fitted)") from None
    if setting.kind in (int, float) and len(raw.strip()) > 40:
        raise ValueError(f"{raw[:20]!r}... is not a number in range")
    return setting.kind(raw.strip())


def _text(setting: Setting, value: Any) -> str:
    """``value`` as written in settings.ini (read back by :func:`_convert`)."""
    if setting.kind is bool:
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _unreadable(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "it is not text (UTF-8)"
    if isinstance(exc, configparser.MissingSectionHeaderError):
        return f"line {exc.lineno} comes before any [section] header"
    if isinstance(exc, configparser.Error):
        return " ".join(str(exc).split())[:160]
    return getattr(exc, "strerror", None) or str(exc)


@dataclass
class Settings:
    values: dict[str, Any] = field(default_factory=lambda: {s.name: s.default for s in SETTINGS})
    problems: list[str] = field(default_factory=list)
    path: Path | None = None
    _watchers: list[Callable[[str], None]] = field(default_factory=list, repr=False, compare=False)

    def watch(self, watcher: Callable[[str], None]) -> Callable[[], None]:
        """``watcher(name)`` after ``set`` changed the value of ``name``; returns the
        function that stops it (e.g. the table's session publishes its state again)."""
        self._watchers.append(watcher)
        return lambda: self._watchers.remove(watcher) if watcher in self._watchers else None

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def set(self, name: str, value: Any) -> None:
        setting = BY_NAME[name]
        before = self.values.get(name)
        self.values[name] = (check(setting, value) if isinstance(value, setting.kind)
                             else _convert(setting, "" if value is None else str(value)))
        if self.values[name] != before:
            for watcher in list(self._watchers):
                watcher(name)

    def section(self, section: str) -> dict[str, Any]:
        return {s.key: self.values[s.name] for s in SETTINGS if s.section == section}

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        path = Path(path) if path else paths.config_dir() / "settings.ini"
        settings = cls(path=path)
        if not path.exists():
            return settings
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError, OSError) as exc:
            settings.problems.append(f"{path}: cannot be read ({_unreadable(exc)}); using the defaults")
            return settings
        for section in parser.sections():
            for key, raw in parser.items(section):
                setting = BY_NAME.get(f"{section}.{key}")
                if setting is None:
                    settings.problems.append(f"{path}: unknown setting [{section}] {key}; ignored")
                    continue
                try:
                    settings.values[setting.name] = _convert(setting, raw)
                except (TypeError, ValueError) as exc:
                    settings.problems.append(
                        f"{path}: [{section}] {key} = {raw!r} is not valid ({exc}); using {setting.default!r}")
        return settings

    def save(self, path: Path | None = None) -> Path:
        """Write atomically (temp file, fsync, rename) so a power cut never leaves half a file."""
        path = Path(path or self.path or paths.config_dir() / "settings.ini")
        path.parent.mkdir(parents=True, exist_ok=True)
        parser = configparser.ConfigParser(interpolation=None)
        for s in SETTINGS:
            if not parser.has_section(s.section):
                parser.add_section(s.section)
            parser.set(s.section, s.key, _text(s, self.values[s.name]))
        text = io.StringIO()
        parser.write(text)
        write_whole(path, text.getvalue())
        self.path = path
        return path
