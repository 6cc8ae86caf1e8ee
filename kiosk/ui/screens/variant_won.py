"""A game without pairs is over: who won, every player's total, and the next match."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.variant_board import fill_totals, seat_name
from kiosk.ui import toolicons  # noqa: F401  (ToolButton for kv)

load_kv(__file__)


class VariantWonScreen(KioskScreen):
    winner = StringProperty("")
    seats = NumericProperty(3)

    def refresh(self) -> None:
        state = self.session.state
        game = state.game
        if game is None:
            return
        self.seats = game.seats
        self.winner = _("{name} wins!").format(name=seat_name(state, game.winner)) \
            if game.winner is not None else _("A draw")
        fill_totals(self.ids.totals, state, marked=game.winner)

    def on_undo_button(self):
        self.app.act(self.session.undo)
        return True
