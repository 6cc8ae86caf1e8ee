""""Aprendre la baralla": learn an ordinary deck under the camera, one card at a time.

Opened from the settings (behind the PIN). The camera light is on while it is open; the
frame shown is the one a card is learnt from. Learning runs on a worker thread and its
outcome comes back through the Clock. The 4 x 12 grid fills in; a flagged card (shown
twice, or too like another) is red; tapping any card learns it again. A refused photo's
problem (the card across the photo's edge, a reflection touching it, a second card) is
circled on the preview where the learner found it (``EnrolmentError.where``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from kiosk.game import Card
from kiosk.ui.i18n import N_, _
from kiosk.ui.navigation import Overlay
from kiosk.ui import preview  # noqa: F401  (CameraPreview for kv)
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.dealthrough import card_words

load_kv(__file__)
PROBLEMS = {
    "no_card": N_("No card found: lay {card} alone on the mat"),
    # a table as pale as the card (white marble): its outline cannot be told from the table
    "no_edge": N_("The card's edge does not show on this table: lay {card} on the mat"),
    "cut": N_("The card is not wholly in view: move it to the middle"),
    "glare": N_("A reflection touches the card: move it away from the light"),
    "two_cards": N_("More than one card in view: leave {card} alone on the mat"),
    "duplicate": N_("This looks like {like}, already learnt: show {card}"),
}


def preview_outline(where: list, centre: tuple, shown: tuple) -> list[float]:
    """``where`` (8 fractions of the photo: x, y from its top-left, four corners) as window
    points on a preview of the photo shown ``shown`` (w, h) big round ``centre``; [] for none."""
    if len(where) != 8:
        return []
    (cx, cy), (w, h) = centre, shown
    out: list[float] = []
    for fx, fy in zip(where[0::2], where[1::2]):
        out += [cx + (fx - 0.5) * w, cy + (0.5 - fy) * h]
    return out


def preview_ring(where: list, centre: tuple, shown: tuple) -> tuple[float, float, float]:
    """A circle (x, y, radius) round :func:`preview_outline`, a little wider; radius 0 for none."""
    pts = preview_outline(where, centre, shown)
    if not pts:
        return (0.0, 0.0, 0.0)
    xs, ys = pts[0::2], pts[1::2]
    x, y = sum(xs) / 4, sum(ys) / 4
    return (x, y, 1.25 * max(((a - x) ** 2 + (b - y) ** 2) ** 0.5 for a, b in zip(xs, ys)))


class LearnDeckScreen(KioskScreen):
    """The camera's frames in a preview, the 48 cards; the deck being learnt is ``self.learning``."""

    prompt = StringProperty("")
    grid = ListProperty([])  # 48 (code, state) in rows of oros, copes, espases, bastos
    busy = BooleanProperty(False)
    # the refused photo's problem: its 4 corners as fractions of the photo (x, y from the
    # top-left), circled on the preview; [] when there is none to show
    problem_where = ListProperty([])
    preview_outline = staticmethod(preview_outline)  # (for the .kv's drawing)
    preview_ring = staticmethod(preview_ring)
    complete = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.learning = None
        self._problem: Callable[[], str] | None = None  # the problem shown, in any language

    def refresh(self) -> None:
        if self.learning is None:
            from kiosk.decks import deck_store as store
            from kiosk.ui.viewmodels.deck import LearnDeck
            decks = store()
            name = f"baralla-{date.today():%Y%m%d}"
            n = 2
            while name in decks.names():
                name = f"baralla-{date.today():%Y%m%d}-{n}"
                n += 1
            self.learning = LearnDeck(name, decks)
            self._problem = None
        self._show(self._problem)  # a problem shown is said again (the language may have changed)

    def _cells(self) -> list:
        grid = self.ids.grid
        if not grid.children:
            from kivy.factory import Factory
            for _i in range(48):
                cell = Factory.LearnCell()
                cell.bind(on_release=lambda c: self.choose(c.code))
                grid.add_widget(cell)
        return list(reversed(grid.children))

    def _show(self, problem: Callable[[], str] | None = None) -> None:
        """The grid and the prompt; ``problem()`` (a refused photo, a camera fault) in the
        kiosk's language of the moment, kept so that a language change says it again."""
        self._problem = problem
        lt = self.learning
        self.grid = [(card.code, state) for row in lt.grid() for card, state in row]
        for cell, (code, state) in zip(self._cells(), self.grid):
            cell.code, cell.cell_state = code, state
        self.complete = lt.complete
        if not problem:
            self.problem_where = []
        if problem:
            self.prompt = problem()
        elif lt.current is not None:
            self.prompt = _("Lay {card} face up on the mat, then Learn").format(card=card_words(lt.current.code))
        else:
            self.prompt = _("All 48 cards learnt: Save")

    service = None  # the frames-only camera service while this screen is shown

    def on_enter(self, *args):
        self.ids.preview.start()  # and the camera light with it
        self.start_camera()

    def on_leave(self, *args):
        self.stop_camera()

    def start_camera(self) -> None:
        """Frames only: no reader runs while a deck is being learnt."""
        factory = self.app.camera_factory
        if self.service is not None or factory is None:
            return
        try:
            self.service = factory(frames_only=True, on_frame=self.ids.preview.show_frame,
                                   on_status=self.app.to_ui(self._show_status))
            self.service.start()
        except Exception as exc:
            Logger.exception("kiosk: camera failed to start")
            self.service = None
            reason = f" ({exc})"  # (``exc`` itself is gone after this block)
            self._show(lambda: _("The camera is not working") + reason)

    def stop_camera(self) -> None:
        service, self.service = self.service, None
        if service is not None:
            service.stop()
        self.ids.preview.stop()  # and the camera light

    def _show_status(self, status) -> None:
        """A broken camera source (not just an absent one) turns the status LED red."""
        self.app.hardware.camera_fault(str(status) == "fault")

    def learn(self) -> None:
        service = self.service
        frame = getattr(service, "latest_frame", None) if service is not None else None
        if frame is None or self.busy or self.learning.current is None:
            return
        self.busy = True
        self.problem_where = []
        image = getattr(frame, "image", frame)
        threading.Thread(target=self._learn_worker, args=(image,), name="learn-card", daemon=True).start()

    def _learn_worker(self, image) -> None:
        try:
            outcome = self.learning.learn(image)
        except Exception:
            Logger.exception("kiosk: learning a card failed")
            outcome = None
        size = (image.shape[1], image.shape[0])
        Clock.schedule_once(lambda dt: self._learnt(outcome, size), 0)

    def _learnt(self, outcome, size: tuple[int, int] = (1, 1)) -> None:
        self.busy = False
        if outcome is None:
            self._show(lambda: _("Something went wrong. Try again."))
            return
        if outcome.ok:
            self.app.hardware.feedback("tick")
            self._show()
            return
        self.app.hardware.feedback("error")
        self._show(lambda: _(PROBLEMS[outcome.problem]).format(
            card=card_words(outcome.card.code), like=card_words(outcome.like.code) if outcome.like else ""))
        if outcome.where is not None:
            w, h = size
            self.problem_where = [float(v) for x, y in outcome.where for v in (x / w, y / h)]

    def choose(self, code: str) -> None:
        self.learning.choose(Card.parse(code))
        self._show()

    def save(self) -> None:
        if not self.learning.complete:
            return
        self.learning.save()
        self.app.settings.set("camera.marks", f"deck:{self.learning.name}")
        self.app.settings.save()
        self.app.show_message(_("Deck {name} learnt: the camera reads it from now on").format(
            name=self.learning.name), info=True)
        self.learning = None
        self.app.open_overlay(Overlay.SETTINGS)

    def back(self) -> None:
        self.learning = None
        self.app.open_overlay(Overlay.SETTINGS)
