"""``botifarra-kiosk run``: start the touch kiosk.

Kiosk mode (the default: full screen, no cursor, Escape and window-close do not quit, no
screen blanking); ``--windowed`` for a desktop window of ``--size``.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from vision.camera import CameraFactory, CameraService, OnCards, OnFrame, OnStatus, OnStill

SIZE = re.compile(r"^(\d{3,4})x(\d{3,4})$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="journal file (default: the data directory)")
    parser.add_argument("--size", help="window size WxH, e.g. 800x480 (default: the screen)")
    parser.add_argument("--windowed", action="store_true",
                        help="a normal window (not kiosk mode): cursor, Escape quits")
    parser.add_argument("--camera", help="camera source: auto, demo, picamera2, v4l2:/dev/video0, file:PATH "
                                         "(default: the settings)")


def camera_factory(spec: str, marks: str, *, width: int = 1920, height: int = 1080,
                   exposure: float = 0) -> CameraFactory:
    """Build the camera service lazily (OpenCV is imported only when the camera screen opens).
    ``width``, ``height`` and ``exposure`` are the ``camera.*`` settings (for the Pi camera
    and USB cameras; the demo and file sources give their own frames).

    The factory makes a :class:`vision.camera.CameraService`: the sticker reader, or for
    ``marks = deck:NAME`` the deal-through reader of that deck, or with ``frames_only``
    (learning a deck) the frames alone. Stills (and the light around them) are the sticker
    reader's: a deal has no pile to photograph."""
    def make(*, on_frame: OnFrame | None = None, on_cards: OnCards | None = None,
             on_status: OnStatus | None = None, on_still: OnStill | None = None,
             light: Callable[[bool], None] | None = None, frames_only: bool = False) -> CameraService:
        from vision.reader import PileReader
        from vision.service import StickerService
        from vision.sources import open_source

        from kiosk import paths
        source = open_source(spec, width=width, height=height, exposure=exposure, cache_dir=paths.cache_dir())
        if frames_only:  # learning a deck: the frames, no reader
            from vision.deck.service import DealService
            return DealService(source, None, on_frame=on_frame, on_status=on_status)
        if str(marks).startswith("deck:"):  # an ordinary deck: dealt face up, one card at a time
            from kiosk.commands.deck import deal_service
            return deal_service(source, str(marks)[5:], on_frame=on_frame, on_cards=on_cards,
                                on_status=on_status)
        return StickerService(source, PileReader(marks=marks), on_frame=on_frame, on_cards=on_cards,
                              on_status=on_status, on_still=on_still, light=light)
    return make


def trick_camera_factory(spec: str, settings):
    """Trick mode's camera (``camera.mode = tricks``): ``make(hand, on_events=, on_status=)``
    builds a :class:`vision.tricks.TrickService` reading ``hand`` on from the seats' places
    learnt (``camera.seats``, read at each make: the seats screen may have learnt them since
    the start) with the deck learnt (``camera.marks = deck:NAME``); None when not in trick mode
    or without a learnt deck (the table names the cards by touch). The places are checked at
    the start (another camera mode, a bad edit) and at each make, which raises ValueError
    without them."""
    marks = settings["camera.marks"]
    if settings["camera.mode"] != "tricks" or not str(marks).startswith("deck:"):
        return None
    from vision.tricks import check_seats

    def places_and_size():
        places, size = settings["camera.seats"].places, (settings["camera.width"], settings["camera.height"])
        problem = "they have not been learnt" if places is None else check_seats(places, size)
        if problem:
            raise ValueError(f"camera.seats: {problem} (learn them again: Settings, Seats)")
        return places, size

    try:
        places_and_size()
    except ValueError as exc:
        logging.getLogger("kiosk").error("kiosk: trick camera off until the seats are learnt: %s", exc)

    def make(hand, **callbacks):
        from kiosk import paths
        from kiosk.decks import deck_store
        from vision.sources import open_source
        from vision.tricks import TrickReader, TrickService

        places, size = places_and_size()
        source = open_source(spec, width=size[0], height=size[1], exposure=settings["camera.exposure"],
                             cache_dir=paths.cache_dir())
        reader = TrickReader(deck_store().load(str(marks)[5:]), places, hand, frame_size=size)
        return TrickService(source, reader, **callbacks)
    return make


def _controls(settings):
    if not settings["gpio.enabled"]:
        return None
    from hardware.controls import TableControls
    return TableControls.from_settings(settings.section("gpio"))


