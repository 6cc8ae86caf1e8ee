"""Bidding: the dealer's choice (oros, copes, espases, bastos, botifarra, delego), then the
doubling ladder offering only what is legal now, with the multiplier large.

Every button is declared once in bidding.kv; this screen reads the state's legal bids
(``state.bids``) into properties the buttons follow (greyed, shown, or an empty place kept
where a bid is not legal now), and each button calls the session's action through
``app.act``.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from kiosk.game import Phase
from kiosk.ui import buttonbar  # noqa: F401  (ButtonBar, BarButton, BarSpace, TrumpButton for kv)
from kiosk.ui.i18n import _
from kiosk.ui.screens.base import KioskScreen, level_name, load_kv, trump_name, player_name

load_kv(__file__)


class BiddingScreen(KioskScreen):
    title = StringProperty("")
    trump = StringProperty("")
    trump_text = StringProperty("")
    multiplier = NumericProperty(1)
    choosing = StringProperty("yes")  # the trump is being chosen (else: the doubling)
    trumps = ListProperty([])  # the trumps the rules allow now
    can_delegate = BooleanProperty(False)
    levels = ListProperty([])  # the doubling levels that can be said now
    can_play = BooleanProperty(False)
    can_undo = BooleanProperty(False)

    def on_kv_post(self, base_widget):
        self._choices, self._doubling = self.ids.choices.__self__, self.ids.doubling.__self__

    def _show(self, part) -> None:
        body = self.ids.body
        if part.parent is not body:
            body.clear_widgets()
            body.add_widget(part)

    def refresh(self) -> None:
        state = self.session.state
        if not state.has_match:
            return
        c, bids = state.contract, state.bids
        self.trump = c.trump or ""
        self.multiplier = c.multiplier
        self.trumps, self.can_delegate = list(bids.trumps), bids.can_delegate
        self.levels, self.can_play, self.can_undo = list(bids.levels), bids.can_play, state.can_undo
        if state.phase in (Phase.CHOOSE_TRUMP, Phase.DELEGATED):
            self.choosing = "yes"
            self._show(self._choices)
            dealer = state.roles.get("dealer", 0)
            chooser = (dealer + 2) % 4 if state.phase is Phase.DELEGATED else dealer
            self.title = (_("{name} chooses trump (delegated)") if state.phase is Phase.DELEGATED
                          else _("{name} chooses trump")).format(name=player_name(state, chooser))
        else:
            self.choosing = ""
            self._show(self._doubling)
            self.title = _("Doubling: only what is allowed now")
            self.trump_text = trump_name(c.trump) + ("  " + level_name(c.doubling) if level_name(c.doubling) else "")

    def on_confirm_button(self):
        if self.session.state.phase is Phase.DOUBLING and self.session.state.bids.can_play:
            self.app.act(self.session.start_play)
            return True
        return False
