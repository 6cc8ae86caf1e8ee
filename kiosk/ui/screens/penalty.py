"""Penalty (renunci): which pair broke a rule; the other pair scores 36 × multiplier."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.table import Step
from kiosk.ui.i18n import _, shown_names
from kiosk.ui.screens.base import PendingActionScreen, load_kv

load_kv(__file__)


class PenaltyScreen(PendingActionScreen):
    name_a = StringProperty("")
    name_b = StringProperty("")
    offender = StringProperty("")
    explain = StringProperty("")

    def refresh(self) -> None:
        session = self.session
        names = shown_names(session.state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        pending = session.state.pending
        result = pending.result if pending else None
        self.offender = result.offender or "" if result else ""
        if result:
            other = "B" if self.offender == "A" else "A"
            scored = pending.breakdown
            s = next(b.scored for b in scored if b.team == other)
            self.explain = _("{off} broke a rule: {other} scores 36 × {m} = {s}").format(
                off=names[self.offender], other=names[other], m=session.state.contract.multiplier, s=s)
        else:
            self.explain = _("Which pair broke a rule (renunci)?")

    def back(self) -> None:
        """Enrere leaves the penalty at once (with or without a pair chosen)."""
        self.app.act(self._leave)

    def _leave(self) -> None:
        self.session.cancel()
        if self.session.state.step is Step.PENALTY:  # the pair was chosen: that was its first step
            self.session.cancel()

    def choose(self, team: str) -> None:
        self.app.act(self.session.penalty, team)
