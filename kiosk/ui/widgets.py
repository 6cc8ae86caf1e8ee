"""Shared widgets: big buttons, suit buttons, the seat diagram and score-sheet rows."""

from __future__ import annotations

import re
from pathlib import Path

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.ui import theme
from kiosk.ui.icons import SuitIcon  # noqa: F401  (registered for kv)

Builder.load_file(str(Path(__file__).with_name("widgets.kv")))


class KButton(Button):
    """A big, high-contrast button (at least 9 mm on the Pi screen)."""
    color_bg = ListProperty(theme.BUTTON)
    selected = BooleanProperty(False)
    action = StringProperty("")


class KLabel(Label):
    pass


class SuitButton(ButtonBehavior, BoxLayout):
    action = StringProperty("")
    suit = StringProperty("")
    text = StringProperty("")
    color_bg = ListProperty(theme.BUTTON)
    selected = BooleanProperty(False)


class TotalBox(BoxLayout):
    team = StringProperty("A")
    name = StringProperty("")
    total = NumericProperty(0)
    progress = NumericProperty(0)


class SeatDiagram(Widget):
    """Four seats around the table; badges for who deals (R), shuffles (B), cuts (T), leads (S).

    Seats go counter-clockwise in playing order (the next player is on the right):
    seat 0 at the bottom, 1 on the right, 2 at the top, 3 on the left.
    """
    names = ListProperty(["", "", "", ""])
    roles = DictProperty({})
    labels = DictProperty({})  # role -> short translated word
    u = NumericProperty(1)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._labels: list[Label] = [Label(halign="center", valign="middle", markup=True) for _ in range(4)]
        for lab in self._labels:
            self.add_widget(lab)
        self.bind(pos=self.redraw, size=self.redraw, names=self.redraw, roles=self.redraw,
                  labels=self.redraw, u=self.redraw)

    def seat_center(self, seat: int) -> tuple[float, float]:
        """Each label against its own edge: the top and bottom seats' in a band of their own,
        the side seats' in the middle between those bands, so no two labels overlap however
        their names wrap (the table is drawn in what is left between them)."""
        bottom, right, top, left = self._labels
        m = 4 * self.u
        low, high = self.y + m + bottom.height, self.top - m - top.height
        middle = (low + high) / 2
        return [(self.center_x, self.y + m + bottom.height / 2), (self.right - m - right.width / 2, middle),
                (self.center_x, self.top - m - top.height / 2), (self.x + m + left.width / 2, middle)][seat]

    def redraw(self, *_):
        # the labels first: their places, the table and the dealer's frame follow their size.
        # Name over badge; when the three bands (top, sides, bottom) do not fit the height
        # (a short diagram, in portrait) the top and bottom seats say theirs on one line
        # across the width, which they have to themselves.
        smallest = theme.MIN_FONT * self.u
        fs = max(smallest, min(self.height * 0.1, self.width * 0.065))
        for joined in (False, True):
            for seat, lab in enumerate(self._labels):
                self._fit_label(seat, lab, fs, smallest, joined=joined and seat % 2 == 0)
            bottom, right, top, left = self._labels
            if bottom.height + top.height + max(left.height, right.height) + 12 * self.u <= self.height:
                break
        self._place()

    def _fit_label(self, seat: int, lab: Label, fs: float, smallest: float, *, joined: bool) -> None:
        team = "A" if seat % 2 == 0 else "B"
        badges = [self.labels.get(role, role) for role in ("dealer", "shuffler", "cutter", "first_lead")
                  if self.roles.get(role) == seat]
        hexcol = "".join(f"{int(c * 255):02x}" for c in theme.TEAM[team][:3])
        text = f"[b][color={hexcol}]{self.names[seat] if seat < len(self.names) else ''}[/color][/b]"
        if badges:
            text += (" · " if joined else "\n") + "[color=ffe14d]" + " · ".join(badges) + "[/color]"
        lab.text = text
        # as wide as its longest word needs at the smallest text, so no word is broken
        # (a joined top or bottom label: the whole width)
        room = self.width - 8 * self.u if joined else max(self.width * 0.42, self._widest_word(text, smallest))
        lab.font_size = fs
        lab.text_size = (room, None)  # measured unbounded, then boxed round its lines
        lab.texture_update()
        # A long name wraps onto a second line: smaller letters until name and badge fit
        # a third of the height, never below the kiosk's smallest text
        while lab.texture_size[1] > self.height * 0.3 and lab.font_size * 0.9 >= smallest:
            lab.font_size *= 0.9
            lab.texture_update()
        lines = getattr(lab._label, "_cached_lines", None) or []
        lab.size = (max((line.w for line in lines), default=0) + 2 * self.u, lab.texture_size[1])
        lab.text_size = lab.size

    def _place(self) -> None:
        for seat, lab in enumerate(self._labels):
            lab.center = self.seat_center(seat)
        self.canvas.before.clear()
        bottom, right, top, left = self._labels
        m = 4 * self.u
        cx, cy = self.center_x, (bottom.top + top.y) / 2
        tw = max(0.0, min(self.width * 0.34, right.x - left.right - 2 * m))
        th = max(0.0, min(self.height * 0.36, top.y - bottom.top - 2 * m))
        with self.canvas.before:
            Color(0.10, 0.35, 0.18, 1)
            RoundedRectangle(pos=(cx - tw / 2, cy - th / 2), size=(tw, th), radius=[min(8 * self.u, th / 2)])
            dealer = self.roles.get("dealer")
            if dealer is not None:
                lab = self._labels[dealer]
                # round the dealer's name and badge
                x, y, w, h = lab.x - 3 * self.u, lab.y - 2 * self.u, lab.width + 6 * self.u, lab.height + 4 * self.u
                Color(1.0, 0.85, 0.25, 0.22)
                RoundedRectangle(pos=(x, y), size=(w, h), radius=[6 * self.u])
                Color(*theme.SELECTED)
                Line(rounded_rectangle=(x, y, w, h, 6 * self.u), width=1.5 * self.u)

    @staticmethod
    def _widest_word(text: str, font_size: float) -> float:
        from kivy.core.text.markup import MarkupLabel
        widest = 0.0
        for line in text.split("\n"):
            bold = "[b]" in line
            plain = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", line)
            for word in plain.split():
                core = MarkupLabel(text=word, font_size=font_size, bold=bold)
                core.refresh()
                widest = max(widest, core.content_width + 2)
        return widest


