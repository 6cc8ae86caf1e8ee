"""A bar of buttons declared once in kv, each saying when it is shown.

A screen's kv lists every button its bar can hold, in their order, each with ``shown``
bound to the screen's state (``shown: root.bar == 'playing'``). Only the shown ones are
in the bar, so a hidden button takes no room, no spacing and no touch. A place that must
stay where a button is not offered now (so that a second tap never lands on its
neighbour) is a :class:`BarSpace` shown instead of it.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk.ui.widgets import KButton, KLabel, SuitButton

Builder.load_file(str(Path(__file__).with_name("buttonbar.kv")))


class BarButton(KButton):
    """A button of an :class:`ButtonBar`: in the bar while ``shown``."""
    shown = BooleanProperty(True)


class TrumpButton(SuitButton):
    """A trump in a bar (``trump`` is its key): its suit and its name; in the bar while
    ``shown``. The screen names its ``action``."""
    trump = StringProperty("")
    shown = BooleanProperty(True)


class BarNote(KLabel):
    """A sentence in an :class:`ButtonBar` (a question between its Yes and its No)."""
    shown = BooleanProperty(True)


class BarSpace(Widget):
    """An empty place in an :class:`ButtonBar`, kept while ``shown`` where a button is not
    offered now: the buttons beside it never move."""
    shown = BooleanProperty(True)


class ButtonBar(GridLayout):
    """The shown ones of the widgets declared in it (each with a ``shown`` property:
    buttons, notes, spaces), in their declared order.
    ``count`` is how many are shown (kv folds a long bar onto two rows with it)."""
    count = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        self._declared: list[Widget] = []
        super().__init__(**kwargs)

    def add_widget(self, widget, *args, **kwargs) -> None:
        if widget not in self._declared:
            self._declared.append(widget)
            widget.bind(shown=self._arrange)
        self._arrange()

    def _arrange(self, *args) -> None:
        shown = [w for w in self._declared if w.shown]
        if shown == self.children[::-1]:
            return
        super().clear_widgets()
        for widget in shown:
            super().add_widget(widget)
        self.count = len(shown)
