"""Scoring a pile by camera for a table session: the reads, the merged cards and the
evidence photo belong to the session, not to a screen.

The camera service (a :class:`vision.camera.CameraService`) calls ``on_cards`` with a
:class:`vision.camera.CardsRead` on its reading thread, and ``on_still`` on its still thread
when the pile settled (or SCAN) and a full-resolution still was read. The
evidence photo is encoded and written there (never on the UI thread); the new cards are
handed to the session through ``to_ui`` (the one hand-off to the UI loop, ``hardware.bridge.call_on``),
so the session is only ever changed from one thread.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from kiosk.files import write_whole
from kiosk.game import Card

if TYPE_CHECKING:
    from vision.camera import CameraService, CardsRead
    from vision.deck.tracker import DealEvent
    from vision.result import ReadResult
    from vision.still import StillRead

log = logging.getLogger("kiosk.table")


class CameraScoring:
    """One camera read of one hand's pile for ``session``.

    Args:
        session: the :class:`kiosk.table.TableSession` whose draft receives the cards.
        evidence_dir: where the photo of the read is kept (None: no photo).
        to_ui: wraps a callback so that calling it runs it on the session's thread.
        on_read: called on that thread with the number of new cards (the tick cue).
        on_still: called on that thread with each still read (``vision.still.StillRead``:
            its set-up check and the squares seen but not read, for the screen to say).
        on_result: called on that thread with each deal-through event, after its cards
            (``CardsRead.deal``, a ``vision.deck.tracker.DealEvent``: the asks, "ja comptada"
            and the cards lifted off again, which the screen shows).

    Example::

        scoring = CameraScoring(session, evidence_dir=None, to_ui=lambda f: f)
        service = factory(on_frame=show, on_cards=scoring.on_cards, on_status=status)
        scoring.attach(service)
    """

    def __init__(self, session, *, evidence_dir: Path | None,
                 to_ui: Callable[[Callable[..., Any]], Callable[..., None]],
                 on_read: Callable[[int], None] | None = None,
                 on_still: Callable[[StillRead], None] | None = None,
                 on_result: Callable[[DealEvent], None] | None = None) -> None:
        self.session = session
        self.service: CameraService | None = None
        self.result: ReadResult | None = None  # the latest sticker read (the preview draws it)
        self.still_glare: tuple = ()  # squares the last still left in glare
        self.on_read = on_read
        state = session.state
        self.evidence_path = (Path(evidence_dir) / f"match{state.match_id}-hand{state.hand_number}.jpg"
                              if evidence_dir is not None and state.has_match else None)
        self._to_ui = to_ui
        self._add = to_ui(self._add_cards)
        self._result_done = to_ui(on_result) if on_result is not None else None
        self._on_still = on_still
        self._still_done = to_ui(self._still_read)

    def attach(self, service: CameraService) -> None:
        self.service = service

    def on_cards(self, read: CardsRead) -> None:
        """Reading thread: keep the read, save the photo of the frame it was read from
        (not the newest frame: the pile may have moved since), hand the cards over."""
        if read.result is not None:
            self.result = read.result
        self._hand_over(read.codes)
        if self._result_done is not None and read.deal is not None:  # after the cards, same hand-off
            self._result_done(read.deal)

    def on_still(self, read: StillRead, new: list[Card] | tuple[Card, ...] = ()) -> None:
        """Still thread: a full-resolution still was read (``vision.still.StillRead``); its
        result is what the preview draws now (squares seen but not read included)."""
        self.result = read.result
        self.still_glare = tuple(read.glare)
        self._save_evidence(bool(new))
        self._still_done(tuple(card.code for card in new), read)

    def request_still(self) -> bool:
        """SCAN: a still now; False when the camera takes no stills (the caller decides)."""
        return self.service is not None and self.service.request_still()

    def finish_then(self, propose: Callable[[], None]) -> None:
        """The table pressed done: the reader looks once more at the latest frame (a last
        card dealt while the hand lingered is read now), then ``propose`` runs, after what
        that look read: through ``to_ui`` behind its reads when it handed any over, else now."""
        if self.service is not None and self.service.finish():
            self._to_ui(propose)()
        else:
            propose()

    def _hand_over(self, codes: tuple[str, ...]) -> None:
        if not codes:
            return
        self._save_evidence(True)
        self._add(codes)

    def _save_evidence(self, changed: bool) -> None:
        if changed and self.evidence_path is not None and self.service is not None:
            photo = self.service.evidence()
            if photo is not None:
                try:
                    import cv2
                    ok, jpeg = cv2.imencode(".jpg", photo)
                    if ok:  # whole or not at all: a power cut never leaves half a photo
                        write_whole(self.evidence_path, jpeg.tobytes())
                except Exception:  # noqa: BLE001 - the score matters more than the photo
                    log.exception("kiosk: could not save the evidence photo")

    def _add_cards(self, codes: tuple[str, ...]) -> None:
        self.session.add_read_cards(codes)
        if self.on_read is not None:
            self.on_read(len(codes))

    def _still_read(self, codes: tuple[str, ...], read) -> None:
        if codes:
            self._add_cards(codes)
        if self._on_still is not None:
            self._on_still(read)

    def restart(self) -> None:
        """Read the pile again from nothing."""
        if self.service is not None:
            self.service.reset()
        self.session.update_draft(cards=(), source="camera")

    @property
    def evidence(self) -> str | None:
        """The photo's path once it exists."""
        path = self.evidence_path
        return str(path) if path is not None and path.exists() else None

    def stop(self) -> None:
        service, self.service, self.result = self.service, None, None
        if service is not None:
            service.stop()
