"""Trick mode: the four seats with the card each played, large, the trick's number and both
pairs' running points, the last trick, a card to show again at its seat, and the renunci
panel (both cards drawn; confirm or dismiss).

The screen draws ``state.tricks`` (:class:`kiosk.table.tricks.TrickView`) and the trick
camera's asks (:class:`kiosk.table.trickcamera.TrickFeed`); every card reaches the session
through the feed (the camera's reads come through the app's ``to_ui``), every decision is a
session action through ``app.act``. The bar and the renunci question are declared in
tricks.kv, following the screen's properties; only the grid of the deck's 48 cards to pick
from is built here.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout

from kiosk.game import Card, Suit
from kiosk.table.trickcamera import TrickFeed
from kiosk.ui import theme
from kiosk.ui.i18n import _, ngettext, shown_names
from kiosk.ui.icons import SuitIcon
from kiosk.ui.screens.base import KioskScreen, load_kv, player_name, trump_name
from kiosk.ui.widgets import KButton



class ShownCard(KButton):
    """A card of the renunci question in its suit's colour, under its ``caption``."""
    caption = StringProperty("")
    code = StringProperty("")

    def on_code(self, *_) -> None:
        self.on_caption()

    def on_caption(self, *_) -> None:
        self.text = f"{self.caption}\n{card_text(self.code).replace(chr(10), ' ')}"
        self.color_bg = card_colour(self.code)
        self.action = f"card_{self.code}"


class TrickSeat(BoxLayout):
    """One seat's place: the player's name and the card he laid, large (or what is asked)."""
    seat = NumericProperty(0)
    screen = ObjectProperty(None, allownone=True)
    info = DictProperty({})

    def on_info(self, *_) -> None:
        info, ids = self.info, self.ids
        if "card" not in ids:
            return
        ids.name.text = info.get("name", "")
        ids.name.color = theme.SELECTED if info.get("turn") else theme.MUTED
        ask = info.get("ask", "")
        ids.card.text = ask or info.get("text") or ("?" if info.get("turn") else "")
        w, h = ids.card.size
        ids.card.font_size = max(12, min(h, 1.1 * w) * (0.13 if ask else 0.2))
        ids.card.color_bg = theme.DANGER if ask else info.get("bg", theme.PANEL)
        ids.card.selected = bool(info.get("won"))

    def on_kv_post(self, base_widget) -> None:
        self.ids.card.bind(size=self.on_info)


load_kv(__file__)
SUITS = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)
CAMERA_TICK_S = 1.0  # how often the camera's lost frames are counted again
LATE_SHARE = 0.05  # of the frames lost: said in the alarm colour (cards may come and go unseen)


def card_text(code: str | None) -> str:
    """A card as the table says it: "7\\nOros"."""
    if not code:
        return ""
    card = Card.parse(code)
    return f"{card.rank}\n{trump_name(card.suit.catalan)}"


def card_colour(code: str | None) -> tuple:
    if not code:
        return theme.PANEL
    return theme.SUIT[Card.parse(code).suit.catalan][:3] + (0.55,)


