"""The club strip: the tournament round on the table's screens (scoreboard, match won).

It shows the organiser's order big ("Ronda 3 · Taula 7 · Parella 12 contra Parella 3"), the
round's end conditions and the minutes left, the button that begins the round's match with
the organiser's pairs, and at the end the opponents' confirmation: "provisional" until
they tap, "confirmat" after. It observes :class:`kiosk.club.table.ClubTable` and holds no
logic of its own; with no club (or no order yet) it takes no room at all.
"""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.club.round import ResultState
from kiosk.ui import theme
from kiosk.ui.i18n import _, language

Builder.load_file(str(Path(__file__).with_name("club_strip.kv")))

AWAITING_BG = (0.50, 0.36, 0.04, 1)   # amber: the result is not final yet
CONFIRMED_BG = (0.08, 0.38, 0.18, 1)


class ClubStrip(BoxLayout):
    club = ObjectProperty(None, allownone=True)   # kiosk.club.table.ClubTable
    app = ObjectProperty(None, allownone=True)    # the app: act() runs a session action
    shown = BooleanProperty(False)
    title = StringProperty("")
    note = StringProperty("")          # end conditions and minutes left, or the result's state
    offer = StringProperty("")         # the button shown: "club_start" | "club_confirm" | ""
    action_text = StringProperty("")
    background = ListProperty(theme.PANEL)

    _unsubscribe = None

    def on_club(self, strip, club) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if club is not None:
            self._unsubscribe = club.subscribe(self.refresh)
        self.refresh()

    def on_app(self, strip, app) -> None:
        if app is not None:
            app.bind(language=lambda *args: self.refresh())  # the words change, not the round

    def refresh(self, *args) -> None:
        """Read the club's view into the properties (also after a language switch)."""
        view = self.club.view(language()) if self.club is not None else None
        if view is None or not view.title:
            self.shown, self.title, self.note, self.offer, self.action_text = False, "", "", "", ""
            return
        self.shown, self.title = True, view.title
        clock = ""
        if view.minutes_left is not None:
            clock = _("{minutes} min left").format(minutes=view.minutes_left) if view.minutes_left \
                else _("Time is up")
        self.background = theme.PANEL
        self.offer, self.action_text = "", ""
        self.note = " · ".join(x for x in (view.ends, clock) if x)
        offline = "" if view.online else _("offline")  # the results wait in the journal
        if view.can_start:
            self.offer, self.action_text = "club_start", _("Start round {n}").format(n=view.round)
        elif view.result is ResultState.AWAITING_CONFIRMATION:
            self.background = AWAITING_BG
            self.note = _("Provisional result: {pair} must confirm it").format(pair=view.confirming_name)
            self.offer, self.action_text = "club_confirm", _("Confirm the result")
        elif view.result is ResultState.CONFIRMED:
            self.background = CONFIRMED_BG
            self.note = _("Result confirmed")
        if offline:
            self.note = f"{self.note} · {offline}"

    def act(self) -> None:
        if self.offer == "club_start":
            self.app.act(self.club.start_match)
        elif self.offer == "club_confirm":
            self.club.confirm()


Factory.register("ClubStrip", cls=ClubStrip)
