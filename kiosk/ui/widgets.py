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
        cx, cy = self.center
        # a side seat's label stays inside the diagram (a narrow one, in portrait)
        side = max((lab.width for lab in self._labels), default=0)
        dx, dy = min(self.width * 0.33, (self.width - side) / 2), self.height * 0.34
        return [(cx, cy - dy), (cx + dx, cy), (cx, cy + dy), (cx - dx, cy)][seat]

    def redraw(self, *_):
        # the labels first: the side seats' places and the dealer's frame follow their size
        smallest = theme.MIN_FONT * self.u
        fs = max(smallest, min(self.height * 0.1, self.width * 0.065))
        for seat, lab in enumerate(self._labels):
            team = "A" if seat % 2 == 0 else "B"
            badges = [self.labels.get(role, role) for role in ("dealer", "shuffler", "cutter", "first_lead")
                      if self.roles.get(role) == seat]
            hexcol = "".join(f"{int(c * 255):02x}" for c in theme.TEAM[team][:3])
            text = f"[b][color={hexcol}]{self.names[seat] if seat < len(self.names) else ''}[/color][/b]"
            if badges:
                text += "\n[color=ffe14d]" + " · ".join(badges) + "[/color]"
            lab.text = text
            # as wide as its longest word needs at the smallest text, so no word is broken
            lab.size = (max(self.width * 0.42, self._widest_word(text, smallest)), self.height * 0.3)
            lab.font_size = fs
            lab.text_size = (lab.width, None)  # measured unbounded, then placed in its box
            lab.texture_update()
            # A long name wraps onto a second line: smaller letters until name and badge fit,
            # never below the kiosk's smallest text (then the label grows instead)
            while lab.texture_size[1] > lab.height and lab.font_size * 0.9 >= smallest:
                lab.font_size *= 0.9
                lab.texture_update()
            lab.height = max(lab.height, lab.texture_size[1])
            lab.text_size = lab.size
        for seat, lab in enumerate(self._labels):
            lab.center = self.seat_center(seat)
        self.canvas.before.clear()
        cx, cy = self.center
        tw, th = self.width * 0.34, self.height * 0.36
        with self.canvas.before:
            Color(0.10, 0.35, 0.18, 1)
            RoundedRectangle(pos=(cx - tw / 2, cy - th / 2), size=(tw, th), radius=[8 * self.u])
            dealer = self.roles.get("dealer")
            if dealer is not None:
                x, y = self.seat_center(dealer)
                lab = self._labels[dealer]
                # round the dealer's name and badge, a longest word included
                w = min(lab.width, max(self.width * 0.30, self._widest_word(lab.text, lab.font_size) + 8 * self.u))
                h = max(self.height * 0.28, lab.texture_size[1] + 4 * self.u)
                Color(1.0, 0.85, 0.25, 0.22)
                RoundedRectangle(pos=(x - w / 2, y - h / 2), size=(w, h), radius=[6 * self.u])
                Color(*theme.SELECTED)
                Line(rounded_rectangle=(x - w / 2, y - h / 2, w, h, 6 * self.u), width=1.5 * self.u)

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