def run(args: argparse.Namespace) -> int:
    size = None
    if args.size:
        m = SIZE.match(args.size)
        if not m:
            print(f"botifarra-kiosk run: --size {args.size!r} is not WxH (e.g. 800x480)", file=sys.stderr)
            return 2
        size = (int(m.group(1)), int(m.group(2)))

    from kiosk import paths
    from kiosk.settings import Settings

    settings = Settings.load()
    db = args.db or paths.default_db()
    kiosk_mode = not args.windowed and bool(settings["ui.fullscreen"])
    if size is None and settings["ui.size"] != "auto":
        m = SIZE.match(str(settings["ui.size"]))
        size = (int(m.group(1)), int(m.group(2))) if m else None

    _limit_malloc_arenas(int(os.environ.get("MALLOC_ARENA_MAX") or ARENAS))
    # Kivy reads its configuration at import: set it first.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")  # no blanking during a match
    # SDL would turn SIGTERM into a window-close request, which kiosk mode refuses; the
    # kiosk handles SIGTERM itself (systemctl stop): stop the app cleanly.
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    from kiosk.ui.rendering import configure_rendering
    configure_rendering()
    from kivy.config import Config
    Config.set("kivy", "exit_on_escape", "0" if kiosk_mode else "1")
    Config.set("kivy", "keyboard_mode", "systemanddock" if kiosk_mode else "system")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    if size:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if kiosk_mode and not size else "0")
    Config.set("graphics", "show_cursor", "0" if kiosk_mode else "1")
    Config.set("graphics", "resizable", "0" if kiosk_mode else "1")

    from kivy.logger import Logger
    from kiosk.journal.startup import open_for_kiosk
    from kiosk.ui.app import KioskApp

    # settings.problems, journal.moved_aside and journal.startup_fault reach the app with
    # settings and journal: it logs them and shows them to the table (startup_faults). The
    # kiosk starts whatever the journal's state: a fault is said on screen, never a crash.
    journal = open_for_kiosk(db)
    spec = args.camera or settings["camera.source"]
    try:
        controls = _controls(settings)
    except Exception as exc:  # GPIO asked for but absent: say so, run with touch + keyboard
        Logger.error("kiosk: GPIO controls unavailable (%s); touch and keyboard only", exc)
        controls = None
    from kiosk.ui.sound import SoundPlayer
    sound = SoundPlayer(paths.cache_dir() / "sounds")  # silent by itself if there is no audio
    try:
        from hardware import watchdog
    except ImportError:
        watchdog = None
    from kiosk.club import start_from_settings
    club = start_from_settings(settings, db)  # None unless [club] broker and table are set
    app = KioskApp(journal=journal, settings=settings, db_path=db, kiosk_mode=kiosk_mode, club=club,
                   camera_factory=camera_factory(spec, settings["camera.marks"], width=settings["camera.width"],
                                                  height=settings["camera.height"],
                                                  exposure=settings["camera.exposure"]),
                   controls=controls, sound=sound, watchdog=watchdog,
                   trick_camera=trick_camera_factory(spec, settings))
    def on_sigterm(signum, frame):
        from kivy.clock import Clock
        Clock.schedule_once(lambda dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        app.run()
    finally:
        if club is not None:
            club.stop()
        journal.close()
        sound.close()
        if controls is not None:
            controls.close()
    return 0


ARENAS = 2  # glibc malloc arenas for the kiosk process (docs/perf.md)
MMAP_THRESHOLD = 512 * 1024  # bytes: bigger blocks are mapped and unmapped, never kept in the heap


def _limit_malloc_arenas(arenas: int) -> None:
    """Cap glibc's malloc arenas (what ``MALLOC_ARENA_MAX`` does, set from inside the
    process, before the camera threads start). Each thread that allocates under contention
    otherwise gets its own arena, and freed frames linger in each: on the camera screen that
    is about 18 MB of peak RSS here, with the same frames and reads.

    Also fixes the mmap threshold at ``MMAP_THRESHOLD`` (unless ``MALLOC_MMAP_THRESHOLD_``
    is set): glibc otherwise raises it to the size of the last freed big block, so after a
    few camera frames each 6 MB frame comes from the heap and the heap stays grown; fixed,
    every frame-sized buffer goes back to the system when freed (about 7 MB of the camera
    screen's peak here). Not glibc: nothing."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-8, arenas)  # -8 = M_ARENA_MAX
        if not os.environ.get("MALLOC_MMAP_THRESHOLD_"):
            libc.mallopt(-3, MMAP_THRESHOLD)  # -3 = M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass
