"""The drawn deck's two styles (colours, fonts), the pen that draws in mm, and the four
suit signs (coin, cup, sword, club). Split from :mod:`tests.realcam.deck`, which composes
the faces and backs from these.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.game import Suit

STYLES = ("fournier", "moderna")
_SHIFT = 4  # OpenCV sub-pixel bits: shapes land where the mm say, not on whole pixels
_ONE = 1 << _SHIFT
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DeckStyle:
    """Colours and fonts of one deck design."""

    paper: BGR
    frame: BGR
    frame_mm: float  # frame line inset from the edge
    double_frame: bool
    font: int
    rank_colour_by_suit: bool
    ink: BGR  # outlines
    gold: BGR
    red: BGR
    blue: BGR
    green: BGR
    brown: BGR
    skin: BGR
    hatch: bool
    back_main: BGR
    back_line: BGR


_STYLES: dict[str, DeckStyle] = {
    "fournier": DeckStyle(paper=(214, 236, 246), frame=(40, 40, 190), frame_mm=4.0, double_frame=False,
                          font=cv2.FONT_HERSHEY_COMPLEX, rank_colour_by_suit=False, ink=(20, 20, 30),
                          gold=(30, 185, 235), red=(40, 40, 200), blue=(170, 100, 30), green=(50, 130, 40),
                          brown=(30, 70, 120), skin=(150, 190, 235), hatch=False,
                          back_main=(50, 40, 165), back_line=(215, 225, 240)),
    "moderna": DeckStyle(paper=(236, 236, 232), frame=(60, 30, 20), frame_mm=3.0, double_frame=True,
                         font=cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC, rank_colour_by_suit=True,
                         ink=(45, 25, 15), gold=(0, 150, 210), red=(60, 20, 150), blue=(120, 60, 0),
                         green=(40, 90, 0), brown=(20, 50, 80), skin=(160, 185, 220), hatch=True,
                         back_main=(80, 30, 10), back_line=(25, 25, 25)),
}


def style(name: str) -> DeckStyle:
    """The named style; raises ValueError for an unknown name."""
    try:
        return _STYLES[name]
    except KeyError:
        raise ValueError(f"unknown deck style {name!r}: use one of {STYLES}") from None


class _Pen:
    """Draws in mm on an image of ``ppm`` px per mm (anti-aliased, sub-pixel)."""

    def __init__(self, img: np.ndarray, ppm: float) -> None:
        self.img, self.ppm = img, ppm

    def p(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * self.ppm * _ONE)), int(round(y * self.ppm * _ONE))

    def w(self, mm: float) -> int:
        return max(1, int(round(mm * self.ppm)))

    def line(self, a, b, colour, mm: float = 0.3) -> None:
        cv2.line(self.img, self.p(*a), self.p(*b), colour, self.w(mm), cv2.LINE_AA, _SHIFT)

    def circle(self, c, r_mm: float, colour, mm: float = -1) -> None:
        cv2.circle(self.img, self.p(*c), int(round(r_mm * self.ppm * _ONE)), colour,
                   -1 if mm < 0 else self.w(mm), cv2.LINE_AA, _SHIFT)

    def ellipse(self, c, axes_mm, angle: float, colour, mm: float = -1, arc=(0, 360)) -> None:
        ax = (int(round(axes_mm[0] * self.ppm * _ONE)), int(round(axes_mm[1] * self.ppm * _ONE)))
        cv2.ellipse(self.img, self.p(*c), ax, angle, arc[0], arc[1], colour,
                    -1 if mm < 0 else self.w(mm), cv2.LINE_AA, _SHIFT)

    def poly(self, pts, colour, mm: float = -1, closed: bool = True) -> None:
        arr = np.array([self.p(x, y) for x, y in pts], np.int32).reshape(-1, 1, 2)
        if mm < 0:
            cv2.fillPoly(self.img, [arr], colour, cv2.LINE_AA, _SHIFT)
        else:
            cv2.polylines(self.img, [arr], closed, colour, self.w(mm), cv2.LINE_AA, _SHIFT)

    def rect(self, x0, y0, x1, y1, colour, mm: float = -1) -> None:
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour, mm)

    def text(self, s: str, x: float, y: float, h_mm: float, colour, font: int, mm: float = 0.5) -> None:
        """``s`` with its baseline-left at (x, y) mm and its capital height ``h_mm``."""
        (_, th), _ = cv2.getTextSize(s, font, 1.0, 1)
        scale = h_mm * self.ppm / th
        cv2.putText(self.img, s, (int(round(x * self.ppm)), int(round(y * self.ppm))), font, scale,
                    colour, self.w(mm), cv2.LINE_AA)

    def text_width_mm(self, s: str, h_mm: float, font: int) -> float:
        (tw, th), _ = cv2.getTextSize(s, font, 1.0, 1)
        return tw * h_mm / th


def _rot(pts, c, deg: float):
    a = math.radians(deg)
    ca, sa = math.cos(a), math.sin(a)
    return [(c[0] + x * ca - y * sa, c[1] + x * sa + y * ca) for x, y in pts]


# -- the four suit signs, centred on c, size s (mm, about the sign's height) ------------------

def _coin(pen: _Pen, st: DeckStyle, c, s: float, angle: float) -> None:
    r = s / 2
    pen.circle(c, r, st.gold)
    pen.circle(c, r, st.ink, 0.35)
    pen.circle(c, r * 0.72, st.ink, 0.25)
    pen.circle(c, r * 0.72, st.red if st is _STYLES["fournier"] else st.blue, -1)
    pen.circle(c, r * 0.45, st.gold)
    for k in range(12):  # the coin's milled rim: fine radial lines
        a = math.radians(angle + k * 30)
        pen.line((c[0] + r * 0.74 * math.cos(a), c[1] + r * 0.74 * math.sin(a)),
                 (c[0] + r * 0.97 * math.cos(a), c[1] + r * 0.97 * math.sin(a)), st.ink, 0.2)
    pen.circle(c, r * 0.16, st.ink)


def _cup(pen: _Pen, st: DeckStyle, c, s: float, angle: float) -> None:
    h, w = s, s * 0.62
    bowl = [(-w / 2, -h / 2), (w / 2, -h / 2), (w * 0.38, -h * 0.05), (w * 0.1, h * 0.08),
            (w * 0.08, h * 0.3), (w * 0.3, h * 0.42), (w * 0.3, h / 2), (-w * 0.3, h / 2),
            (-w * 0.3, h * 0.42), (-w * 0.08, h * 0.3), (-w * 0.1, h * 0.08), (-w * 0.38, -h * 0.05)]
    pts = _rot(bowl, c, angle)
    pen.poly(pts, st.red)
    pen.poly(pts, st.ink, 0.3)
    band = _rot([(-w * 0.47, -h * 0.36), (w * 0.47, -h * 0.36), (w * 0.43, -h * 0.26), (-w * 0.43, -h * 0.26)], c, angle)
    pen.poly(band, st.gold)
    knot = _rot([(0, h * 0.2)], c, angle)[0]
    pen.circle(knot, w * 0.13, st.gold)
    pen.circle(knot, w * 0.13, st.ink, 0.2)


def _sword(pen: _Pen, st: DeckStyle, c, s: float, angle: float) -> None:
    h, w = s, s * 0.12
    blade = _rot([(-w / 2, -h * 0.22), (w / 2, -h * 0.22), (w * 0.3, h / 2), (0, h * 0.56), (-w * 0.3, h / 2)], c, angle)
    pen.poly(blade, st.blue)
    pen.poly(blade, st.ink, 0.25)
    pen.line(_rot([(0, -h * 0.2)], c, angle)[0], _rot([(0, h * 0.45)], c, angle)[0], st.ink, 0.15)
    guard = _rot([(-w * 2.2, -h * 0.26), (w * 2.2, -h * 0.26), (w * 2.2, -h * 0.21), (-w * 2.2, -h * 0.21)], c, angle)
    pen.poly(guard, st.gold)
    pen.poly(guard, st.ink, 0.2)
    grip = _rot([(-w * 0.45, -h * 0.44), (w * 0.45, -h * 0.44), (w * 0.45, -h * 0.26), (-w * 0.45, -h * 0.26)], c, angle)
    pen.poly(grip, st.red)
    pen.circle(_rot([(0, -h * 0.47)], c, angle)[0], w * 0.7, st.gold)
    pen.circle(_rot([(0, -h * 0.47)], c, angle)[0], w * 0.7, st.ink, 0.2)


def _club(pen: _Pen, st: DeckStyle, c, s: float, angle: float) -> None:
    h = s
    body = _rot([(-h * 0.06, h / 2), (h * 0.06, h / 2), (h * 0.14, -h / 2), (-h * 0.14, -h / 2)], c, angle)
    pen.poly(body, st.green)
    pen.poly(body, st.ink, 0.3)
    for k, t in enumerate((-0.38, -0.2, -0.02, 0.16, 0.32)):  # the knots cut off the branches
        side = 1 if k % 2 else -1
        knot = _rot([(side * h * 0.12, h * t)], c, angle)[0]
        pen.circle(knot, h * 0.045, st.brown)
        pen.circle(knot, h * 0.045, st.ink, 0.15)
    pen.ellipse(_rot([(0, -h * 0.48)], c, angle)[0], (h * 0.15, h * 0.05), angle, st.brown)


_SIGNS = {Suit.OROS: _coin, Suit.COPES: _cup, Suit.ESPASES: _sword, Suit.BASTOS: _club}
