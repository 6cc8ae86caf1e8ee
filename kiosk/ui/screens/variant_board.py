"""The scoreboard of a game without pairs (four each for himself, three, rector i vicari):
one large total per player (negatives with a minus sign), the seats around the table with
the dealer framed, and what may be said now: the trumps, contro (only where the game
allows it), then the points, a renunci or a misdeal.

The bar's buttons are declared once in variant_board.kv; ``refresh`` reads the state's
legal bids into the properties they follow (shown or not), and each calls the session's
action through ``app.act``."""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.graphics import Color, Line, RoundedRectangle

from kiosk.game import BidKind, Phase
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.screens.base import KioskScreen, level_name, load_kv, player_name, trump_name
from kiosk.ui import buttonbar, toolicons  # noqa: F401  (ButtonBar, BarButton, TrumpButton; ToolButton for kv)

load_kv(__file__)

# one colour per seat (the pair game's two, then two more that read on the dark panel)
SEAT_COLOURS = (theme.TEAM["A"], theme.TEAM["B"], (0.55, 0.92, 0.45, 1), (1.0, 0.60, 0.80, 1))
GAME_NAMES = {"pairs": N_("In pairs"), "four_individual": N_("Each for himself"),
              "three": N_("Three players"), "two": N_("Rector i vicari")}
# where each seat sits around the table (fractions of the diagram), the next one on the right
SEAT_PLACES = {2: ((0.5, 0.14), (0.5, 0.86)),
               3: ((0.5, 0.14), (0.81, 0.7), (0.19, 0.7)),
               4: ((0.5, 0.14), (0.81, 0.5), (0.5, 0.86), (0.19, 0.5))}


def signed(n: int) -> str:
    """A total as the table reads it: −12 with a real minus sign, never a bare 12."""
    return f"\u2212{-n}" if n < 0 else str(n)


class SeatSheetRow(ButtonBehavior, BoxLayout):
    """One hand on the sheet of a game without pairs (tap it to edit the hand, on the table's
    own match)."""
    action = StringProperty("")


def seat_sheet_cells(players: list[str], rows) -> list[list[str]]:
    """What each line of a game without pairs' hand sheet says (its heading first): #,
    trump, ×, then each player's running total after the hand (a minus sign for a loss)."""
    out = [["#", _("Trump"), "×", *players]]
    for r in rows:
        trump = _("Misdeal") if r.kind == "misdeal" else trump_name(r.trump)
        if r.kind == "penalty":
            trump += " · " + _("Penalty")
        out.append([str(r.number), trump, f"×{r.multiplier}" if r.multiplier > 1 else "",
                    *(signed(t) for t in r.totals)])
    return out


def seat_sheet_line(index: int, header: bool, cells: list[str], u: float, *, on_tap=None) -> BoxLayout:
    """One line of the hand sheet of a game without pairs (History), the heading naming
    the players in their seat colours. ``on_tap(index)``: a hand's line tapped."""
    from kivy.factory import Factory

    box = (BoxLayout if header else SeatSheetRow)(size_hint_y=None, height=u * (34 if header else 48),
                                                  spacing=u * 2)
    if on_tap is not None and not header:
        box.action = f"hand_{index + 1}"
        box.bind(on_release=lambda w, i=index: on_tap(i))
    shade = (0.20, 0.23, 0.29, 1) if header else ((0.16, 0.18, 0.23, 1) if index % 2 else (0.11, 0.12, 0.16, 1))
    with box.canvas.before:
        Color(*shade)
        back = RoundedRectangle(pos=box.pos, size=box.size, radius=[0])
    box.bind(pos=lambda w, v: setattr(back, "pos", v), size=lambda w, v: setattr(back, "size", v))
    share = 0.56 / max(1, len(cells) - 3)
    for col, text in enumerate(cells):
        cell = Factory.SheetCell(text=text, size_hint_x=(0.08, 0.26, 0.10)[col] if col < 3 else share)
        cell.font_size = u * (theme.MIN_FONT if header or col == 1 else 18)
        if col >= 3:
            cell.color = SEAT_COLOURS[col - 3]
            cell.bold = not header
        elif col == 0:
            cell.color = theme.MUTED
        box.add_widget(cell)
    return box


