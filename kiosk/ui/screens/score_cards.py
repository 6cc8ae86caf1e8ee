"""Tap the cards: the 48 cards in a grid; tap those in one pair's pile; live points and
tricks; the same checks as a scan. Also where a camera read is corrected card by card."""

from __future__ import annotations

from kivy.properties import StringProperty

from kiosk.game import Card
from kiosk.ui import theme
from kiosk.ui.i18n import _, shown_names, tally
from kiosk.table import Draft
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.viewmodels.cards import RANK_COLUMNS, SUIT_ROWS, CardPicker
from kiosk.ui.widgets import KButton, KLabel
from kiosk.ui.icons import SuitIcon

load_kv(__file__)


class ScoreCardsScreen(KioskScreen):
    count = StringProperty("")
    problem = StringProperty("")
    team = StringProperty("A")
    name_a = StringProperty("")
    name_b = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.picker = CardPicker()
        self._portrait = None
        self._buttons: dict[Card, KButton] = {}
        self._asked = False  # OK was pressed: from then on the whole-tricks warning shows
        self.bind(size=self._maybe_rebuild)

    def refresh(self) -> None:
        draft = self.session.state.draft or Draft(step=self.name)
        self.picker = CardPicker(draft.team, draft.cards, other=draft.other)
        names = shown_names(self.session.state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        if not self._buttons:  # built once: a tap changes colours, never the layout
            self._build_grid()
        self._update()

    def on_pre_enter(self, *args):
        self._asked = False
        super().on_pre_enter(*args)

    def _maybe_rebuild(self, *_):
        if self._portrait is not None and self._portrait != (self.height > self.width):
            self._build_grid()
            self._update()

    def _build_grid(self) -> None:
        grid = self.ids.grid
        grid.clear_widgets()
        self._buttons.clear()
        self._portrait = self.height > self.width
        suits, ranks = SUIT_ROWS, RANK_COLUMNS
        u = self.app.u
        grid.rows_minimum = {0: u * 40} if self._portrait else {}
        if self._portrait:
            grid.cols = len(suits) + 1
            grid.add_widget(KLabel(text=""))
            for suit in suits:
                grid.add_widget(SuitIcon(suit=suit.catalan))
            for rank in ranks:
                grid.add_widget(KLabel(text=str(rank), color=theme.MUTED, bold=True))
                for suit in suits:
                    grid.add_widget(self._card_button(Card(rank, suit)))
        else:
            grid.cols = len(ranks) + 1
            for suit in suits:
                grid.add_widget(SuitIcon(suit=suit.catalan))
                for rank in ranks:
                    grid.add_widget(self._card_button(Card(rank, suit)))

    def _card_button(self, card: Card) -> KButton:
        b = KButton(text=str(card.rank), action=card.code, color_bg=theme.BUTTON)
        if self._portrait:  # 13 rows must fit the height (the grid is wide enough)
            b.size_hint_min_y = self.app.u * 44
        b.bind(on_release=lambda w: self.tap(w.action))
        self._buttons[card] = b
        return b

    def tap(self, code: str) -> None:
        self.picker.toggle(code)
        self.session.update_draft(cards=[c.code for c in self.picker.ordered])

    def set_team(self, team: str) -> None:
        self.picker.set_team(team)
        self.session.update_draft(team=team, cards=[c.code for c in self.picker.ordered])

    def clear(self) -> None:
        self.picker.clear()
        self._asked = False
        self.session.update_draft(cards=[])

    def _update(self) -> None:
        p = self.picker
        self.team = p.team if self.session.state.pile_owner_chosen else ""  # no pair lit until one is chosen
        for card, b in self._buttons.items():
            b.selected = card in p.selected
            b.disabled = card in p.other
            b.color_bg = theme.SUIT[card.suit.catalan][:3] + (0.35,)
        self.count = tally(cards=len(p.selected), card_points=p.card_points, tricks=p.tricks, total=p.points)
        # The warning's line keeps its space (the grid never moves under a finger) and
        # says something only once OK was pressed on a count that is not whole tricks.
        owner = "" if self.session.state.pile_owner_chosen else _("Whose pile is it? Tap the pair first.")
        self.problem = (p.problem or owner) if self._asked else ""

    def done(self) -> None:
        if not self.session.state.pile_owner_chosen:
            self._asked = True  # said in the reserved line: the grid does not move
            self._update()
            return
        if self.picker.problem:
            self._asked = True
            self._update()
            return
        source = (self.session.state.draft.source if self.session.state.draft else None) or "cards"
        self.app.act(self.session.propose, self.picker.result(source=source,
                                                         evidence=self.session.state.draft.evidence if self.session.state.draft else None))

    def on_confirm_button(self):
        self.done()
        return True
