"""The camera service: capture and recognition on their own threads.

::

    source thread (vision.sources) -- grabs from the device, keeps the latest frame
    capture thread   -- takes each new frame, calls on_frame(frame), hands it on
    recognition thread -- reads the newest handed-on frame (downscaled), calls
                          on_cards(CardsRead(new, result=read))

Glare in the live video: where the source can change its exposure (``supports_exposure``)
and a frame's read shows a sticker or the mat burnt out by the lamp's reflection, the
recognition thread takes one darker video frame (``capture_darker``, ``darker_scale`` of the
automatic exposure) and merges its read (``vision.still.add_darker``, the same decision as a
still's): at most one every ``darker_every_s`` seconds, so the video keeps its pace.

With ``on_still``, a :class:`vision.still.StillCapture` runs beside them: when the pile
settles (or on ``request_still()``, the SCAN button) it takes one full-resolution still,
reads it on its own thread and calls ``on_still(still_read, new_cards)``; the still's cards
count at once (``LiveAccumulator.add_sure``), so a card already ticked live is not new.

The hand-off is "latest wins" through a Condition: when recognition is slower than the
camera, frames it has not started are replaced, so the preview never waits for it.

**Callbacks run on those threads, never on the UI thread.** A Kivy screen must hop back
with ``Clock.schedule_once(lambda dt: ..., 0)`` and must not touch widgets inside the
callback. ``on_status(status)`` comes from the capture thread whenever the source's status
changes (``vision.sources.RUNNING``, ``NO_CAMERA``...; the kiosk says each). A callback that raises
is logged and the threads go on.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Iterator

import cv2

from vision.camera import CardsRead, OnCards
from vision.errors import CameraError
from kiosk.game import Card
from vision.reader import LiveAccumulator, PileReader, ReadResult
from vision.sources import Frame, FrameSource, release_freed_memory
from vision.still import StillCapture, StillRead, add_darker

EVIDENCE_WIDTH = 1920  # a 12 MP still is kept as a photo no bigger than a video frame

log = logging.getLogger(__name__)


def call_safely(fn: Callable | None, *args) -> None:
    """Call a consumer's callback on a camera thread; a bad callback must not end the thread."""
    if fn is None:
        return
    try:
        fn(*args)
    except Exception:
        log.exception("camera callback %r failed", fn)


def take_darker(source: FrameSource, exposure_scale: float) -> Frame | None:
    """One darker frame of ``source`` (``FrameSource.capture_darker``) for a reader under
    glare; None where the source cannot, or when taking it failed (logged: the status line
    tells a lost camera, and the read goes on without it)."""
    try:
        return source.capture_darker(exposure_scale)
    except CameraError as exc:
        log.warning("darker frame not taken: %s", exc)
        return None


def follow_frames(source: FrameSource, stop: threading.Event,
                  on_status: Callable[[str], None] | None) -> Iterator[Frame]:
    """Each new frame of ``source`` until ``stop`` is set, telling ``on_status`` every change of
    the source's status on the way (the capture loop of every camera service)."""
    last = 0
    status = None
    while not stop.is_set():
        frame = source.latest(0.2, after=last)
        now = source.status
        if now != status:
            status = now
            call_safely(on_status, now)
        if frame is None or stop.is_set():
            continue
        last = frame.number
        yield frame


