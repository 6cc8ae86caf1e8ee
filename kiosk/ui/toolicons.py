"""Small tool buttons whose icon is drawn with canvas instructions (the default font has
no gear glyph): a gear (settings) and a ruled sheet (match history)."""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.properties import StringProperty

from kiosk.ui import theme
from kiosk.ui.widgets import KButton

class ToolButton(KButton):
    """A KButton showing a drawn icon (``icon``: "gear" or "sheet") instead of text."""
    icon = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, icon=self.redraw)
        self.redraw()

    def redraw(self, *_):
        self.canvas.after.clear()
        draw = getattr(self, f"_draw_{self.icon}", None)
        if draw is None:
            return
        with self.canvas.after:
            Color(*theme.TEXT)
            draw(self.center_x, self.center_y, min(self.width, self.height) * 0.6)

    @staticmethod
    def _draw_gear(cx, cy, s):
        outer, inner, teeth = s * 0.48, s * 0.36, 8
        vertices, indices = [cx, cy, 0, 0], [0]
        steps = teeth * 4
        for i in range(steps + 1):
            a = 2 * math.pi * i / steps + math.pi / steps
            r = outer if (i % 4) in (0, 1) else inner
            vertices += [cx + r * math.cos(a), cy + r * math.sin(a), 0, 0]
            indices.append(i + 1)
        Mesh(vertices=vertices, indices=indices, mode="triangle_fan")
        Color(*theme.BUTTON)
        hole = s * 0.15
        Ellipse(pos=(cx - hole, cy - hole), size=(2 * hole, 2 * hole))

    @staticmethod
    def _draw_sheet(cx, cy, s):
        w, h = s * 0.7, s * 0.9
        x, y = cx - w / 2, cy - h / 2
        Line(rectangle=(x, y, w, h), width=max(1.0, s * 0.05))
        for k in range(1, 5):
            yy = y + h * k / 5
            Rectangle(pos=(x + w * 0.15, yy - s * 0.02), size=(w * 0.7, s * 0.04))
