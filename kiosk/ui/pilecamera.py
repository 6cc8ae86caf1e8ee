"""One hand's pile read by the camera, as a screen shows it: an object the camera screen
and the deal screen each own (composition: neither is the other's base).

The reading itself (merged cards, evidence photo) is the session's ``CameraScoring``
(kiosk/table/camera.py); this object starts and stops it with the screen, draws the
latest read on each frame on the capture thread for the preview widget
(kiosk/ui/preview.py), says the camera's status and what a still asks, and holds what the
session's draft says of the pile (the pair whose pile it is, the cards, their tally).

Stills: when the pile settles, or on SCAN, the camera service takes one full-resolution
still (with the light on at its set brightness) and reads it on its own thread; what the
still's set-up check found (camera too high, out of focus, a card in glare), the places where
a card may lie unread under the lamp's reflection (``ReadResult.asked``, circled in yellow on
the preview) and the squares seen but not read (circled in magenta) are said in
``guidance``, so the player moves just that card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from kivy.event import EventDispatcher
from kivy.logger import Logger
from kivy.properties import ListProperty, StringProperty

from kiosk.table.camera import CameraScoring
from kiosk.ui.i18n import N_, _, ngettext, shown_names, tally
from kiosk.ui.preview import CameraPreview, shrink
from kiosk.ui.viewmodels.cards import CardPicker

if TYPE_CHECKING:
    from vision.camera import CameraService
    from vision.deck.tracker import DealEvent
    from vision.still import StillRead

STATUS_TEXT = {
    "starting": N_("Starting the camera…"),
    "running": N_("Spread the pile under the camera"),
    "no_camera": N_("No camera: check the cable. You can type the points instead."),
    "lost": N_("The camera was lost: check the cable. It reconnects by itself."),
    "bad_frame": N_("The camera gives pictures that cannot be read."),
    "ended": N_("The video has ended."),
    "stopped": N_("Camera stopped"),
    "fault": N_("Fault: the Pi camera software cannot be loaded. The installation needs repair."),
}
# what a still's set-up check found (vision.setup_check kinds), in the order to say them
FINDING_TEXT = {
    "no_mat": N_("The mat's corners are not in view: put the whole mat under the camera."),
    "too_high": N_("The camera is too high: the codes are too small. Lower it."),
    "out_of_focus": N_("The picture is out of focus: focus the camera."),
    "glare": N_("A card is in the light's glare: move it a little or turn the lamp."),
}


class PileCamera(EventDispatcher):
    """The pile of the hand being scored, read by the camera while a screen shows it.

    Args:
        session: the :class:`kiosk.table.TableSession` (its draft holds the pile).
        app: the :class:`kiosk.ui.app.KioskApp` (the camera factory, the hand-off to the UI
            loop, the hardware's cues, ``act``).
        running: what ``status`` says while the camera runs (marked with ``N_``).
        on_deal: UI thread: each deal-through event (``vision.deck.tracker.DealEvent``),
            after the cards it counted.

    Example::

        pile = PileCamera(session, app, running=N_("Spread the pile under the camera"))
        pile.start(screen.ids.preview)   # on entering the screen
        pile.stop()                      # on leaving it
    """

    status = StringProperty("")
    count = StringProperty("")
    complete = StringProperty("")
    guidance = StringProperty("")  # what the last still asks of the player
    team = StringProperty("A")
    name_a = StringProperty("")
    name_b = StringProperty("")
    cards = ListProperty([])

    def __init__(self, session, app, *, running: str,
                 on_deal: Callable[[DealEvent], None] | None = None) -> None:
        super().__init__()
        self.session, self.app = session, app
        self.running = running
        self.on_deal = on_deal
        self.scoring: CameraScoring | None = None
        self._preview: CameraPreview | None = None
        self._status_words: Callable[[], str] | None = None  # what ``status`` says, in any language

    @property
    def service(self) -> CameraService | None:
        return self.scoring.service if self.scoring is not None else None

    # ------------------------------------------------------------------ the session's draft
    def refresh(self) -> None:
        state = self.session.state
        draft = state.draft
        names = shown_names(state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        # no pair lit until chosen
        self.team = draft.team if state.pile_owner_chosen else ""
        self.cards = list(draft.cards) if draft is not None else []
        self.update()
        if self._status_words is not None:  # in the language of the moment (it may have changed)
            self.status = self._status_words()

    def picker(self) -> CardPicker:
        return CardPicker(self.team or "A", self.cards)

    def update(self) -> None:
        p = self.picker()
        self.count = tally(cards=len(p.selected), card_points=p.card_points, tricks=p.tricks, total=p.points)
        # The read is complete when the pile is whole tricks: say so, the table presses OK;
        # before a pair is chosen, OK would only ask for it: say that first.
        whole = bool(self.cards) and not p.problem
        self.complete = ("" if not whole else _("Read complete: press OK") if self.team
                         else _("Read complete: tap whose pile it is"))

    def remove(self, code: str) -> None:
        """Forget one card of the pile (lifted off it again)."""
        self.cards = [c for c in self.cards if c != code]
        self.session.update_draft(team=self.team, cards=list(self.cards), source="camera")
        self.update()

    # ------------------------------------------------------------------ camera
    def start(self, preview: CameraPreview) -> None:
        """The screen is shown: the preview runs (the camera light on) and the camera reads."""
        self._preview = preview
        preview.start()
        if self.scoring is not None:
            return
        factory = self.app.camera_factory
        if factory is None:
            self._say_status(lambda: _("No camera here: score with Cards or Points"))
            return
        scoring = CameraScoring(self.session, evidence_dir=self.app.evidence_dir,
                                to_ui=self.app.to_ui, on_read=self._ticks, on_still=self._show_still,
                                on_result=self.on_deal)
        self.guidance = ""
        try:
            service = factory(on_frame=self._on_frame, on_cards=scoring.on_cards,
                              on_status=self.app.to_ui(self.show_status),
                              on_still=scoring.on_still, light=self._still_light)
            scoring.attach(service)
            self.scoring = scoring
            service.start()
        except Exception as exc:  # no camera: say so, the other paths keep working
            Logger.exception("kiosk: camera failed to start")
            self.scoring = None
            reason = f" ({exc})"  # (``exc`` itself is gone after this block; the words are said again later)
            self._say_status(lambda: _("The camera is not working: score with Cards or Points") + reason)
            return
        self._say_status(lambda: _(self.running))

    def stop(self) -> None:
        """The screen is left (or the app stops): the camera, then the preview and its light."""
        scoring, self.scoring = self.scoring, None
        if scoring is not None:
            scoring.stop()
        if self._preview is not None:
            self._preview.stop()
        self.app.hardware.camera_fault(False)

    def _on_frame(self, frame) -> None:
        """Capture thread: shrink for the preview, then overlay the latest read on the small
        image (never on the UI thread; no full-size copy is made or kept)."""
        image = getattr(frame, "image", frame)
        full_w, full_h = image.shape[1], image.shape[0]
        image = shrink(image)
        scoring, preview = self.scoring, self._preview
        result = scoring.result if scoring is not None else None
        size = getattr(result, "image_size", None)
        # a read of this frame, or of a still of the same view (same shape, more pixels)
        if result is not None and size and size[0] and abs(size[1] / size[0] - full_h / full_w) < 0.01:
            if image.shape[1] != size[0]:
                result = result.scaled(image.shape[1] / size[0])
            image = result.annotate(image, show_rejected=False)
        if preview is not None:
            preview.keep(image)

    def _say_status(self, words: Callable[[], str]) -> None:
        """``status`` from ``words()``, kept to be said again when the language changes."""
        self._status_words = words
        self.status = words()

    def show_status(self, status) -> None:
        """The camera service's status (``on_status``, handed to the UI thread), in words."""
        status = str(status)
        error = getattr(getattr(self.service, "source", None), "error", None)
        reason = f" ({error})" if status == "fault" and error is not None else ""  # as the import gave it
        if status == "running":
            self._say_status(lambda: _(self.running))
        else:
            self._say_status(lambda: (_(STATUS_TEXT[status]) if status in STATUS_TEXT else status) + reason)
        self.app.hardware.camera_fault(status == "fault")

    def _still_light(self, on: bool) -> None:
        """Still thread: the light at its set brightness for the still; it stays on after,
        as it is while the screen shows."""
        if on:
            self.app.hardware.camera_light(True)

    def _show_still(self, read: StillRead) -> None:
        """UI thread: what a still read asks of the player: the set-up check's findings,
        then the squares seen but not read (circled on the preview)."""
        kinds = {f.kind for f in getattr(read.setup, "findings", ())}
        asked = len(read.result.asked)
        if asked:  # said card by card below, circled on the preview
            kinds.discard("glare")
        lines = [_(text) for kind, text in FINDING_TEXT.items() if kind in kinds]
        unread = len(read.result.unread)
        if asked:
            lines.append(ngettext("{n} card under the lamp's reflection cannot be read: move the circled card "
                                  "until it no longer shines",
                                  "{n} cards under the lamp's reflection cannot be read: move the circled cards "
                                  "until they no longer shine", asked).format(n=asked))
        elif unread:
            lines.append(ngettext("{n} card seen but not read: move the circled card a little",
                                  "{n} cards seen but not read: move the circled cards a little",
                                  unread).format(n=unread))
        self.guidance = "\n".join(lines)

    def _ticks(self, n: int) -> None:
        for _i in range(n):
            self.app.hardware.feedback("tick")

    # ------------------------------------------------------------------ the table's taps
    def set_team(self, team: str) -> None:
        self.session.update_draft(team=team)

    def restart(self) -> None:
        """Start reading the pile again from nothing."""
        if self.scoring is not None:
            self.scoring.restart()
        else:
            self.session.update_draft(cards=(), source="camera")

    def correct(self) -> None:
        """Open the card grid with what was read, to fix it card by card."""
        self.app.act(self.session.begin_score, "cards", team=self.team or None, cards=list(self.cards),
                     source="camera", evidence=self.evidence)

    @property
    def evidence(self) -> str | None:
        """The photo of this read once it exists (None without a camera reading)."""
        return self.scoring.evidence if self.scoring is not None else None

    def finish_then(self, propose: Callable[[], None]) -> None:
        """OK: the reader looks at the pile once more (a last card dealt while the hand
        lingered is read now), then ``propose`` runs, after what that look read; at once
        without a camera reading (``CameraScoring.finish_then``)."""
        if self.scoring is not None:
            self.scoring.finish_then(propose)
        else:
            propose()

    def done(self) -> None:
        """OK: the pile is proposed after the reader's last look."""
        self.finish_then(self._propose_read)

    def _propose_read(self) -> None:
        self.refresh()  # (the session's draft, with what the last look read)
        self._propose()

    def _propose(self) -> None:
        if not self.team:
            self.app.show_message(_("Whose pile is it? Tap the pair first."))
            return
        p = self.picker()
        if p.problem:
            self.app.show_message(p.problem)
            return
        self.app.act(self.session.propose, p.result(source="camera", evidence=self.evidence))

    def scan(self) -> bool:
        """SCAN: a full-resolution still of the pile now; without stills, as OK. True: the
        button was answered here."""
        if self.scoring is None or not self.scoring.request_still():
            self.done()
        return True
