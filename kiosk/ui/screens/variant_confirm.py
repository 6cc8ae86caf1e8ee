"""A result of a game without pairs to confirm: a hand's points, a renunci (first: who
made it) or a misdeal; for every player what he scores and his total after."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.variant_board import SEAT_COLOURS, seat_name, signed
from kiosk.ui.widgets import KButton

load_kv(__file__)


class VariantConfirmScreen(KioskScreen):
    title = StringProperty("")

    def refresh(self) -> None:
        state = self.session.state
        game = state.game
        if game is None:
            return
        grid = self.ids.lines
        grid.clear_widgets()
        result = game.result
        if result is None:  # a renunci: who made it?
            self.title = _("Who made the renunci?")
            grid.cols = 2 if game.seats == 4 else game.seats
            for s in range(game.seats):
                grid.add_widget(KButton(text=seat_name(state, s), action=f"penalty_{s}",
                                        on_release=lambda b, seat=s: self.app.act(self.session.penalty, seat)))
            self.ids.confirm.disabled = True
            return
        self.ids.confirm.disabled = False
        if result.kind == "misdeal":
            self.title = _("Misdeal") + " · " + _("Hand {n}").format(n=state.hand_number)
        elif result.kind == "penalty":
            self.title = _("Penalty") + ": " + seat_name(state, result.offender)
        else:
            self.title = _("Hand {n}").format(n=state.hand_number)
        grid.cols = 4
        for text in ("", _("Points"), "+/\u2212", _("Total")):
            grid.add_widget(Factory.SeatHead(text=text))
        for s in range(game.seats):
            points = "" if result.points is None else str(result.points[s])
            scored = ("+" if result.scored[s] > 0 else "") + signed(result.scored[s])
            for text in (seat_name(state, s), points, scored, signed(result.totals_after[s])):
                grid.add_widget(Factory.SeatCell(text=text, color=SEAT_COLOURS[s]))

    def confirm(self) -> None:
        if self.session.state.pending is not None:
            self.app.save(self.session.confirm)

    def on_confirm_button(self):
        self.confirm()
        return True
