"""Misdeal: the hand is void; the deal passes to the right of the one who misdealt."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.screens.base import PendingActionScreen, load_kv, player_name

load_kv(__file__)


class MisdealScreen(PendingActionScreen):
    explain = StringProperty("")

    def refresh(self) -> None:
        session = self.session
        if not session.state.has_match:
            return
        pending = session.state.pending
        if pending is None:
            return
        next_dealer = (session.state.roles["dealer"] + 1) % 4  # a misdeal passes the deal on
        dealer = player_name(session.state, session.state.roles["dealer"])
        self.explain = _("{dealer} misdealt: the hand is void, nobody scores.\n{next} deals now.").format(
            dealer=dealer, next=player_name(session.state, next_dealer))