class Banner(Label):
    """The message strip across the top of every screen. It is always there, empty when there
    is nothing to say, so no control moves when a message comes or goes and none lies under
    it. One line: a long message in smaller letters, down to the kiosk's smallest
    (theme.MIN_FONT), and beyond that shortened with its whole text one tap away
    (``on_expand``: the app lays a MessagePanel over the screen). A tap on a whole message
    dismisses it (``on_dismiss``). Either tap goes no further."""

    __events__ = ("on_dismiss", "on_expand")
    message = StringProperty("")  # the whole message (``text`` is it on one line)
    shortened = BooleanProperty(False)  # the strip shows the start of it: the rest is a tap away

    def show(self, message: str) -> None:
        self.message = message
        self.text = "  ·  ".join(line.strip() for line in message.split("\n") if line.strip())

    def fit(self, largest: float, smallest: float) -> None:
        """The largest letters (``largest`` down to ``smallest`` px) that hold the message on
        one line; at ``smallest`` a longer one is shortened at a word (``shortened``)."""
        self.shorten, self.text_size, self.font_size = False, (None, None), largest
        room = self.width - 2 * self.padding_x
        self.texture_update()
        while self.texture_size[0] > room and self.font_size > smallest:
            self.font_size = max(smallest, self.font_size * 0.92)
            self.texture_update()
        self.shortened = bool(self.text) and self.texture_size[0] > room
        if self.shortened:
            self.shorten, self.text_size = True, (room, None)
        self.texture_update()

    def on_touch_down(self, touch):
        if self.text and self.collide_point(*touch.pos):
            self.dispatch("on_expand" if self.shortened else "on_dismiss")
            return True
        return super().on_touch_down(touch)

    def on_dismiss(self) -> None:
        pass

    def on_expand(self) -> None:
        pass


class MessagePanel(ButtonBehavior, Label):
    """A long message's whole text, laid over the screen below the strip when its shortened
    strip is tapped; a tap on it closes it (it is a button: the tap guard holds it for a
    moment after it appears, so the second touch of a double tap does not close it)."""
    action = StringProperty("message")


class SheetRow(ButtonBehavior, BoxLayout):
    """One hand on the paper-style score sheet (tap it to edit the hand)."""
    index = NumericProperty(0)
    number = StringProperty("")
    suit = StringProperty("")
    trump = StringProperty("")
    delegated = StringProperty("")
    doubling = StringProperty("")
    points = StringProperty("")
    scored_a = StringProperty("")
    scored_b = StringProperty("")
    total_a = StringProperty("")   # the running total after this hand, as on paper
    total_b = StringProperty("")
    header = BooleanProperty(False)
    misdeal = BooleanProperty(False)  # nobody scored: the word takes trump, doubling and points
