"""New match: pair names, optional player names, preset and target, who deals first
(tap a seat, or the on-screen suit draw)."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty, StringProperty

from kiosk.ui.i18n import _, default_team_name
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.words import PRESET_NAMES, PRESETS, TARGETS
from kiosk.table import NewMatchForm
from kiosk.table.variants import GAMES, SEATS, created_event
from kiosk.ui.screens.variant_board import GAME_NAMES

load_kv(__file__)

FIELD_ORDER = ("team_a", "player_0", "player_2", "team_b", "player_1", "player_3")



class NewMatchScreen(KioskScreen):
    preset = StringProperty("reglament")
    preset_text = StringProperty("")
    target = NumericProperty(101)
    target_text = StringProperty("")
    first_dealer = NumericProperty(0)
    drawn_suit = StringProperty("")
    draw_text = StringProperty("")
    game = StringProperty("pairs")  # how many play, and how (kiosk.table.variants.GAMES)
    game_text = StringProperty("")
    seats = NumericProperty(4)

    def on_kv_post(self, base_widget) -> None:
        super().on_kv_post(base_widget)
        self._follow = Clock.create_trigger(self._scroll_to_focused, 0)
        for key in FIELD_ORDER:
            self.ids[key].bind(focus=self._follow)
        self.ids.scroll.bind(height=self._follow)
        self.ids.form.bind(height=self._follow)
        App.get_running_app().bind(keyboard_h=self._follow)

    def _scroll_to_focused(self, dt) -> None:
        """The name being typed stays in sight above the docked keyboard (the names scroll;
        from where the field is in the form, so it does not matter where it was scrolled)."""
        scroll, form = self.ids.scroll, self.ids.form
        field = next((self.ids[k] for k in FIELD_ORDER if self.ids[k].focus), None)
        room = form.height - scroll.height
        if field is None or not scroll.do_scroll_y or room <= 0:
            scroll.scroll_y = 1
            return
        pad = App.get_running_app().u * 6
        bottom, top = field.y - form.y, field.top - form.y
        seen = scroll.scroll_y * room  # the form's offset seen at the bottom of the view
        seen = min(max(seen, top + pad - scroll.height), bottom - pad)
        scroll.scroll_y = min(1.0, max(0.0, seen / room))

    def refresh(self) -> None:
        s = self.session.settings
        from kiosk.game import PRESETS as RULES
        form = self.session.state.new_match or NewMatchForm()
        self._filling = True  # the fields are set from the form: not typed
        self.preset = form.preset if form.preset in RULES else s["match.preset"]
        default_target = int(s["match.target"]) if RULES[self.preset].target else 0
        self.target = form.target if form.preset in RULES else default_target
        self.first_dealer = form.first_dealer
        self.choose_game(form.game if form.game in GAMES else "pairs")
        self.ids.team_a.text, self.ids.team_b.text = form.team_a, form.team_b
        self.ids.team_a.hint_text = default_team_name(s["match.team_a"])
        self.ids.team_b.hint_text = default_team_name(s["match.team_b"])
        for i in range(4):
            self.ids[f"player_{i}"].text = form.players[i]
            self.ids[f"player_{i}"].hint_text = _("Seat {n}").format(n=i + 1)
        self._filling = False
        self.drawn_suit = ""
        self.draw_text = ""
        self._texts()

    def keep(self, *args) -> None:
        """What is typed or chosen so far, kept across a restart (not a match yet)."""
        if getattr(self, "_filling", True) or self.session is None or self.session.state.new_match is None:
            return
        ids = self.ids
        self.session.fill_new_match(NewMatchForm(
            team_a=ids.team_a.text, team_b=ids.team_b.text,
            players=tuple(ids[f"player_{i}"].text for i in range(4)),
            preset=self.preset, target=int(self.target or 0), first_dealer=int(self.first_dealer),
            game=self.game))

    def choose_game(self, game: str) -> None:
        """How many play (4, 3, 2) and, for four, in pairs or each for himself."""
        self.game, self.seats = game, SEATS[game]
        self.game_text = _(GAME_NAMES[game])
        if self.first_dealer >= self.seats:
            self.first_dealer = 0
        self.keep()

    def on_preset(self, *args) -> None:
        self.keep()

    def on_target(self, *args) -> None:
        self.keep()

    def on_first_dealer(self, *args) -> None:
        self.keep()

    def next_field(self, field) -> None:
        """⏎ on the keyboard: on to the next name (the last one closes the keyboard)."""
        order = [self.ids[k] for k in FIELD_ORDER]
        i = order.index(field) if field in order else len(order) - 1
        field.focus = False
        if i + 1 < len(order):
            order[i + 1].focus = True

    def _texts(self) -> None:
        from kiosk.game import PRESETS as RULES
        self.preset_text = _(PRESET_NAMES[self.preset])
        hands = RULES[self.preset].max_hands
        self.target_text = (_("To {n}").format(n=self.target) if self.target
                            else _("{n} hands").format(n=hands))

    def next_preset(self) -> None:
        from kiosk.game import PRESETS as RULES
        self.preset = PRESETS[(PRESETS.index(self.preset) + 1) % len(PRESETS)]
        self.target = RULES[self.preset].target or 0  # 0: the preset ends after its hands
        self._texts()

    def _reachable(self) -> tuple[int, ...]:
        """The targets a pair can reach: with a cap on the points counted (Butinet: 121),
        none above it."""
        from kiosk.game import PRESETS as RULES
        cap = RULES[self.preset].points_cap
        return tuple(t for t in TARGETS if not cap or t <= cap)

    def next_target(self) -> None:
        if not self.target:
            return  # a fixed number of hands (Girona): no target to choose
        targets = self._reachable()
        self.target = targets[(targets.index(self.target) + 1) % len(targets)] if self.target in targets \
            else targets[0]
        self._texts()

    def choose_dealer(self, seat: int) -> None:
        self.first_dealer = seat
        self.drawn_suit = ""
        self.draw_text = ""

    def draw(self) -> None:
        suit, seat = self.session.draw_first_dealer()
        self.first_dealer = seat
        self.drawn_suit = suit.catalan
        name = self.ids[f"player_{seat}"].text.strip() or _("Seat {n}").format(n=seat + 1)
        self.draw_text = _("{suit}: {name} deals").format(suit=_(suit.catalan.capitalize()), name=name)

    def start(self) -> None:
        if self.target and self.target not in self._reachable():
            self.app.show_message(_("Nobody can reach {target}: at most {cap} points are counted "
                                    "with these rules").format(target=self.target, cap=max(self._reachable())))
            return
        ids = self.ids
        players = [ids[f"player_{i}"].text.strip() or None for i in range(4)]
        if self.game != "pairs":
            if self.app.club is not None:  # a club round is played in pairs
                self.app.show_message(_("Club mode: this table plays the round in pairs. "
                                        "{game} is only for a table outside the tournament.")
                                      .format(game=_(GAME_NAMES[self.game])))
                return
            self.app.act(self.session.new_match_from, created_event(
                self.game, players=players, preset=self.preset, target=self.target or None,
                first_dealer=self.first_dealer))
            return
        # a pair left unnamed is called what its field showed ("Vosotros" in Spanish), not the
        # setting's Catalan default
        self.app.act(self.session.new_match,
                     team_names={"A": ids.team_a.text.strip() or ids.team_a.hint_text,
                                 "B": ids.team_b.text.strip() or ids.team_b.hint_text},
                     players=players, preset=self.preset, target=self.target or None,
                     first_dealer=self.first_dealer)
