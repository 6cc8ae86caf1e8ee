""""Llocs dels jugadors": trick mode's set-up step on the screen, as ``botifarra-kiosk seats``
does it from the command line.

Opened from the settings (behind the PIN). The table deals one card face up in front of each
player, in seat order from seat 1, and leaves it: each card, once it lies still, is where that
seat plays (:class:`vision.tricks.SeatLearner`, fed on the camera's thread). The four seats
light up as they are learnt; the places are checked (:func:`vision.tricks.check_seats`) and
Save writes them to the settings (``camera.seats``, with the frames' size), where the trick
camera takes them at its next start. Start again forgets what was learnt.
"""

from __future__ import annotations

import threading

from kivy.logger import Logger
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from kiosk.settings import SeatPlaces
from kiosk.ui import preview  # noqa: F401  (CameraPreview for kv)
from kiosk.ui.i18n import _
from kiosk.ui.navigation import Overlay
from kiosk.ui.screens.base import KioskScreen, load_kv, player_name

load_kv(__file__)


class SeatsScreen(KioskScreen):
    """The camera's frames in a preview and the four seats, lit as each is learnt."""

    prompt = StringProperty("")
    learnt = ListProperty([False, False, False, False])
    complete = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.service = None  # the frames-only camera service while this screen is shown
        self._lock = threading.Lock()
        self._learner = None  # made from the first frame's size, on the camera's thread
        self._places: dict[int, tuple[float, float]] | None = None
        self._size = (0, 0)
        self._deliver = None

    def refresh(self) -> None:
        self._show()

    def _show(self, problem: str = "") -> None:
        k = sum(self.learnt)
        if problem:
            self.prompt = problem
        elif k < 4:
            self.prompt = _("Deal one card face up in front of each player, in seat order, and leave it: "
                            "now {name}").format(name=player_name(self.session.state, k))
        else:
            self.prompt = _("The four places are learnt: Save")
        self.complete = k == 4 and not problem

    # ------------------------------------------------------------------ camera
    def on_enter(self, *args):
        self.app.hardware.camera_light(True)
        self.start_again()
        self.start_camera()

    def on_leave(self, *args):
        self.stop_camera()
        self.app.hardware.camera_light(False)

    def start_camera(self) -> None:
        factory = self.app.camera_factory
        if self.service is not None or factory is None:
            if factory is None:
                self.prompt = _("The camera is not working")
            return
        self._deliver = self.app.to_ui(self._learnt_seat)
        try:
            self.service = factory(frames_only=True, on_frame=self._frame, on_status=self.app.to_ui(lambda s: None))
            self.service.start()
        except Exception as exc:
            Logger.exception("kiosk: camera failed to start")
            self.service = None
            self.prompt = _("The camera is not working") + f" ({exc})"
            return
        self.ids.preview.start()

    def stop_camera(self) -> None:
        self.ids.preview.stop()
        service, self.service = self.service, None
        if service is not None:
            service.stop()

    def _frame(self, frame) -> None:
        """Camera thread: the preview, and the learner fed."""
        self.ids.preview.show_frame(frame)
        image = getattr(frame, "image", frame)
        with self._lock:
            if self._learner is None:
                from vision.tricks import SeatLearner
                self._size = (image.shape[1], image.shape[0])
                self._learner = SeatLearner(frame_size=self._size)
            learner = self._learner
            seat = learner.feed(image)
            places = learner.seats
        if seat is not None and self._deliver is not None:
            self._deliver(learner, seat, places)

    def _learnt_seat(self, learner, seat: int, places) -> None:
        if learner is not self._learner:
            return  # learnt before Start again
        self.app.hardware.feedback("tick")
        self.learnt = [k <= seat for k in range(4)]
        self._places = places
        problem = None
        if places is not None:
            from vision.tricks import check_seats
            problem = check_seats(places, self._size)
        self._show(_("These places will not do ({problem}): Start again").format(problem=problem)
                   if problem else "")

    # ------------------------------------------------------------------ actions
    def start_again(self) -> None:
        with self._lock:
            self._learner, self._places = None, None
        self.learnt = [False] * 4
        self._show()

    def save(self) -> None:
        if not self.complete or self._places is None:
            return
        settings = self.app.settings
        settings.set("camera.seats", SeatPlaces.of(self._places))
        settings.set("camera.width", self._size[0])  # the places are pixels of frames this size
        settings.set("camera.height", self._size[1])
        settings.save()
        self.app.show_message(_("The players' places are learnt: the trick camera reads them from now on"),
                              info=True)
        self.app.open_overlay(Overlay.SETTINGS)

    def back(self) -> None:
        self.app.open_overlay(Overlay.SETTINGS)