def fill_seat_sheet(box, players: list[str], rows, u: float, *, on_tap=None) -> None:
    """The hand sheet of a game without pairs in ``box`` (``seat_sheet_line``), the lines
    already there given their new words in place, the missing ones added, those left over
    taken away. The caller empties ``box`` first when its lines were built for other
    players, another unit or another ``on_tap``."""
    lines = seat_sheet_cells(players, rows)
    shown = list(reversed(box.children))
    for line, cells in zip(shown, lines):
        for cell, text in zip(reversed(line.children), cells):
            if cell.text != text:
                cell.text = text
    for line in shown[len(lines):]:
        box.remove_widget(line)
    for n, cells in enumerate(lines[len(shown):], start=len(shown)):
        box.add_widget(seat_sheet_line(max(0, n - 1), n == 0, cells, u, on_tap=on_tap))


def seat_name(state, seat: int) -> str:
    return player_name(state, seat)


class SeatTotal(BoxLayout):
    """One player's total, as large as its box allows."""
    name = StringProperty("")
    total = StringProperty("0")
    colour = ListProperty(list(theme.TEXT))
    dealer = NumericProperty(0)


def fitted_font(text: str, width: float, height: float, largest: float, least: float) -> float:
    """The largest bold font (down to ``least``) at which ``text`` fits ``width`` x ``height``
    wrapped at its spaces, no word broken."""
    from kivy.core.text import Label as CoreLabel
    size = max(least, largest)
    while True:
        core = CoreLabel(font_size=size, bold=True)
        space = core.get_extents(" ")[0]
        lines, line, widest = 1, 0.0, 0.0
        for word in text.split():
            w, line_h = core.get_extents(word)
            widest = max(widest, w)
            if line and line + space + w > width:
                lines, line = lines + 1, w
            else:
                line = line + space + w if line else w
        line_h = core.get_extents("Ag")[1]
        if (widest <= width and lines * line_h <= height) or size <= least:
            return size
        size -= 1


class SeatRing(Widget):
    """The table from above with 2, 3 or 4 seats; the dealer's name framed. A name wraps at
    its spaces and its font shrinks to fit (never cut)."""
    names = ListProperty([])
    dealer = NumericProperty(-1)
    u = NumericProperty(1)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._labels: list[Label] = []
        self.bind(pos=self.redraw, size=self.redraw, names=self.redraw, dealer=self.redraw, u=self.redraw)

    def redraw(self, *_):
        n = len(self.names)
        while len(self._labels) < n:
            lab = Label(halign="center", valign="middle", bold=True)
            self._labels.append(lab)
            self.add_widget(lab)
        while len(self._labels) > n:
            self.remove_widget(self._labels.pop())
        self.canvas.before.clear()
        places = SEAT_PLACES.get(n, ())
        cx, cy = self.center
        table_w, table_h = self.width * 0.24, self.height * 0.4
        with self.canvas.before:
            Color(0.10, 0.35, 0.18, 1)
            RoundedRectangle(pos=(cx - table_w / 2, cy - table_h / 2), size=(table_w, table_h),
                             radius=[8 * self.u])
        largest = max(theme.MIN_FONT * self.u, min(self.height * 0.11, self.width * 0.07))
        boxes = []
        for place in places:
            # beside the table: from the edge to the table; above or below it: the whole width
            side = place[0] != 0.5
            boxes.append((self.width * (0.37 if side else 0.94), self.height * (0.4 if side else 0.27)))
        fs = min((fitted_font(name, w, h, largest, theme.MIN_FONT * self.u)
                  for name, (w, h) in zip(self.names, boxes)), default=largest)
        for seat, (lab, place, box) in enumerate(zip(self._labels, places, boxes)):
            lab.text = self.names[seat]
            lab.color = SEAT_COLOURS[seat]
            lab.font_size = fs
            lab.size = box
            lab.text_size = box
            lab.shorten = False
            lab.center = (self.x + self.width * place[0], self.y + self.height * place[1])
            if seat == self.dealer:
                with self.canvas.before:
                    Color(*theme.SELECTED)
                    Line(rounded_rectangle=(lab.x, lab.y, lab.width, lab.height, 6 * self.u),
                         width=1.5 * self.u)


def seat_names(state) -> list[str]:
    """Every player's name (or seat word), by seat, in a game without pairs."""
    return [seat_name(state, s) for s in range(state.game.seats)]


def fill_totals(boxes, state, *, marked: int | None) -> None:
    """One large total per player of ``state``'s game in ``boxes`` (built once per player
    count, then changed in place); ``marked`` lights one seat (the dealer on the board, the
    winner at the end)."""
    names, totals = seat_names(state), state.game.totals
    if len(boxes.children) != len(names):
        boxes.clear_widgets()
        for seat in range(len(names)):
            boxes.add_widget(SeatTotal(colour=list(SEAT_COLOURS[seat])))
    for seat, box in enumerate(reversed(boxes.children)):
        box.name = names[seat]
        box.total = signed(totals[seat])
        box.dealer = int(seat == marked)


