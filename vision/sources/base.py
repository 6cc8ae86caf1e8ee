"""The frame source machinery every camera backend shares (see :mod:`vision.sources`).

A :class:`FrameSource` owns one thread that grabs frames from its device and keeps only
the latest one; readers call ``latest(timeout, after=n)``. Nothing ever raises out of that
thread: a missing camera, an unplugged one, or a frame that cannot be read sets ``status``
(a short string; the kiosk's camera screen says each in the table's language) and ``error`` (a typed
:class:`vision.errors.CameraError`), and the thread tries again with a growing pause
(0.5 s doubling to 5 s) until the camera comes back or ``stop()`` is called.
``stop()`` joins the thread.

A still: ``capture_still(timeout_s)`` asks the grabbing thread for ONE picture at the
sensor's full resolution (``_grab_still()``; a source without a still mode gives its next
video frame) between two video frames, so the device is only ever touched by its own thread.
A darker frame: ``capture_darker(scale)`` asks the same thread for ONE video frame at
``scale`` times the automatic exposure (``_grab_darker(scale)``; glare), where the source
``supports_exposure``; it is not published as the latest frame, so the preview never shows it.
A fake source for tests is a subclass with ``_grab``, ``_grab_still`` and ``_grab_darker``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from vision.errors import (BadFrameError, CameraDriverError, CameraError, CameraLostError,
                           NoCameraError)

STARTING, RUNNING, NO_CAMERA, LOST, BAD_FRAME, ENDED, STOPPED, FAULT = (
    "starting", "running", "no_camera", "lost", "bad_frame", "ended", "stopped", "fault")
IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_EXTS = {".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm"}


@dataclass(frozen=True)
class Frame:
    """One captured frame. ``image`` is BGR (for display and evidence); ``gray`` is a
    smaller grayscale image for recognition when the camera gives one (Picamera2 lores),
    else None. ``number`` counts up from 1; ``time`` is ``time.monotonic()``. ``still``:
    a full-resolution still (``capture_still``), not a video frame."""
    image: np.ndarray
    number: int
    time: float
    gray: np.ndarray | None = None
    still: bool = False


def release_freed_memory() -> None:
    """Hand memory that Python and OpenCV have freed back to the system (glibc's
    ``malloc_trim``; nothing elsewhere). glibc keeps freed blocks of every thread's arena for
    reuse: after the demo scenes are drawn, or when the camera stops, that is tens of MB
    the kiosk no longer needs (see docs/perf.md)."""
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes
            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None


class FrameSource:
    """Base: one grabbing thread, latest-frame hand-off, status, retry with backoff.

    Subclasses implement ``_open()``, ``_grab() -> ndarray`` (or a Frame's (image, gray)
    tuple) and ``_close()``, raising :class:`CameraError` subclasses on failure; and may
    set ``interval`` (seconds between frames, for file and demo sources).
    """

    name = "source"
    interval = 0.0
    supports_exposure = False  # capture_still(exposure_scale=...) and capture_darker() really change it
    backoff = (0.5, 5.0)

    def __init__(self, *, on_status: Callable[[str], None] | None = None):
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = STARTING
        self.error: CameraError | None = None
        self._number = 0  # frames keep counting up across reconnects and restarts
        self.on_status = on_status
        self._wake = threading.Event()  # stop() or a still request cuts a paced wait short
        self._still_wanted = threading.Event()
        self._still: Frame | CameraError | None = None
        self._exposure_scale = 1.0
        self._darker = False  # the request is a darker video frame, not a full-resolution still

    # -- interface ------------------------------------------------------------------

    @property
    def status(self) -> str:
        return self._status

    @property
    def is_fault(self) -> bool:
        """A fault that needs a person, not a cable: the status LED shows it."""
        return self._status == FAULT

    def capture_still(self, timeout_s: float = 5.0, *, exposure_scale: float = 1.0) -> Frame:
        """ONE picture at the sensor's full resolution (``Frame.still``), taken by the
        grabbing thread between two video frames. ``exposure_scale``: below 1, a darker
        exposure than the automatic one (glare; only where ``supports_exposure``). Blocks:
        call it from a worker thread, never the UI thread. Raises :class:`CameraError` when
        the source is not running, fails, or gives nothing within ``timeout_s``."""
        return self._request(timeout_s, exposure_scale, darker=False)

    def capture_darker(self, exposure_scale: float = 0.4, timeout_s: float = 2.0) -> Frame | None:
        """ONE video frame (the video's size) at ``exposure_scale`` times the automatic
        exposure, same gain: where the lamp's reflection burns a card out, the darker frame
        keeps its print. None where the source cannot change its exposure
        (``supports_exposure``). Blocks like ``capture_still`` (worker threads only) and
        raises :class:`CameraError` the same way."""
        if not self.supports_exposure:
            return None
        return self._request(timeout_s, exposure_scale, darker=True)

    def _request(self, timeout_s: float, exposure_scale: float, *, darker: bool) -> Frame:
        if self._thread is None or self._stop.is_set():
            raise CameraLostError("the camera is not running")
        what = "darker frame" if darker else "still"
        deadline = time.monotonic() + timeout_s
        with self._cond:
            self._still = None
            self._exposure_scale = float(exposure_scale)
            self._darker = darker
            self._still_wanted.set()
            self._wake.set()
            while self._still is None:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    self._still_wanted.clear()
                    raise CameraLostError(f"no {what} from the {self.name} camera in {timeout_s:g} s")
                self._cond.wait(min(left, 0.5))
            got, self._still = self._still, None
        if isinstance(got, CameraError):
            raise got
        return got

    def start(self) -> "FrameSource":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-capture", daemon=True)
            self._thread.start()
        return self

    def latest(self, timeout: float | None = None, *, after: int = 0) -> Frame | None:
        """The newest frame whose number is greater than ``after`` (waits up to ``timeout``
        seconds for one; None if none came or the source is stopped)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._frame is None or self._frame.number <= after:
                if self._stop.is_set():
                    return None
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left if left is not None else 0.5)
            return self._frame

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._set_status(STOPPED)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- thread -------------------------------------------------------------------------

    def _set_status(self, status: str, error: CameraError | None = None) -> None:
        changed = status != self._status
        self._status = status
        if error is not None or status == RUNNING:
            self.error = error
        if changed and self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:  # a bad callback must not kill the capture thread
                pass

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                self._open()
            except CameraDriverError as exc:
                # no retry: a library that cannot be imported stays so until it is repaired
                self._set_status(FAULT, exc)
                self._stop.wait()
                return
            except CameraError as exc:
                # a camera that gave frames and is now missing was unplugged: "lost"
                lost = self._number > 0 or not isinstance(exc, NoCameraError)
                self._set_status(LOST if lost else NO_CAMERA, exc)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            except Exception as exc:  # a driver raising something unexpected
                self._set_status(LOST, CameraLostError(str(exc)))
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            bad = 0
            next_at = time.monotonic()
            while not self._stop.is_set():
                try:
                    got = self._grab()
                except BadFrameError as exc:
                    bad += 1
                    self._set_status(BAD_FRAME, exc)
                    if bad >= 5:
                        break
                    self._stop.wait(0.05)
                    continue
                except StopIteration:
                    self._set_status(ENDED)
                    self._close_quietly()
                    self._stop.wait()
                    return
                except CameraError as exc:
                    self._set_status(LOST, exc)
                    break
                except Exception as exc:
                    self._set_status(LOST, CameraLostError(str(exc)))
                    break
                bad = 0
                delay = self.backoff[0]
                image, gray = got if isinstance(got, tuple) else (got, None)
                self._number += 1
                with self._cond:
                    self._frame = Frame(image, self._number, time.monotonic(), gray)
                    self._cond.notify_all()
                self._set_status(RUNNING)
                if self._still_wanted.is_set():
                    self._take_still()
                if self.interval:
                    next_at += self.interval
                    while not self._still_wanted.is_set() and not self._stop.is_set():
                        left = next_at - time.monotonic()
                        if left <= 0:
                            break
                        self._wake.wait(left)
                        self._wake.clear()
            self._close_quietly()
            if not self._stop.is_set():
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _take_still(self) -> None:
        self._still_wanted.clear()
        darker, scale = self._darker, self._exposure_scale
        what = "darker frame" if darker else "still"
        try:
            if darker:
                got = self._grab_darker(scale)
            else:
                got = self._grab_still(exposure_scale=scale) if scale != 1.0 else self._grab_still()
            image, gray = got if isinstance(got, tuple) else (got, None)
            if image is None or image.size == 0:
                raise BadFrameError(f"the {self.name} camera gave an empty {what}")
            self._number += 1
            result: Frame | CameraError = Frame(image, self._number, time.monotonic(), gray if darker else None,
                                                not darker)
        except CameraError as exc:
            result = exc
        except Exception as exc:  # a driver raising something unexpected: the caller is told
            result = CameraLostError(f"{what}: {exc}")
        with self._cond:
            self._still = result
            self._cond.notify_all()

    def _close_quietly(self) -> None:
        try:
            self._close()
        except Exception:
            pass

    # -- for subclasses -------------------------------------------------------------

    def _open(self) -> None:
        pass

    def _grab(self):
        raise NotImplementedError

    def _grab_still(self):
        """One full-resolution picture; a source without a still mode: its next frame."""
        return self._grab()

    def _grab_darker(self, exposure_scale: float):
        """One video frame at ``exposure_scale`` times the automatic exposure (only called
        where ``supports_exposure``)."""
        raise NotImplementedError

    def _close(self) -> None:
        pass


