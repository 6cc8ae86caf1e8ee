"""Score by camera: hosts the CameraService preview and what it has read.

The service's capture and recognition threads call back on their own threads; this screen
only keeps the latest frame reference (no decoding here) and a Clock event blits it into a
texture on the UI thread. Cards read reach the UI through ``Clock.schedule_once``.
"""

from __future__ import annotations


import threading
from pathlib import Path

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.logger import Logger
from kivy.properties import ListProperty, ObjectProperty, StringProperty

from kiosk.files import write_whole
from kiosk.game import Card
from kiosk.ui.i18n import N_, _
from kiosk.table import Draft
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.cards import CardPicker

load_kv(__file__)
PREVIEW_WIDTH = 960
STATUS_TEXT = {
    "starting": N_("Starting the camera…"),
    "running": N_("Spread the pile under the camera"),
    "no_camera": N_("No camera: check the cable. You can type the points instead."),
    "lost": N_("The camera was lost: check the cable. It reconnects by itself."),
    "bad_frame": N_("The camera gives pictures that cannot be read."),
    "ended": N_("The video has ended."),
    "stopped": N_("Camera stopped"),
}


class ScoreCameraScreen(KioskScreen):
    status = StringProperty("")
    count = StringProperty("")
    team = StringProperty("A")
    name_a = StringProperty("")
    name_b = StringProperty("")
    texture = ObjectProperty(None, allownone=True)
    cards = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.service = None
        self._latest = None
        self._lock = threading.Lock()
        self._preview_event = None
        self._result = None
        self._evidence_path = None

    # ------------------------------------------------------------------ lifecycle
    def refresh(self) -> None:
        draft = self.vm.state.draft or Draft(step=self.name)
        names = self.vm.state.team_names
        self.name_a, self.name_b = names["A"], names["B"]
        self.team = draft.team
        self.cards = list(draft.cards)
        self._update()

    def on_enter(self, *args):
        self.nav.camera_light(True)
        self.start_camera()

    def on_leave(self, *args):
        self.stop_camera()
        self.nav.camera_light(False)

    def start_camera(self) -> None:
        if self.service is not None:
            return
        factory = self.nav.camera_factory
        if factory is None:
            self.status = _("No camera here: score with Cards or Points")
            return
        self._result = None
        evidence = getattr(self.nav, "evidence_dir", None)
        if evidence is not None and self.vm.state.has_match:
            self._evidence_path = Path(evidence) / f"match{self.vm.state.match_id}-hand{self.vm.state.hand_number}.jpg"
        try:
            self.service = factory(on_frame=self._on_frame, on_cards=self._on_cards,
                                   on_status=self._on_status)
            self.service.start()
        except Exception as exc:  # no camera: say so, the other paths keep working
            Logger.exception("kiosk: camera failed to start")
            self.service = None
            self.status = _("The camera is not working: score with Cards or Points") + f" ({exc})"
            return
        self.status = _("Spread the pile under the camera")
        self._preview_event = Clock.schedule_interval(self._show_latest, 1 / 15)

    def stop_camera(self) -> None:
        if self._preview_event is not None:
            self._preview_event.cancel()
            self._preview_event = None
        self._result = None
        self._evidence_path = None
        if self.service is not None:
            try:
                self.service.stop()
            finally:
                self.service = None

    # ------------------------------------------------------------------ service threads
    def _on_frame(self, frame) -> None:
        """Capture thread: shrink for the preview, then overlay the latest read on the small
        image (never on the UI thread; no full-size copy is made or kept)."""
        import cv2
        image = getattr(frame, "image", frame)
        full_w, full_h = image.shape[1], image.shape[0]
        if full_w > PREVIEW_WIDTH:
            h = int(full_h * PREVIEW_WIDTH / full_w)
            image = cv2.resize(image, (PREVIEW_WIDTH, h), interpolation=cv2.INTER_AREA)
        result = self._result
        if result is not None and getattr(result, "image_size", None) == (full_w, full_h):
            if image.shape[1] != full_w:
                result = result.scaled(image.shape[1] / full_w)
            image = result.annotate(image, show_rejected=False)
        with self._lock:
            self._latest = image

    def _on_cards(self, result, new=()) -> None:
        """Recognition thread: remember the read (for the overlay), save the evidence photo
        when cards were counted, and hand the new cards to the UI through the Clock."""
        self._result = result
        codes = [c.code if isinstance(c, Card) else str(c) for c in new]
        if codes and self._evidence_path is not None:
            # The frame this result was read from, with the read drawn on it (not the newest
            # frame: the pile may have moved since).
            photo = self.service.evidence() if self.service is not None else None
            if photo is not None:
                try:
                    import cv2
                    ok, jpeg = cv2.imencode(".jpg", photo)
                    if ok:  # whole or not at all: a power cut never leaves half a photo
                        write_whole(self._evidence_path, jpeg.tobytes())
                except Exception:
                    Logger.exception("kiosk: could not save the evidence photo")
        if codes:
            Clock.schedule_once(lambda dt: self._add_cards(codes), 0)

    def _on_status(self, status) -> None:
        Clock.schedule_once(lambda dt: self._show_status(str(status)), 0)

    def _show_status(self, status: str) -> None:
        self.status = _(STATUS_TEXT[status]) if status in STATUS_TEXT else status

    # ------------------------------------------------------------------ UI thread
    def _show_latest(self, dt) -> None:
        with self._lock:
            frame, self._latest = self._latest, None
        if frame is None:
            return
        image = frame
        if getattr(image, "ndim", 0) != 3:
            return
        h, w = image.shape[:2]
        if self.texture is None or tuple(self.texture.size) != (w, h):
            self.texture = Texture.create(size=(w, h), colorfmt="bgr")
            self.texture.flip_vertical()
        # a C-contiguous array is a buffer already: no extra copy of the preview
        buf = image.reshape(-1) if image.flags["C_CONTIGUOUS"] else image.tobytes()
        self.texture.blit_buffer(buf, colorfmt="bgr", bufferfmt="ubyte")
        self.ids.preview.canvas.ask_update()

    def _add_cards(self, codes) -> None:
        for _code in codes:
            self.nav.feedback("tick")
        merged = list(dict.fromkeys(list(self.cards) + list(codes)))
        self.cards = merged
        self.vm.update_draft(team=self.team, cards=merged, source="camera")
        self._update()

    def set_team(self, team: str) -> None:
        self.team = team
        self.vm.update_draft(team=team, cards=list(self.cards), source="camera")

    def _picker(self) -> CardPicker:
        return CardPicker(self.team, self.cards)

    def _update(self) -> None:
        p = self._picker()
        self.count = _("{cards} cards · {points} points + {tricks} tricks = {total}").format(
            cards=len(p.selected), points=p.card_points, tricks=p.tricks, total=p.points)

    def restart_pile(self) -> None:
        """Start reading the pile again from nothing."""
        if self.service is not None:
            self.service.reset()
        self.cards = []
        self.vm.update_draft(team=self.team, cards=[], source="camera")
        self._update()

    def correct(self) -> None:
        """Open the card grid with what was read, to fix it card by card."""
        self.nav.act(self.vm.begin_score, "cards", team=self.team, cards=list(self.cards), source="camera")

    def done(self) -> None:
        p = self._picker()
        if p.problem:
            self.nav.show_message(p.problem)
            return
        evidence = str(self._evidence_path) if self._evidence_path and self._evidence_path.exists() else None
        self.nav.act(self.vm.propose, p.event(source="camera", evidence=evidence))

    def on_scan_button(self):
        self.done()
        return True

    def on_confirm_button(self):
        self.done()
        return True
