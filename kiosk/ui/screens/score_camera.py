"""Score by camera: the CameraService's preview and what the session has read.

The reading itself (merged cards, evidence photo) is the session's ``CameraScoring``; this
screen draws the latest read on each frame on the capture thread and hands it to its
preview widget (kiosk/ui/preview.py). It shows the session's draft, which it observes.

Stills: when the pile settles, or on SCAN, the camera service takes one full-resolution
still (with the light on at its set brightness) and reads it on its own thread; what the
still's set-up check found (camera too high, out of focus, a card in glare), the places where
a card may lie unread under the lamp's reflection (``ReadResult.asked``, circled in yellow on
the preview) and the squares seen but not read (circled in magenta) are said here, so the
player moves just that card.
"""

from __future__ import annotations

from kivy.logger import Logger
from kivy.properties import ListProperty, StringProperty

from kiosk.table.camera import CameraScoring
from kiosk.ui.i18n import N_, _, ngettext, tally
from kiosk.table import Draft
from kiosk.ui.preview import shrink
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.cards import CardPicker

load_kv(__file__)
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


class ScoreCameraScreen(KioskScreen):
    status = StringProperty("")
    count = StringProperty("")
    complete = StringProperty("")
    guidance = StringProperty("")  # what the last still asks of the player
    team = StringProperty("A")
    name_a = StringProperty("")
    name_b = StringProperty("")
    cards = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.scoring: CameraScoring | None = None

    @property
    def service(self):
        return self.scoring.service if self.scoring is not None else None

    # ------------------------------------------------------------------ lifecycle
    def refresh(self) -> None:
        state = self.session.state
        draft = state.draft or Draft(step=self.name)
        names = state.team_names
        self.name_a, self.name_b = names["A"], names["B"]
        self.team = draft.team if draft.pile_owner_chosen else ""  # no pair lit until chosen
        self.cards = list(draft.cards)
        self._update()

    def on_enter(self, *args):
        self.app.hardware.camera_light(True)
        self.start_camera()

    def on_leave(self, *args):
        self.stop_camera()
        self.app.hardware.camera_light(False)

    def start_camera(self) -> None:
        if self.scoring is not None:
            return
        factory = self.app.camera_factory
        if factory is None:
            self.status = _("No camera here: score with Cards or Points")
            return
        scoring = CameraScoring(self.session, evidence_dir=getattr(self.app, "evidence_dir", None),
                                to_ui=self.app.to_ui, on_read=self._ticks, on_still=self._show_still,
                                on_result=self._on_result)
        self.guidance = ""
        try:
            service = factory(on_frame=self._on_frame, on_cards=scoring.on_cards,
                              on_status=self.app.to_ui(self._show_status),
                              on_still=scoring.on_still, light=self._still_light)
            scoring.attach(service)
            self.scoring = scoring
            service.start()
        except Exception as exc:  # no camera: say so, the other paths keep working
            Logger.exception("kiosk: camera failed to start")
            self.scoring = None
            self.status = _("The camera is not working: score with Cards or Points") + f" ({exc})"
            return
        self.status = _("Spread the pile under the camera")
        self.ids.preview.start()

    def stop_camera(self) -> None:
        self.ids.preview.stop()
        scoring, self.scoring = self.scoring, None
        if scoring is not None:
            scoring.stop()
        self.app.hardware.camera_fault(False)

    # ------------------------------------------------------------------ capture thread
    def _on_frame(self, frame) -> None:
        """Capture thread: shrink for the preview, then overlay the latest read on the small
        image (never on the UI thread; no full-size copy is made or kept)."""
        image = getattr(frame, "image", frame)
        full_w, full_h = image.shape[1], image.shape[0]
        image = shrink(image)
        scoring = self.scoring
        result = scoring.result if scoring is not None else None
        size = getattr(result, "image_size", None)
        # a read of this frame, or of a still of the same view (same shape, more pixels)
        if result is not None and size and size[0] and abs(size[1] / size[0] - full_h / full_w) < 0.01:
            if image.shape[1] != size[0]:
                result = result.scaled(image.shape[1] / size[0])
            image = result.annotate(image, show_rejected=False)
        self.ids.preview.keep(image)

    def _show_status(self, status) -> None:
        status = str(status)
        self.status = _(STATUS_TEXT[status]) if status in STATUS_TEXT else status
        error = getattr(getattr(self.service, "source", None), "error", None)
        if status == "fault" and error is not None:  # the reason, as the import gave it
            self.status += f" ({error})"
        self.app.hardware.camera_fault(status == "fault")

    def _still_light(self, on: bool) -> None:
        """Still thread: the light at its set brightness for the still; it stays on after,
        as it is while this screen shows."""
        if on:
            self.app.hardware.camera_light(True)

    # ------------------------------------------------------------------ UI thread
    def _show_still(self, read) -> None:
        """What a still read asks of the player: the set-up check's findings, then the
        squares seen but not read (circled on the preview)."""
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

    _on_result = None  # UI thread: each result the reader reports (a screen that shows them)

    def _ticks(self, n: int) -> None:
        for _i in range(n):
            self.app.hardware.feedback("tick")

    def set_team(self, team: str) -> None:
        self.session.update_draft(team=team)

    def _picker(self) -> CardPicker:
        return CardPicker(self.team or "A", self.cards)

    def _update(self) -> None:
        p = self._picker()
        self.count = tally(cards=len(p.selected), card_points=p.card_points, tricks=p.tricks, total=p.points)
        # The read is complete when the pile is whole tricks: say so, the table presses OK;
        # before a pair is chosen, OK would only ask for it: say that first.
        whole = bool(self.cards) and not p.problem
        self.complete = ("" if not whole else _("Read complete: press OK") if self.team
                         else _("Read complete: tap whose pile it is"))

    def restart_pile(self) -> None:
        """Start reading the pile again from nothing."""
        if self.scoring is not None:
            self.scoring.restart()
        else:
            self.session.update_draft(cards=(), source="camera")

    def correct(self) -> None:
        """Open the card grid with what was read, to fix it card by card."""
        evidence = self.scoring.evidence if self.scoring is not None else None
        self.app.act(self.session.begin_score, "cards", team=self.team or None, cards=list(self.cards),
                     source="camera", evidence=evidence)

    def done(self) -> None:
        if not self.team:
            self.app.show_message(_("Whose pile is it? Tap the pair first."))
            return
        p = self._picker()
        if p.problem:
            self.app.show_message(p.problem)
            return
        evidence = self.scoring.evidence if self.scoring is not None else None
        self.app.act(self.session.propose, p.result(source="camera", evidence=evidence))

    def on_scan_button(self):
        """SCAN: a full-resolution still of the pile now; without stills, as OK."""
        if self.scoring is None or not self.scoring.request_still():
            self.done()
        return True

    def on_confirm_button(self):
        self.done()
        return True
