"""The number pad: one pair's points, the quickest way to score a hand."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.ui.i18n import _, shown_names
from kiosk.table import Draft
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.points import PointsPad

load_kv(__file__)


class ScorePointsScreen(KioskScreen):
    display = StringProperty("")
    team = StringProperty("A")
    name_a = StringProperty("")
    name_b = StringProperty("")
    hint = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.pad = PointsPad()

    def refresh(self) -> None:
        draft = self.session.state.draft or Draft(step=self.name)
        self.pad = PointsPad(draft.team)
        self.pad.digits = draft.digits
        names = shown_names(self.session.state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        self._update()

    def press(self, key: str) -> None:
        self.pad.press(key)
        self.session.update_draft(digits=self.pad.digits)

    def set_team(self, team: str) -> None:
        self.pad.team = team
        self.session.update_draft(team=team, digits=self.pad.digits)

    def _update(self) -> None:
        self.team = self.pad.team if self.session.state.pile_owner_chosen else ""  # no pair lit until one is chosen
        self.display = self.pad.digits or "?"
        v = self.pad.value
        self.hint = (self.pad.problem or
                     _("The other pair: {n}").format(n=72 - v))

    def done(self) -> None:
        if not self.session.state.pile_owner_chosen:
            self.app.show_message(_("Whose pile is it? Tap the pair first."))
            return
        if self.pad.problem:
            self.app.show_message(self.pad.problem)
            return
        self.app.act(self.session.propose, self.pad.result())

    def on_confirm_button(self):
        self.done()
        return True
