"""Misdeal: the hand is void; the deal passes to the right of the one who misdealt."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.ui.i18n import _
from kiosk.ui.screens.base import PendingActionScreen, load_kv

load_kv(__file__)


class MisdealScreen(PendingActionScreen):
    explain = StringProperty("")

    def refresh(self) -> None:
        vm = self.vm
        if not vm.has_match:
            return
        if vm.pending is None:
            return
        after = vm.match.apply(vm.pending)
        dealer = vm.player_name(vm.roles["dealer"])
        self.explain = _("{dealer} misdealt: the hand is void, nobody scores.\n{next} deals now.").format(
            dealer=dealer, next=vm.player_name(int(after.dealer)))