class VariantBoardScreen(KioskScreen):
    status = StringProperty("")
    contract_text = StringProperty("")
    undone_text = StringProperty("")
    seats = NumericProperty(3)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    # what may be said now (the bar's buttons in variant_board.kv follow these)
    trumps = ListProperty([])  # the trumps the dealer may name
    double_level = StringProperty("")  # the doubling level that can be said now, and by whom:
    doublers = ListProperty(["", "", "", ""])  # per seat, its button's words ("" not offered)
    scoring = BooleanProperty(False)  # trump named: the hand can be scored
    camera = BooleanProperty(False)  # the kiosk has a camera to read every player's pile
    # the second touch awaited, as on the pair game's scoreboard: "undo" (a scored hand or a
    # misdeal), "abandon" (New match while the game is played); the question it shows
    asking = StringProperty("")
    question = StringProperty("")

    def refresh(self) -> None:
        state = self.session.state
        game = state.game
        if game is None:
            return
        self.seats = game.seats
        if self.asking:  # (the language may have changed; a question no longer true goes)
            self.question = self._question()
            if not self.question:
                self.asking = ""
        self.can_undo, self.can_redo = state.can_undo, state.can_redo
        names = seat_names(state)
        fill_totals(self.ids.totals, state, marked=game.dealer)
        self.ids.ring.names = names
        self.ids.ring.dealer = game.dealer
        self.status = _("Hand {n} · {dealer} deals").format(n=state.hand_number, dealer=names[game.dealer]) \
            + (" · " + _("to {target}").format(target=game.target) if game.target else "")
        c = state.contract
        self.contract_text = "" if c.trump is None else " · ".join(
            t for t in (trump_name(c.trump), level_name(c.doubling),
                        "×{m}".format(m=c.multiplier)) if t)
        undone = state.last_undone
        what = (_("the misdeal of hand {n}") if undone is not None and undone.kind == "misdeal"
                else _("hand {n}"))  # a misdeal undone says so, as the pair game's question does
        self.undone_text = _("Undone: {what}").format(what=what.format(n=undone.hand_number)) \
            if undone is not None and undone.hand_number and undone.kind in ("hand", "misdeal") else ""
        bids = state.bids
        self.trumps = list(bids.trumps) if state.phase is Phase.CHOOSE_TRUMP else []
        doubles = {bid.seat: bid.level.key for bid in bids.events if bid.kind is BidKind.DOUBLE}
        self.double_level = next(iter(doubles.values()), "")
        self.doublers = [f"{level_name(doubles[seat])}: {names[seat]}" if seat in doubles else ""
                         for seat in range(4)]
        self.scoring = c.trump is not None
        self.camera = self.app.camera_factory is not None  # every player's pile under the camera

    def on_leave(self, *args):
        self.asking = ""

    def on_asking(self, *args) -> None:
        self.question = self._question()

    def _question(self) -> str:
        if self.asking == "abandon":
            return _("Leave the match in play? It stays in History, to resume.")
        if self.asking != "undo":
            return ""
        preview = self.session.undo_preview()
        if preview is None or preview.kind not in ("hand", "misdeal"):
            return ""
        what = _("the misdeal of hand {n}") if preview.kind == "misdeal" else _("hand {n}")
        return _("Undo {what}?").format(what=what.format(n=preview.hand_number))

    # ------------------------------------------------------------------ the top row's actions
    def undo(self) -> None:
        """A scored hand (or a misdeal) is undone only on a second touch, at another place:
        Yes at the left, No where Undo was (a double tap on Undo never undoes)."""
        preview = self.session.undo_preview()
        if preview is not None and preview.kind in ("hand", "misdeal"):
            self.asking = "undo"
        else:
            self.app.act(self.session.undo)

    def new_match(self) -> None:
        """The game in play is left only on a second touch (it stays in History)."""
        self.asking = "abandon"

    def yes(self) -> None:
        asking, self.asking = self.asking, ""
        if asking == "undo":
            self.app.act(self.session.undo)
        elif asking == "abandon":
            self.app.act(self.session.open_new_match)

    def never_mind(self) -> None:
        """No to the question asked."""
        self.asking = ""

    def on_undo_button(self):
        """The UNDO button (or Backspace) asks like the Undo touch does."""
        if self.asking == "undo":
            self.yes()
        elif self.session.state.can_undo:
            self.undo()
        return True

    def on_confirm_button(self):
        if self.session.state.contract.trump is not None:
            self.app.act(self.session.begin_score, "points")
        return True
