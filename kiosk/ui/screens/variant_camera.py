"""Score a hand of a game without pairs by camera: one player's pile at a time under the
camera (a marked deck: the pair game's :class:`kiosk.table.CameraScoring` reads it into
the draft's cards), a tap on the next player keeps that pile and reads the next; the one
player left with no pile takes the rest of the game's deck. Correct opens the card grid
with the piles read so far."""

from __future__ import annotations

from kivy.properties import ObjectProperty, StringProperty

from kiosk.game import Card, card_points
from kiosk.game.variants import VARIANTS
from kiosk.table.camera import CameraScoring
from kiosk.table.state import Step
from kiosk.table.variants import piles_result
from kiosk.ui.i18n import N_, tally
from kiosk.ui.pilecamera import PileCamera
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.variant_cards import completed, seat_pile_buttons

load_kv(__file__)


def piles_read(piles, cards, seat: int, seats: int) -> list[list[str]]:
    """The piles so far: those kept, and the one under the camera (``cards``, the draft's
    read) added to ``seat``'s; a card already in another player's pile stays there."""
    have = ([list(p) for p in piles] + [[] for _ in range(seats)])[:seats]
    elsewhere = {c for s, p in enumerate(have) if s != seat for c in p}
    have[seat] = list(dict.fromkeys(have[seat] + [c for c in cards if c not in elsewhere]))
    return have


class VariantCameraScreen(KioskScreen):
    """Owns a :class:`kiosk.ui.pilecamera.PileCamera` (``self.pile``: the camera started and
    stopped with the screen, its status, what a still asks), as the pair game's camera
    screen does; the draft's cards are the pile under the camera, its piles those kept."""

    pile = ObjectProperty(None)  # the PileCamera the kv draws
    count = StringProperty("")

    def __init__(self, **kwargs):
        kwargs.setdefault("pile", PileCamera(kwargs.get("session"), kwargs.get("app"),
                                             running=N_("Spread the pile under the camera")))
        super().__init__(**kwargs)

    @property
    def scoring(self) -> CameraScoring | None:
        return self.pile.scoring

    def _seat(self) -> int:
        draft = self.session.state.draft
        return draft.seat if draft is not None else 0

    def _piles(self) -> list[list[str]]:
        state = self.session.state
        draft = state.draft
        if draft is None or state.game is None:
            return []
        return piles_read(draft.piles, draft.cards, draft.seat, state.game.seats)

    def refresh(self) -> None:
        state = self.session.state
        if state.game is None or state.draft is None:
            return
        piles, seat = self._piles(), self._seat()
        game = VARIANTS[state.game.key]
        row = self.ids.seats
        row.clear_widgets()
        for button in seat_pile_buttons(state, piles, seat, game.deck, self.choose):
            row.add_widget(button)
        mine = piles[seat]
        cp, tricks = card_points(Card.parse(c) for c in mine), len(mine) // game.trick_size
        self.count = tally(cards=len(mine), card_points=cp, tricks=tricks,
                           total=cp + tricks // game.tricks_per_point)

    def stop_camera(self) -> None:
        """The camera's threads stopped and joined (leaving the screen, or the app stopping)."""
        self.pile.stop()

    # ------------------------------------------------------------------ the table's taps
    def _read_again(self) -> None:
        if self.scoring is not None and self.scoring.service is not None:
            self.scoring.service.reset()

    def choose(self, seat: int) -> None:
        """The pile read so far is kept for its player; the camera reads ``seat``'s next."""
        self.session.update_draft(piles=self._piles(), cards=(), seat=seat)
        self._read_again()

    def again(self) -> None:
        """The pile under the camera read again from nothing."""
        piles = self._piles()
        piles[self._seat()] = []
        self.session.update_draft(piles=piles, cards=())
        self._read_again()

    def correct(self) -> None:
        """The card grid with the piles read so far, to fix them card by card."""
        evidence = self.scoring.evidence if self.scoring is not None else None
        self.session.update_draft(step=Step.SCORE_CARDS, piles=self._piles(), cards=(), source="camera",
                                  evidence=evidence)

    def done(self) -> None:
        piles = completed(self._piles(), VARIANTS[self.session.state.game.key].deck)
        evidence = self.scoring.evidence if self.scoring is not None else None
        self.app.act(self.session.propose, piles_result(piles, source="camera", evidence=evidence))

    def on_scan_button(self):
        if self.scoring is None or not self.scoring.request_still():
            self.done()
        return True

    def on_confirm_button(self):
        self.done()
        return True
