"""The trick camera's reads handed to the table session (trick mode).

The trick reader (:class:`vision.tricks.TrickReader`, on the recognition thread) says what
happened in each frame: a card named at its seat (``TrickPlay``) or a card it cannot name,
or names as one already played (``TrickAsk``). :meth:`TrickFeed.on_events` runs on that
thread and hands the events to the UI loop through ``to_ui`` (the app's one hand-off, as
:class:`kiosk.table.camera.CameraScoring` does for piles); there each card becomes
``session.trick_play.play_card`` (one journal event) and each ask is kept, by seat, for the trick
screen to ask again at that seat. A card the core refuses (already played) is asked too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from kiosk.game import BotifarraError, Card

log = logging.getLogger("kiosk.table")


@dataclass(frozen=True)
class SeatAsk:
    """A card at ``seat`` to show again or name: ``reason`` "unnamed" (the camera cannot
    name it), "played" (``card``, already played: a misread, or a card picked up again) or
    "taken" (its trick was taken off before the camera saw it lying still: name it)."""
    seat: int
    trick: int
    reason: str
    card: str | None = None


class TrickFeed:
    """The reads of one hand's trick camera into ``session``.

    ``on_change()`` runs on the UI thread after each batch (the screen redraws the asks).

    Example::

        feed = TrickFeed(session, to_ui=app.to_ui)
        service = TrickService(source, reader, on_events=feed.on_events)
    """

    def __init__(self, session, *, to_ui: Callable[[Callable[..., Any]], Callable[..., None]],
                 on_change: Callable[[], None] | None = None) -> None:
        self.session = session
        self.asks: dict[int, SeatAsk] = {}
        self.on_change = on_change
        self.service = None  # the trick camera (vision.tricks.TrickService), once attached
        self._deliver = to_ui(self._apply)

    def on_events(self, events: Iterable) -> None:
        """Recognition thread: the reader's events of one frame, handed over as they are."""
        events = tuple(events)
        if events:
            self._deliver(events)

    def _apply(self, events: tuple) -> None:
        for event in events:
            card = getattr(event, "card", None)
            code = card.code if card is not None else None
            if getattr(event, "reason", None) is not None:  # a TrickAsk
                self.asks[event.seat] = SeatAsk(event.seat, event.trick, event.reason, code)
                continue
            self.play(event.seat, code, trick=event.trick)
        if self.on_change is not None:
            self.on_change()

    def play(self, seat: int, code: str, *, trick: int | None = None) -> bool:
        """A card at ``seat``, read or named by the table; refused (asked) when the core
        says it cannot be (already played)."""
        try:
            result = self.session.trick_play.play_card(seat, code, trick=trick)
        except BotifarraError as exc:
            log.info("kiosk: trick camera: %s refused at seat %s: %s", code, seat, exc)
            number = trick or (self.session.state.tricks.number if self.session.state.tricks else 1)
            self.asks[seat] = SeatAsk(seat, number, "played", code)
            return False
        if result.saved:
            self.asks.pop(seat, None)
        return result.saved

    def attach(self, service) -> None:
        self.service = service

    def follow(self) -> None:
        """UI thread, after each change: the camera reads on from the hand as recorded."""
        hand = self.session.trick_play.hand_in_play()
        if self.service is not None and hand is not None:
            self.service.follow(hand)

    def answer(self, seat: int, code: str) -> bool:
        """The table names the card asked about at ``seat``: through the camera's reader when
        a card waits there (its play comes back as an event), else recorded at once."""
        if self.service is not None and self.service.answer(seat, Card.parse(code)):
            self.asks.pop(seat, None)
            return True
        ok = self.play(seat, code)
        if self.on_change is not None:
            self.on_change()
        return ok
