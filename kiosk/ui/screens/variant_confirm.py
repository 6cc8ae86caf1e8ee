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

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._lines_for: tuple | None = None  # the lines' kind and the players they were built for

    def refresh(self) -> None:
        """The lines built once for a kind (who made the renunci, or the table of results)
        and a number of players; each visit after changes their words in place."""
        state = self.session.state
        game = state.game
        if game is None:
            return
        grid = self.ids.lines
        result = game.result
        if result is None:  # a renunci: who made it?
            self.title = _("Who made the renunci?")
            grid.cols = 2 if game.seats == 4 else game.seats
            names = [seat_name(state, s) for s in range(game.seats)]
            if self._lines("renunci", game.seats):
                for s, name in enumerate(names):
                    grid.add_widget(KButton(text=name, action=f"penalty_{s}",
                                            on_release=lambda b, seat=s: self.app.act(self.session.penalty, seat)))
            else:
                for b, name in zip(reversed(grid.children), names):
                    b.text = name
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
        heads = ["", _("Points"), "+/\u2212", _("Total")]
        cells = []
        for s in range(game.seats):
            points = "" if result.points is None else str(result.points[s])
            scored = ("+" if result.scored[s] > 0 else "") + signed(result.scored[s])
            cells.append([seat_name(state, s), points, scored, signed(result.totals_after[s])])
        if self._lines("results", game.seats):
            for text in heads:
                grid.add_widget(Factory.SeatHead(text=text))
            for s, texts in enumerate(cells):
                for text in texts:
                    grid.add_widget(Factory.SeatCell(text=text, color=SEAT_COLOURS[s]))
        else:
            for widget, text in zip(reversed(grid.children), heads + [t for texts in cells for t in texts]):
                widget.text = text

    def _lines(self, kind: str, seats: int) -> bool:
        """True (the lines emptied, to be built) unless they are already of ``kind`` for
        ``seats`` players."""
        if self._lines_for == (kind, seats):
            return False
        self.ids.lines.clear_widgets()
        self._lines_for = (kind, seats)
        return True

    def confirm(self) -> None:
        if self.session.state.pending is not None:
            self.app.save(self.session.confirm)

    def on_confirm_button(self):
        self.confirm()
        return True
