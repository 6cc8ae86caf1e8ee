"""Bidding: the dealer's choice (oros, copes, espases, bastos, botifarra, delego), then the
doubling ladder offering only what is legal now, with the multiplier large."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.game import Phase
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.navigation import Overlay
from kiosk.ui.screens.base import KioskScreen, level_name, load_kv, trump_name, player_name
from kiosk.ui.screens.base import LEVELS, TRUMPS
from kiosk.ui.widgets import KButton, SuitButton

load_kv(__file__)


class BiddingScreen(KioskScreen):
    title = StringProperty("")
    trump = StringProperty("")
    trump_text = StringProperty("")
    multiplier = NumericProperty(1)
    choosing = StringProperty("yes")

    def on_kv_post(self, base_widget):
        self._choices, self._doubling = self.ids.choices.__self__, self.ids.doubling.__self__

    def _show(self, part) -> None:
        body = self.ids.body
        if part.parent is not body:
            body.clear_widgets()
            body.add_widget(part)

    def refresh(self) -> None:
        session = self.session
        if not session.state.has_match:
            return
        c = session.state.contract
        roles = session.state.roles
        self.trump = c.trump or ""
        self.multiplier = c.multiplier
        choices, actions = self.ids.choices, self.ids.actions
        choices.clear_widgets()
        actions.clear_widgets()
        dealer = roles.get("dealer", 0)
        if session.state.phase in (Phase.CHOOSE_TRUMP, Phase.DELEGATED):
            self.choosing = "yes"
            self._show(self._choices)
            chooser = (dealer + 2) % 4 if session.state.phase is Phase.DELEGATED else dealer
            self.title = (_("{name} chooses trump (delegated)") if session.state.phase is Phase.DELEGATED
                          else _("{name} chooses trump")).format(name=player_name(session.state, chooser))
            legal = session.state.bids.trumps
            for t in TRUMPS:
                b = SuitButton(suit=t, text=trump_name(t), disabled=t not in legal, action=t)
                b.bind(on_release=lambda w: self.app.act(self.session.choose_trump, w.action))
                choices.add_widget(b)
            # Delego's place stays (empty once delegated): the suits never widen or move, so a
            # second tap on Delego does not land on Botifarra.
            if session.state.bids.can_delegate:
                b = KButton(text=_("Delego"), action="delegate")
                b.bind(on_release=lambda w: self.app.act(self.session.delegate))
                choices.add_widget(b)
            else:
                choices.add_widget(Widget())
        else:
            self.choosing = ""
            self._show(self._doubling)
            self.title = _("Doubling: only what is allowed now")
            self.trump_text = trump_name(c.trump) + ("  " + level_name(c.doubling) if level_name(c.doubling) else "")
            # Each level has its own place, left empty when it cannot be said: "Recontro!"
            # never appears where "Contro!" was (a double tap would say it).
            play = KButton(text=_("Play!"), action="play", color_bg=theme.PRIMARY,
                           disabled=not session.state.bids.can_play)
            play.bind(on_release=lambda w: self.app.act(self.session.start_play))
            actions.add_widget(play)
            for level in LEVELS:
                if level in session.state.bids.levels:
                    b = KButton(text=level_name(level) + "!", action=level, color_bg=theme.DANGER)
                    b.bind(on_release=lambda w: self.app.act(self.session.double, w.action))
                    actions.add_widget(b)
                else:
                    actions.add_widget(Widget())
        if session.state.can_undo:
            b = KButton(text=_("Undo"), action="undo")
            b.bind(on_release=lambda w: self.app.act(self.session.undo))
            actions.add_widget(b)
        elif self.choosing:
            actions.add_widget(Widget())
        back = KButton(text=_("Scoreboard"), action="back")
        back.bind(on_release=lambda w: self.app.open_overlay(Overlay.SCOREBOARD))
        actions.add_widget(back)

    def on_confirm_button(self):
        if self.session.state.phase is Phase.DOUBLING and self.session.state.bids.can_play:
            self.app.act(self.session.start_play)
            return True
        return False
