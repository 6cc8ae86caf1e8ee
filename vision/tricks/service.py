"""The trick reader on its own thread, in the camera service's shape.

``TrickService(source, reader, on_frame=, on_events=, on_status=)`` takes every new frame
from the source, calls ``on_frame(frame)`` and feeds the :class:`TrickReader`;
``on_events(events)`` comes with the reader's events of each frame that had some (cards
named at their seats, asks). Callbacks run on the service's thread, never the UI's.

The service never queues frames: the source keeps its newest frame only, so a busy machine
reads fewer frames, never stale ones. Nor does it guess across the frames it missed: a gap
in the frames' numbers is told to the reader (:meth:`TrickReader.lost`), which asks about
the cards that may have come and gone unseen.

The table's side reaches the reader under the service's lock: :meth:`answer` (a card asked
about, named by the table) and :meth:`follow` (the hand as the journal has it, after an undo
or a correction), so the reader never runs ahead of, or behind, the hand recorded.
"""

from __future__ import annotations

import threading
from typing import Callable

from kiosk.game.cards import Card
from kiosk.game.handrecord import HandInPlay
from vision.service import FrameLoop, call_safely, follow_frames
from vision.tricks.events import TrickEvent
from vision.tricks.reader import TrickReader


class TrickService:
    """Feeds a :class:`TrickReader` from a frame source on one thread; ``stop()`` joins it."""

    def __init__(self, source, reader: TrickReader, *, on_frame: Callable | None = None,
                 on_events: Callable[[list[TrickEvent]], None] | None = None,
                 on_status: Callable[[str], None] | None = None) -> None:
        self.source, self.reader = source, reader
        self.on_frame, self.on_events, self.on_status = on_frame, on_events, on_status
        self._lock = threading.Lock()
        self._loop = FrameLoop(source, self._run, name="trick-reader")
        self.frames = 0
        self.dropped = 0  # frames the source had that the reader never saw

    @property
    def status(self) -> str:
        return self.source.status

    def start(self) -> "TrickService":
        self._loop.start()
        return self

    def stop(self) -> None:
        self._loop.stop()

    def answer(self, seat: int, card: Card) -> bool:
        """The table names the card asked about at ``seat``; its play comes as an event.
        False when the reader has no card waiting there (the caller records it itself)."""
        with self._lock:
            try:
                events = self.reader.answer(seat, card)
            except ValueError:
                return False
        call_safely(self.on_events, events)
        return True

    def follow(self, hand: HandInPlay) -> None:
        """The hand as recorded: when it is not where the reader's hand came from (an undo, a
        correction, a card named by touch), the reader goes on from it."""
        with self._lock:
            ahead = self.reader.hand.events
            if ahead[:len(hand.events)] != hand.events or self.reader.hand.trump != hand.trump:
                self.reader.hands = [hand]

    def _run(self, stop: threading.Event) -> None:
        last = None
        for frame in follow_frames(self.source, stop, self.on_status):
            self.frames += 1
            call_safely(self.on_frame, frame)
            with self._lock:
                events = []
                if last is not None and frame.number > last.number + 1:
                    self.dropped += frame.number - last.number - 1
                    events += self.reader.lost(frame.time - last.time)
                events += self.reader.feed(frame.image)
            last = frame
            if events:
                call_safely(self.on_events, events)
