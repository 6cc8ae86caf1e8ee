"""Match won: the winner, the final sheet, a new match that continues the dealing."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import DictProperty, StringProperty

from kiosk.ui.i18n import _, shown_names
from kiosk.table import sheet_of
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.scoreboard import fill_sheet, latest_rows_in_view

from kiosk.ui import club_strip  # noqa: F401,E402  (ClubStrip for kv)

load_kv(__file__)


class MatchWonScreen(KioskScreen):
    winner = StringProperty("")
    winner_team = StringProperty("A")
    totals = DictProperty({"A": 0, "B": 0})
    names = DictProperty({"A": "", "B": ""})

    def refresh(self) -> None:
        session = self.session
        if not session.state.has_match:
            return
        self.names = names = shown_names(session.state.team_names)
        self.totals = session.state.totals
        w = session.state.winner
        self.winner_team = w if w in ("A", "B") else "A"
        self.winner = (_("{name} win!").format(name=names[w]) if w in ("A", "B")
                       else _("A draw"))
        fill_sheet(self.ids.sheet_head, self.ids.sheet, names, sheet_of(session.match))
        Clock.schedule_once(self._latest_rows_in_view, 0)  # once the rows are laid out

    def next_match(self) -> None:
        self.app.act(self.session.next_match)

    def _latest_rows_in_view(self, *_):
        latest_rows_in_view(self.ids.get("scroll"))
