"""Suit icons drawn by the project with Kivy canvas instructions (no image files):
oros (a coin), copes (a cup), espases (a sword), bastos (a club) and botifarra (a sausage,
the no-trump choice)."""

from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from kiosk.ui import theme


class SuitIcon(Widget):
    suit = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, suit=self.redraw)
        self.redraw()

    def redraw(self, *_):
        self.canvas.clear()
        draw = getattr(self, f"_draw_{self.suit}", None)
        if draw is None:
            return
        s = min(self.width, self.height) * 0.9
        cx, cy = self.center
        with self.canvas:
            draw(cx, cy, s)

    @staticmethod
    def _draw_oros(cx, cy, s):
        r = s / 2
        Color(*theme.SUIT["oros"])
        Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Color(0.55, 0.38, 0.02, 1)
        Line(circle=(cx, cy, r * 0.72), width=max(1.0, s * 0.04))
        Ellipse(pos=(cx - r * 0.22, cy - r * 0.22), size=(r * 0.44, r * 0.44))

    @staticmethod
    def _draw_copes(cx, cy, s):
        Color(*theme.SUIT["copes"])
        top, bowl = cy + s * 0.45, cy - s * 0.02
        w = s * 0.44
        # bowl: a trapezoid rounded below
        Mesh(vertices=[cx - w, top, 0, 0, cx + w, top, 0, 0, cx + w * 0.55, bowl, 0, 0,
                       cx - w * 0.55, bowl, 0, 0], indices=[0, 1, 2, 3], mode="triangle_fan")
        Ellipse(pos=(cx - w * 0.55, bowl - s * 0.12), size=(w * 1.1, s * 0.24))
        Rectangle(pos=(cx - s * 0.05, cy - s * 0.35), size=(s * 0.10, s * 0.3))
        Ellipse(pos=(cx - s * 0.28, cy - s * 0.48), size=(s * 0.56, s * 0.16))
        Color(1, 0.85, 0.3, 1)
        Line(points=[cx - w, top, cx + w, top], width=max(1.0, s * 0.03))

    @staticmethod
    def _draw_espases(cx, cy, s):
        Color(*theme.SUIT["espases"])
        # blade with a point
        bw = s * 0.07
        Mesh(vertices=[cx - bw, cy - s * 0.22, 0, 0, cx + bw, cy - s * 0.22, 0, 0,
                       cx + bw, cy + s * 0.36, 0, 0, cx, cy + s * 0.5, 0, 0,
                       cx - bw, cy + s * 0.36, 0, 0], indices=[0, 1, 2, 3, 4], mode="triangle_fan")
        Color(0.85, 0.70, 0.20, 1)
        Rectangle(pos=(cx - s * 0.28, cy - s * 0.28), size=(s * 0.56, s * 0.08))  # cross-guard
        Rectangle(pos=(cx - s * 0.045, cy - s * 0.46), size=(s * 0.09, s * 0.2))  # grip
        Ellipse(pos=(cx - s * 0.08, cy - s * 0.52), size=(s * 0.16, s * 0.12))  # pommel

    @staticmethod
    def _draw_bastos(cx, cy, s):
        Color(*theme.SUIT["bastos"])
        # a knobbly club, wider at the top, slanted
        x0, y0, x1, y1 = cx - s * 0.22, cy - s * 0.46, cx + s * 0.18, cy + s * 0.40
        Line(points=[x0, y0, x1, y1], width=max(2.0, s * 0.09), cap="round")
        Ellipse(pos=(x1 - s * 0.16, y1 - s * 0.14), size=(s * 0.30, s * 0.26))
        Color(0.20, 0.50, 0.20, 1)
        for t in (0.35, 0.6, 0.82):
            kx, ky = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            Ellipse(pos=(kx - s * 0.07, ky - s * 0.05), size=(s * 0.11, s * 0.1))

    @staticmethod
    def _draw_botifarra(cx, cy, s):
        Color(*theme.SUIT["botifarra"])
        RoundedRectangle(pos=(cx - s * 0.48, cy - s * 0.16), size=(s * 0.96, s * 0.32),
                         radius=[s * 0.16])
        Color(0.95, 0.88, 0.80, 1)
        for dx, dy in ((-0.25, 0.04), (-0.05, -0.05), (0.15, 0.06), (0.32, -0.03)):
            Ellipse(pos=(cx + s * dx - s * 0.03, cy + s * dy - s * 0.03), size=(s * 0.06, s * 0.06))
        Color(0.55, 0.30, 0.20, 1)
        Line(points=[cx - s * 0.48, cy, cx - s * 0.56, cy + s * 0.08], width=max(1.0, s * 0.03))
        Line(points=[cx + s * 0.48, cy, cx + s * 0.56, cy + s * 0.08], width=max(1.0, s * 0.03))