class FrameLoop:
    """One reading thread over ``source``: :meth:`start` starts the source, then the thread,
    which runs ``run(stop)`` (a loop over :func:`follow_frames` until ``stop`` is set);
    :meth:`stop` sets ``stop``, stops the source and joins the thread, in that order. The
    loop of the deal and trick services (one thread each)."""

    def __init__(self, source: FrameSource, run: Callable[[threading.Event], None], *, name: str) -> None:
        self.source, self._run, self.name = source, run, name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self.source.start()
            self._thread = threading.Thread(target=self._run, args=(self._stop,), name=self.name, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        try:
            self.source.stop()
        finally:
            if self._thread is not None:
                self._thread.join()
                self._thread = None


class StickerService:
    """``StickerService(source, reader, *, on_frame=None, on_cards=None, on_status=None)``:
    the :class:`vision.camera.CameraService` of marked cards (a pile spread out, read whole).

    ``recognition_width``: frames wider than this are downscaled before reading (results
    are scaled back to the frame's pixels). Keep stickers >= 2 px/mm after downscaling.
    ``accumulator``: a :class:`LiveAccumulator` (one is made if not given); ``reset()``
    starts a new pile. ``on_still(read: StillRead, new_cards)``: stills are taken (see the
    module's doc); ``light(on)`` is called around each still by the light's owner.
    """

    def __init__(self, source: FrameSource, reader: PileReader, *,
                 on_frame: Callable[[Frame], None] | None = None,
                 on_cards: OnCards | None = None,
                 on_status: Callable[[str], None] | None = None,
                 accumulator: LiveAccumulator | None = None,
                 recognition_width: int = 1920,
                 on_still: Callable[[StillRead, list[Card]], None] | None = None,
                 light: Callable[[bool], None] | None = None,
                 darker_scale: float = 0.4, darker_every_s: float = 1.0):
        self.source = source
        self.reader = reader
        self.on_frame, self.on_cards, self.on_status = on_frame, on_cards, on_status
        self.accumulator = accumulator if accumulator is not None else LiveAccumulator()
        self.recognition_width = int(recognition_width)
        self._cond = threading.Condition()
        self._pending: Frame | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._acc_lock = threading.Lock()
        self.latest_frame: Frame | None = None
        self.latest_result: ReadResult | None = None
        self.latest_read: tuple[Frame, ReadResult] | None = None  # a result and its own frame
        self.frames = 0  # frames delivered to on_frame
        self.reads = 0  # frames recognised
        self.darker_scale, self.darker_every_s = float(darker_scale), float(darker_every_s)
        self.darker_frames = 0  # darker frames read because of glare
        self._next_darker = 0.0
        self.on_still = on_still
        self.latest_still: StillRead | None = None  # since the last reset()
        # the still thread gets its own reader: a detector's parameters change with the image
        # size, and the video thread reads at the same time
        self.still_capture = (StillCapture(source, PileReader(reader.marks, sticker_mm=reader.sticker_mm,
                                                              detect_width=reader.detect_width),
                                           on_still=self._still_read, light=light)
                              if on_still is not None else None)

    @property
    def status(self) -> str:
        return self.source.status

    def start(self) -> "StickerService":
        if self._threads:
            return self
        self._stop.clear()
        self.source.start()
        self._threads = [threading.Thread(target=self._capture, name="camera-capture", daemon=True),
                         threading.Thread(target=self._recognise, name="camera-recognition", daemon=True)]
        for t in self._threads:
            t.start()
        if self.still_capture is not None:
            self.still_capture.start()
        return self

    def stop(self) -> None:
        """Stop both threads (joined) and the source."""
        self._stop.set()
        if self.still_capture is not None:
            self.still_capture.stop()
        with self._cond:
            self._cond.notify_all()
        for t in self._threads:
            t.join()
        self._threads = []
        self.source.stop()
        with self._cond:
            self._pending = None
        release_freed_memory()

    def reset(self) -> None:
        """Start counting a new pile."""
        with self._acc_lock:
            self.accumulator.reset()
            self.latest_still = None

    def request_still(self) -> bool:
        """SCAN: take a still now. False when this service takes no stills."""
        if self.still_capture is None:
            return False
        self.still_capture.request()
        return True

    def finish(self) -> bool:
        """The pile is done: nothing is left to look at (each frame is read whole)."""
        return False

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- threads ------------------------------------------------------------------------

    _call = staticmethod(call_safely)

    def _capture(self) -> None:
        for frame in follow_frames(self.source, self._stop, self.on_status):
            self.latest_frame = frame
            self.frames += 1
            self._call(self.on_frame, frame)
            with self._cond:
                self._pending = frame
                self._cond.notify()

    def _recognise(self) -> None:
        while not self._stop.is_set():
            with self._cond:
                while self._pending is None and not self._stop.is_set():
                    self._cond.wait()
                if self._stop.is_set():
                    return
                frame, self._pending = self._pending, None
            try:
                result = self.read_frame(frame)
                if self.source.supports_exposure and frame.time >= self._next_darker:
                    result = self._with_darker(frame, result)
            except Exception:
                log.exception("reading frame %d failed", frame.number)
                continue
            with self._acc_lock:
                new = self.accumulator.add(result)
            self.latest_result = result
            self.latest_read = (frame, result)
            self.reads += 1
            self._call(self.on_cards, CardsRead(tuple(new), result=result))

    def _with_darker(self, frame: Frame, result: ReadResult) -> ReadResult:
        def darker_read():
            self._next_darker = frame.time + self.darker_every_s  # taken or failed: not on every frame
            second = take_darker(self.source, self.darker_scale)
            return None if second is None else (second.image, self.read_frame(second))

        readout = add_darker(frame.image, result, darker_read, glare_after=False)
        self.darker_frames += readout.darker
        return readout.result

    def _still_read(self, read: StillRead) -> None:
        with self._acc_lock:
            new = self.accumulator.add_sure(read.result.cards)
            self.latest_still = read
        self._call(self.on_still, read, new)

    def evidence(self, *, problems=()):
        """The last still read (else the last recognised frame) with what was read drawn on
        it (BGR, at most ``EVIDENCE_WIDTH`` wide), or None: the photo to keep with the hand.
        ``problems``: failed checks to draw in red."""
        still = self.latest_still
        if still is not None:
            image, result = still.frame.image, still.result
        elif self.latest_read is not None:
            frame, result = self.latest_read
            image = frame.image
        else:
            return None
        w = image.shape[1]
        if w > EVIDENCE_WIDTH:
            f = EVIDENCE_WIDTH / w
            image = cv2.resize(image, (EVIDENCE_WIDTH, int(round(image.shape[0] * f))), interpolation=cv2.INTER_AREA)
            result = result.scaled(f)
        return result.annotate(image, problems=problems)

    def read_frame(self, frame: Frame) -> ReadResult:
        """Read one frame as the recognition thread does (downscaled, result in the frame's
        pixels). Safe to call from any thread that is not the UI thread."""
        img = frame.gray if frame.gray is not None else frame.image
        h, w = img.shape[:2]
        factor = 1.0
        if w > self.recognition_width:
            factor = self.recognition_width / w
            img = cv2.resize(img, (self.recognition_width, int(round(h * factor))), interpolation=cv2.INTER_AREA)
        result = self.reader.read(img)
        full_w = frame.image.shape[1]
        scale = full_w / img.shape[1]
        return result.scaled(scale) if abs(scale - 1) > 1e-6 else result
