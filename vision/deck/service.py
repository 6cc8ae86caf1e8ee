"""The deal-through reader on its own thread, in the camera service's shape.

``DealService(source, tracker, on_frame=, on_cards=, on_status=)`` takes every new frame
from the source, calls ``on_frame(frame)`` and feeds the tracker; ``on_cards(CardsRead(new,
deal=event))`` comes for every tracker event (``new`` holds the card when one was counted).
It is a :class:`vision.camera.CameraService`. Callbacks run on the service's thread, never
the UI's, but for ``finish()`` ("Fet": the latest frame looked at once more), whose events
come on the caller's thread before it returns.

Under the lamp's reflection the tracker asks for a darker frame (a ``DARKER`` event): where
the source can change its exposure (``supports_exposure``: a Pi camera) the service takes
one with ``capture_darker`` on its own thread, while the card still lies there, and hands it
back (``feed_darker``); a USB camera cannot, and the card is asked to be moved, as the
tracker says without one. The tracker's lock is not held during the camera call: "Treu
l'última" and a new pile never wait for the camera.
"""

from __future__ import annotations

import threading

import numpy as np

from kiosk.game import Card
from vision.camera import CardsRead, OnCards, OnFrame, OnStatus
from vision.deck.darker import DARKER_SCALE, DarkerRequest
from vision.deck.tracker import COUNTED, DARKER, DealEvent, DealTracker
from vision.service import FrameLoop, call_safely, follow_frames, take_darker


class DealService:
    """Feeds a :class:`DealTracker` from a frame source on one thread; ``stop()`` joins it.
    Without a tracker it only hands on frames (learning a deck)."""

    def __init__(self, source, tracker: DealTracker | None, *, on_frame: OnFrame | None = None,
                 on_cards: OnCards | None = None, on_status: OnStatus | None = None) -> None:
        self.source = source
        # a darker frame only where the camera can really take one
        self.darker_scale = DARKER_SCALE if source.supports_exposure else None
        self.darker_frames = 0  # darker frames taken
        self.tracker = tracker
        if tracker is not None:
            tracker.darker_scale = self.darker_scale
        self.on_frame, self.on_cards, self.on_status = on_frame, on_cards, on_status
        self._lock = threading.Lock()
        self._loop = FrameLoop(source, self._run, name="deal-reader")
        self._evidence: np.ndarray | None = None
        self.latest_frame = None

    @property
    def status(self) -> str:
        return self.source.status

    def start(self) -> "DealService":
        self._loop.start()
        return self

    def stop(self) -> None:
        self._loop.stop()

    def reset(self) -> None:
        """A new pile: forget every card counted."""
        with self._lock:
            if self.tracker is not None:
                self.tracker = DealTracker(self.tracker.model, still_frames=self.tracker.still_frames,
                                           darker_scale=self.darker_scale)

    def request_still(self) -> bool:
        """A deal takes no stills: the card is read as it lies."""
        return False

    def finish(self) -> bool:
        """Dealing is declared done ("Fet"): the reader looks once more at the latest frame
        (:meth:`DealTracker.finish`: a last card the dealer's hand lingered by is read now).
        What it finds is handed on through ``on_cards`` before this returns, on the caller's
        thread. True: something was handed on (the caller's next step is to come after it)."""
        with self._lock:
            events = self.tracker.finish() if self.tracker is not None else []
        frame = self.latest_frame
        self._hand_on(events, frame.image if frame is not None else None)
        return bool(events)

    def take_back(self, card: Card | None = None) -> Card | None:
        """"Treu l'última": the last card counted is forgotten (the player lifts it off); with
        ``card``, only if it is still the one on top (:meth:`DealTracker.take_back`)."""
        with self._lock:
            return self.tracker.take_back(card) if self.tracker is not None else None

    def evidence(self, *, problems=()) -> np.ndarray | None:
        """The frame the last card was counted in."""
        return self._evidence

    _call = staticmethod(call_safely)

    def _run(self, stop: threading.Event) -> None:
        for frame in follow_frames(self.source, stop, self.on_status):
            self.latest_frame = frame
            self._call(self.on_frame, frame)
            if self.tracker is None:
                continue
            with self._lock:
                tracker = self.tracker
                got = tracker.feed(frame.image)
            events = [e for e in got if e.kind != DARKER]
            for ask in [e.darker for e in got if e.kind == DARKER]:
                image = self._darker(ask)
                with self._lock:  # (a new pile meanwhile: the old tracker's request is dropped)
                    events += tracker.feed_darker(ask, image) if tracker is self.tracker else []
            self._hand_on(events, frame.image)

    def _hand_on(self, events: list[DealEvent], image: np.ndarray | None) -> None:
        for event in events:
            if event.kind == COUNTED and image is not None:
                self._evidence = image
            self._call(self.on_cards, _read_of(event))

    def _darker(self, ask: DarkerRequest) -> np.ndarray | None:
        got = take_darker(self.source, ask.exposure_scale)
        if got is None:
            return None
        self.darker_frames += 1
        return got.image


def _read_of(event: DealEvent) -> CardsRead:
    """What the kiosk is told of a tracker event: the card, when it was counted now."""
    counted = event.kind == COUNTED and event.card is not None
    return CardsRead((event.card,) if counted else (), deal=event)