class TricksScreen(KioskScreen):
    header = StringProperty("")
    match_line = StringProperty("")  # the match's totals toward the target ("Partida: 34 – 57 · a 101")
    status = StringProperty("")
    panel = StringProperty("")  # "", "last" (Última basa), "renunci", "pick"
    pick_seat = NumericProperty(-1)
    pick_for = StringProperty("")  # "answer" (a card asked at its seat) or "dismiss" (a misread renunci)
    can_undo = BooleanProperty(False)
    has_last = BooleanProperty(False)
    complete = BooleanProperty(False)
    seats = DictProperty({})  # seat -> {"text", "card", "name", "ask", "turn", "won"}
    renunci_note = StringProperty("")  # the renunci asked about, in words
    renunci_seat = NumericProperty(0)
    renunci_cards = ListProperty(["", ""])  # the card played, and the later card that proves it
    pick_question = StringProperty("")
    camera_note = StringProperty("")  # the camera's frames lost, while it reads
    camera_late = BooleanProperty(False)  # many of them: cards may come and go unseen

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.feed: TrickFeed | None = None
        self._state, self._same = None, None
        self._camera_clock = None

    def on_kv_post(self, base_widget) -> None:
        # the two contents of the panel (declared in tricks.kv), shown one at a time
        self._renunci, self._pick = self.ids.renunci.__self__, self.ids.pick.__self__
        self.ids.panel.clear_widgets()

    # ------------------------------------------------------------------ camera
    def on_enter(self, *args):
        if self.feed is None:
            self.feed = TrickFeed(self.session, to_ui=self.app.to_ui, on_change=self._read)
        self.start_camera()

    def on_leave(self, *args):
        self.stop_camera()

    def start_camera(self) -> None:
        """The trick camera, when the kiosk has one set up (``app.trick_camera``)."""
        make, hand = self.app.trick_camera, self.session.trick_play.hand_in_play()
        if make is None or hand is None or self.feed.service is not None:
            return
        try:
            service = make(hand, on_events=self.feed.on_events,
                           on_status=self.app.to_ui(lambda status: None))
            self.feed.attach(service)
            service.start()
        except Exception:  # noqa: BLE001 - no camera: the table names the cards by touch
            Logger.exception("kiosk: the trick camera failed to start")
            self.feed.attach(None)
            return
        self._camera_clock = Clock.schedule_interval(lambda dt: self.count_lost_frames(), CAMERA_TICK_S)

    def stop_camera(self) -> None:
        service = self.feed.service if self.feed is not None else None
        if self._camera_clock is not None:
            self._camera_clock.cancel()
            self._camera_clock = None
        if service is not None:
            self.feed.attach(None)
            service.stop()
        self.camera_note, self.camera_late = "", False

    def count_lost_frames(self) -> None:
        """The camera's frames the reader never saw (``TrickService.dropped``: replaced by a
        newer one while it worked), out of all it gave: a busy kiosk reads fewer frames, and
        the table should know why a card is asked for."""
        service = self.feed.service if self.feed is not None else None
        total = service.frames + service.dropped if service is not None else 0
        if not total:
            self.camera_note, self.camera_late = "", False
            return
        lost = service.dropped
        self.camera_note = ngettext("Camera: {n} frame of {total} lost", "Camera: {n} frames of {total} lost",
                                    lost).format(n=lost, total=total)
        self.camera_late = lost > LATE_SHARE * total

    def _read(self) -> None:
        """The camera's cards reached the session: this screen redrawn (the state it
        published already moved the app to the confirmation after the 12th trick)."""
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        state = self.session.state
        view = state.tricks
        if view is None:
            return
        if self.feed is not None:
            self.feed.follow()
        same = (state.match_id, state.events, state.draft, view)
        if state is not self._state and same == self._same:
            self.panel = ""  # the same table published again (a resume): as after a restart
        self._state, self._same = state, same
        self.can_undo, self.has_last, self.complete = state.can_undo, view.last is not None, view.complete
        names = shown_names(state.team_names)
        self.header = _("Trick {n} · {a} {pa} – {b} {pb}").format(
            n=view.number, a=names["A"], pa=view.points["A"], b=names["B"], pb=view.points["B"]) \
            + f"  ·  {trump_name(state.contract.trump)}"
        self.match_line = _("Match: {a} {ta} – {b} {tb}").format(
            a=names["A"], ta=state.totals.get("A", 0), b=names["B"], tb=state.totals.get("B", 0)) \
            + ("  ·  " + _("to {target}").format(target=state.target) if state.target else "")
        if self.panel == "renunci" and view.renunci is None:
            self.panel = ""
        if view.renunci is not None and self.panel != "pick":
            self.panel = "renunci"
        if self.panel == "last" and view.last is None:
            self.panel = ""
        asks = self.feed.asks if self.feed is not None else {}
        shown = view.last if self.panel == "last" else view.table
        seats = {}
        for seat in range(4):
            code = shown.cards[seat]
            ask = asks.get(seat)
            ask_text = ""
            if ask is not None and self.panel != "last":
                ask_text = (_("Already played: {card}").format(card=card_text(ask.card).replace("\n", " "))
                            if ask.reason == "played" else _("Taken unseen: tap to name it")
                            if ask.reason == "taken" else _("Show the card again"))
            seats[seat] = {"text": card_text(code), "card": code or "", "name": player_name(state, seat),
                           "ask": ask_text, "turn": seat == view.to_play and self.panel != "last",
                           "won": shown.winner == seat, "bg": card_colour(code)}
        self.seats = seats
        for seat in range(4):
            self.ids[f"seat{seat}"].info = seats[seat]
        self.status = self._status(view, state)
        self._panel(view, state)

    def _status(self, view, state) -> str:
        if self.panel == "last" and view.last is not None:
            return _("Last trick ({n}): won by {name}").format(n=view.last.number,
                                                                 name=player_name(state, view.last.winner))
        if view.complete:
            return _("All 12 tricks played")
        return _("{name} plays").format(name=player_name(state, view.to_play))

    def _panel(self, view, state) -> None:
        """The renunci question or the cards to pick from, in the place of the table."""
        box = self.ids.panel
        box.clear_widgets()
        if box.size_hint_y is None:
            box.height = 0  # hidden: no room (while shown, the layout stretched it)
        if self.panel == "renunci" and view.renunci is not None:
            r = view.renunci
            self.renunci_seat, self.renunci_cards = r.seat, [r.card, r.proof_card]
            self.renunci_note = _("Renunci? {name} played {card} in trick {trick}, and later {proof} "
                                  "in trick {ptrick}").format(
                name=player_name(state, r.seat), card=card_text(r.card).replace("\n", " "), trick=r.trick,
                proof=card_text(r.proof_card).replace("\n", " "), ptrick=r.proof_trick)
            box.add_widget(self._renunci)
        elif self.panel == "pick":
            self.pick_question = _("Which card is at {name}'s place?").format(
                name=player_name(state, self.pick_seat))
            self.ids.pick_cards.clear_widgets()
            self.ids.pick_cards.add_widget(self._pick_grid(view))
            box.add_widget(self._pick)

    def _pick_grid(self, view):
        """Every card of the deck, those already played greyed."""
        from kivy.uix.gridlayout import GridLayout
        u = self.app.u
        played = {c for t in view.tricks for c in t.cards if c} | {c for c in view.table.cards if c}
        grid = GridLayout(spacing=u * 2)

        def card(rank: int, suit: Suit) -> KButton:
            code = Card(rank, suit).code
            b = KButton(text=str(rank), action=f"pick_{code}", color_bg=card_colour(code),
                        font_size=u * 18, disabled=code in played)
            b.bind(on_release=lambda w: self.pick(w.action[5:]))
            return b

        if self.height > self.width:  # portrait: a column per suit, the ranks down
            grid.cols = 4
            for suit in SUITS:
                grid.add_widget(SuitIcon(suit=suit.catalan, size_hint_y=0.6))
            for rank in range(1, 13):
                for suit in SUITS:
                    grid.add_widget(card(rank, suit))
        else:  # a row per suit, its icon first
            grid.cols = 13
            for suit in SUITS:
                grid.add_widget(SuitIcon(suit=suit.catalan, size_hint_x=0.6))
                for rank in range(1, 13):
                    grid.add_widget(card(rank, suit))
        return grid

    # ------------------------------------------------------------------ actions
    def tap_seat(self, seat: int) -> None:
        """A seat's card tapped: name the card asked about there (or the one to play)."""
        view = self.session.state.tricks
        if view is None or self.panel == "last":
            return
        if seat in (self.feed.asks if self.feed else {}) or seat == view.to_play:
            self.open_pick(seat, "answer")

    def open_pick(self, seat: int, purpose: str) -> None:
        self.pick_seat, self.pick_for, self.panel = seat, purpose, "pick"
        self.refresh()

    def pick(self, code: str) -> None:
        seat, purpose = self.pick_seat, self.pick_for
        self.panel = ""
        if purpose == "dismiss":
            self.app.act(self.session.trick_play.dismiss_renunci, code)
        elif self.feed is not None:
            self.app.act(self.feed.answer, seat, code)
        self.refresh()

    def on_size(self, *_) -> None:
        if self.panel == "pick":  # turned: the cards laid out again for the new shape
            self.refresh()

    def toggle_last(self) -> None:
        self.panel = "" if self.panel == "last" else "last"
        self.refresh()

    def back(self) -> None:
        if self.panel in ("pick", "last"):
            self.panel = ""
            self.refresh()
