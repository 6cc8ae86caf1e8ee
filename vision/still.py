"""Read the pile from ONE full-resolution still, taken when the pile is still or on SCAN.

::

    source (video) --latest()--> StillCapture thread: small grey frame -> Stillness
                                   | still for ``still_s`` (or request() = SCAN)
                                   v
                          light(True) -> source.capture_still() -> light(False)
                                   v
                          reader.read(still) on this thread -> on_still(StillRead)

The live video stays for the preview, the live ticks and stillness; the still is read on
this worker thread, never the UI thread. After a still, the next one waits for the pile to
move and settle again (or for SCAN): a pile left alone is read once.

Stillness: the mean absolute difference between consecutive small grey frames (160 px
wide, blurred) stays under ``motion_level`` grey levels for ``still_s`` seconds. A hand
moving in view, or a card being laid, is motion; a settled pile is not. (A hand held
perfectly still over the pile is not seen as a hand: SCAN is the way then.)
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from vision.errors import CameraError
from vision.fusion import merge_reads
from vision.reader import PileReader, ReadResult
from vision.setup_check import GLARE, SetupCheck, check_setup, glare_squares
from vision.sources import Frame, FrameSource

log = logging.getLogger(__name__)

SMALL_WIDTH = 160


def small_gray(image: np.ndarray, width: int = SMALL_WIDTH) -> np.ndarray:
    """The frame at ``width`` px, grey and blurred: sensor noise and JPEG blocks must not
    look like motion."""
    g = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = g.shape[:2]
    g = cv2.resize(g, (width, max(1, int(round(h * width / w)))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(g, (0, 0), 1.0)


class Stillness:
    """``update(small_grey, t) -> bool``: True once the frames have been stable for
    ``still_s`` seconds (and until they move). ``motion_level``: mean absolute difference,
    grey levels, under which two frames are "the same"."""

    def __init__(self, *, still_s: float = 0.5, motion_level: float = 2.0):
        self.still_s, self.motion_level = float(still_s), float(motion_level)
        self._last: np.ndarray | None = None
        self._since: float | None = None
        self.motion = 0.0

    def update(self, small: np.ndarray, t: float) -> bool:
        if self._last is None or self._last.shape != small.shape:
            self._last, self._since = small, t
            return False
        self.motion = float(cv2.absdiff(small, self._last).mean())
        self._last = small
        if self.motion > self.motion_level:
            self._since = t
            return False
        return t - self._since >= self.still_s

    def reset(self) -> None:
        self._last, self._since = None, None


@dataclass(frozen=True)
class StillReadout:
    """What one still (and, on glare, its darker twin) gave: the merged ``result``,
    ``darker`` (the darker still was read), ``glare`` (squares still in glare after it)."""
    result: ReadResult
    darker: bool
    glare: tuple


def read_still(reader: PileReader, image: np.ndarray,
               darker_still: Callable[[], np.ndarray | None] | None = None) -> StillReadout:
    """Read a still; if a square or the mat shows glare, ask ``darker_still()`` for the SAME
    pile at a shorter exposure (None: the source cannot) and merge the two reads.

    Why only on glare: the darker still is noisier in the shadows, and most stills have no
    glare. Both reads are sure of what they report (margins), so their cards add up; a place
    where they disagree is refused (``merge_reads``)."""
    def darker_read() -> tuple[np.ndarray, ReadResult] | None:
        second = darker_still()
        return None if second is None else (second, reader.read(second))

    return add_darker(image, reader.read(image), darker_read if darker_still is not None else None)


def add_darker(image: np.ndarray, result: ReadResult,
               darker_read: Callable[[], tuple[np.ndarray, ReadResult] | None] | None, *,
               glare_after: bool = True) -> StillReadout:
    """``result`` (read from ``image``) merged with a darker exposure's read when ``image``
    shows glare: ``darker_read()`` gives the darker image and its read (None: none taken).
    The one decision behind stills (``read_still``) and the live video (``CameraService``).
    ``glare_after``: look for glare left in the darker image (a still tells the player which
    card to move; the live video does not, and saves the time)."""
    glare = glare_squares(image, result)
    if not glare or darker_read is None:
        return StillReadout(result, False, tuple(glare))
    got = darker_read()
    if got is None:
        return StillReadout(result, False, tuple(glare))
    second, extra = got
    left = tuple(glare_squares(second, extra)) if glare_after else ()
    return StillReadout(merge_reads(result, extra), True, left)


@dataclass(frozen=True)
class StillRead:
    """A still and what was read in it; ``why``: "still" (the pile settled) or "scan".
    ``darker``: a second, darker still was read too because of glare (its cards are in
    ``result``); ``glare``: squares still in glare after that (ask to move those cards);
    ``setup``: the set-up check measured on this still (what the camera screen says)."""
    frame: Frame
    result: ReadResult
    why: str
    darker: bool = False
    glare: tuple = ()
    setup: SetupCheck | None = None


class StillCapture:
    """``StillCapture(source, reader, *, on_still, on_error=None, light=None)``: one worker
    thread (``start()``/``stop()``, joined). ``request()`` asks for a still now (SCAN).
    ``light(on: bool)`` is called around each still: the light's owner (hardware) puts it at
    its set brightness and back. Callbacks run on the worker thread."""

    def __init__(self, source: FrameSource, reader: PileReader, *,
                 on_still: Callable[[StillRead], None],
                 on_error: Callable[[CameraError], None] | None = None,
                 light: Callable[[bool], None] | None = None,
                 stillness: Stillness | None = None, still_timeout_s: float = 5.0,
                 darker_scale: float = 0.4):
        self.source, self.reader = source, reader
        self.on_still, self.on_error, self.light = on_still, on_error, light
        self.stillness = stillness if stillness is not None else Stillness()
        self.still_timeout_s = float(still_timeout_s)
        self.darker_scale = float(darker_scale)
        self._stop = threading.Event()
        self._wanted = threading.Event()
        self._thread: threading.Thread | None = None
        self.stills = 0

    def start(self) -> "StillCapture":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="still-capture", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wanted.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def request(self) -> None:
        """SCAN: take a still now, whatever the stillness says."""
        self._wanted.set()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _run(self) -> None:
        last = 0
        armed = True  # a settled pile gives one still (SCAN counts as it); motion re-arms
        while not self._stop.is_set():
            frame = self.source.latest(0.2, after=last)
            if self._stop.is_set():
                return
            why = None
            if self._wanted.is_set():
                self._wanted.clear()
                why = "scan"
            if frame is not None and not frame.still:
                last = frame.number
                img = frame.gray if frame.gray is not None else frame.image
                settled = self.stillness.update(small_gray(img), frame.time)
                if self.stillness.motion > self.stillness.motion_level:
                    armed = True  # the pile changed: the next settle is a new still
                elif settled and armed and why is None:
                    why = "still"
            if why is None:
                continue
            armed = False
            self._take(why)

    def _capture(self, exposure_scale: float = 1.0) -> Frame | None:
        try:
            if self.light is not None:
                self.light(True)
            try:
                return self.source.capture_still(self.still_timeout_s, exposure_scale=exposure_scale)
            finally:
                if self.light is not None:
                    self.light(False)
        except CameraError as exc:
            log.warning("still not taken: %s", exc)
            if self.on_error is not None:
                self.on_error(exc)
        except Exception:
            log.exception("the light callback failed")
        return None

    def _take(self, why: str) -> None:
        still = self._capture()
        if still is None:
            return

        def darker_still() -> np.ndarray | None:
            if not self.source.supports_exposure:
                return None
            second = self._capture(self.darker_scale)
            return None if second is None else second.image

        try:
            read = read_still(self.reader, still.image, darker_still)
            setup = check_setup(still.image, read.result, video=False)
            if read.darker and not read.glare:  # the darker still read what the glare hid
                setup = dataclasses.replace(setup, findings=tuple(f for f in setup.findings if f.kind != GLARE),
                                            glare_squares=())
        except Exception:
            log.exception("reading still %d failed", still.number)
            return
        self.stills += 1
        try:
            self.on_still(StillRead(still, read.result, why, read.darker, read.glare, setup))
        except Exception:
            log.exception("still callback failed")
