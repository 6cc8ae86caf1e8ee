"""A Spanish 48-card deck drawn in code (test data the project may ship: no photos).

``card_face(card, style=..., px_per_mm=...)`` gives a BGR face, 61x95 mm, without stickers;
``card_back(style=...)`` the back; ``card_alpha(px_per_mm)`` the rounded-corner mask.
Two styles that look different on purpose (issue 11: enrolment must matter):

- ``"fournier"``: cream card, red frame, serif ranks in the four corners, warm palette;
- ``"moderna"``: grey-white card, thick dark double frame, ranks in the suit's colour,
  a cold palette and fine hatching behind the pips.

Both carry what makes a real Spanish deck hard for a marker detector: the frame line broken
1/2/3/4 times by suit ("pintes": oros, copes, espases, bastos), dense dark art near the
corners where the stickers go, fine lines, and small black-and-white squares (checkered
clothes on the figures, checkered backs). Everything is drawn with OpenCV primitives in
mm, so any resolution gives the same card.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import Card, Suit
from tests.realcam.signs import _SIGNS, _STYLES, BGR, STYLES, DeckStyle, _coin, _Pen, style  # noqa: F401 (re-exported)

CARD_W_MM, CARD_H_MM = 61.0, 95.0
CORNER_R_MM = 3.5
# frame breaks per suit, as on a Spanish deck
BREAKS: dict[Suit, int] = {Suit.OROS: 1, Suit.COPES: 2, Suit.ESPASES: 3, Suit.BASTOS: 4}

# pip centres (fractions of the pip area) for ranks 1-9
_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.15), (0.5, 0.85)],
    3: [(0.5, 0.12), (0.5, 0.5), (0.5, 0.88)],
    4: [(0.22, 0.15), (0.78, 0.15), (0.22, 0.85), (0.78, 0.85)],
    5: [(0.22, 0.15), (0.78, 0.15), (0.5, 0.5), (0.22, 0.85), (0.78, 0.85)],
    6: [(0.22, 0.12), (0.78, 0.12), (0.22, 0.5), (0.78, 0.5), (0.22, 0.88), (0.78, 0.88)],
    7: [(0.22, 0.1), (0.78, 0.1), (0.5, 0.3), (0.22, 0.5), (0.78, 0.5), (0.22, 0.9), (0.78, 0.9)],
    8: [(0.22, 0.1), (0.78, 0.1), (0.5, 0.3), (0.22, 0.5), (0.78, 0.5), (0.5, 0.7), (0.22, 0.9), (0.78, 0.9)],
    9: [(0.18, 0.1), (0.5, 0.1), (0.82, 0.1), (0.18, 0.5), (0.5, 0.5), (0.82, 0.5), (0.18, 0.9), (0.5, 0.9),
        (0.82, 0.9)],
}
# pip area: clear of the corner indices and of the sticker corners (2-16 mm from two corners)
_AREA = (13.0, 18.0, 48.0, 77.0)


def _pips(pen: _Pen, st: DeckStyle, card: Card) -> None:
    x0, y0, x1, y1 = _AREA
    spots = _LAYOUTS[card.rank]
    size = {1: 30.0, 2: 18.0, 3: 15.0}.get(card.rank, 13.0 if card.rank <= 6 else 11.0)
    if card.suit in (Suit.ESPASES, Suit.BASTOS):
        size *= 1.25
    sign = _SIGNS[card.suit]
    for i, (fx, fy) in enumerate(spots):
        c = (x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))
        # swords and clubs lean alternately, as on the cards; cups and coins stand straight
        tilt = (25 if i % 2 else -25) if card.suit in (Suit.ESPASES, Suit.BASTOS) and card.rank > 1 else 0
        sign(pen, st, c, size, tilt)
    if card.rank == 1 and card.suit is Suit.OROS:  # the as d'oros carries the maker's scroll
        pen.ellipse((30.5, 70), (14, 4), 0, st.red)
        pen.text("NAIPES", 19.5, 71.5, 3.0, st.paper, cv2.FONT_HERSHEY_SIMPLEX, 0.3)


def _checker(pen: _Pen, x0, y0, cols: int, rows: int, cell_mm: float, a: BGR, b: BGR) -> None:
    for r in range(rows):
        for c in range(cols):
            pen.rect(x0 + c * cell_mm, y0 + r * cell_mm, x0 + (c + 1) * cell_mm, y0 + (r + 1) * cell_mm,
                     a if (r + c) % 2 else b)


def _figure(pen: _Pen, st: DeckStyle, card: Card) -> None:
    """Sota (10), cavall (11), rei (12): a dense coloured figure holding the suit's sign."""
    robe = {Suit.OROS: st.red, Suit.COPES: st.blue, Suit.ESPASES: st.green, Suit.BASTOS: st.red}[card.suit]
    cloak = {Suit.OROS: st.green, Suit.COPES: st.gold, Suit.ESPASES: st.red, Suit.BASTOS: st.blue}[card.suit]
    black, white = (20, 20, 20), (245, 245, 245)
    cx = 30.5
    if card.rank == 11:  # the horse under the rider
        pen.ellipse((cx, 62), (14, 7), 0, st.brown if card.suit in (Suit.OROS, Suit.BASTOS) else white)
        pen.ellipse((cx, 62), (14, 7), 0, st.ink, 0.4)
        for lx in (-10, -5, 5, 10):
            pen.line((cx + lx, 66), (cx + lx * 1.1, 77), st.ink, 1.2)
        pen.poly([(cx + 11, 58), (cx + 17, 47), (cx + 21, 50), (cx + 15, 61)], st.brown)
        pen.poly([(cx + 11, 58), (cx + 17, 47), (cx + 21, 50), (cx + 15, 61)], st.ink, 0.3)
        top, bottom = 26.0, 60.0
    else:
        top, bottom = 28.0, 78.0
    # robe with hatching and a checkered belt (small black/white squares)
    robe_pts = [(cx - 8, top + 8), (cx + 8, top + 8), (cx + 13, bottom), (cx - 13, bottom)]
    pen.poly(robe_pts, robe)
    for k in range(int((bottom - top) / 1.2)):
        y = top + 9 + k * 1.2
        if y < bottom - 0.5:
            half = 8 + 5 * (y - top - 8) / (bottom - top - 8)
            pen.line((cx - half + 0.6, y), (cx + half - 0.6, y + 0.6), st.ink, 0.12)
    pen.poly(robe_pts, st.ink, 0.4)
    _checker(pen, cx - 8, top + 18, 8, 2, 2.0, black, white)
    cape = [(cx - 9, top + 8), (cx - 16, bottom - 6), (cx - 11, bottom - 4), (cx - 6, top + 14)]
    pen.poly(cape, cloak)
    pen.poly(cape, st.ink, 0.3)
    # head, hair, face
    head = (cx, top + 3.5)
    pen.circle(head, 4.2, st.skin)
    pen.ellipse(head, (4.4, 3.0), 0, st.ink, -1, (180, 360))
    pen.circle((cx - 1.5, top + 4), 0.45, st.ink)
    pen.circle((cx + 1.5, top + 4), 0.45, st.ink)
    pen.circle(head, 4.2, st.ink, 0.3)
    if card.rank == 12:  # the crown
        crown = [(cx - 4.5, top - 0.5), (cx - 4.5, top - 5), (cx - 2.2, top - 2.5), (cx, top - 6),
                 (cx + 2.2, top - 2.5), (cx + 4.5, top - 5), (cx + 4.5, top - 0.5)]
        pen.poly(crown, st.gold)
        pen.poly(crown, st.ink, 0.3)
    elif card.rank == 10:  # the sota's cap
        pen.ellipse((cx, top), (5.5, 2.0), -10, robe)
        pen.ellipse((cx, top), (5.5, 2.0), -10, st.ink, 0.3)
    # arm holding the suit's sign up and out
    pen.line((cx + 7, top + 12), (cx + 14, top + 6), st.skin, 2.0)
    pen.line((cx + 7, top + 12), (cx + 14, top + 6), st.ink, 0.2)
    _SIGNS[card.suit](pen, st, (cx + 15, top + 1), 12.0, 15 if card.suit in (Suit.ESPASES, Suit.BASTOS) else 0)
    if card.rank != 11:  # legs and shoes
        for lx in (-4, 4):
            pen.rect(cx + lx - 1.5, bottom, cx + lx + 1.5, bottom - 0.5 + 0.6, st.ink)


def _frame(pen: _Pen, st: DeckStyle, suit: Suit) -> None:
    """The frame line with the suit's breaks ("pintes") on the long sides, top and bottom."""
    m = st.frame_mm
    w, h = CARD_W_MM, CARD_H_MM
    n = BREAKS[suit]
    gap = 3.0
    for y in (m, h - m):
        cuts = [m + (w - 2 * m) * (k + 1) / (n + 1) for k in range(n)]
        _broken(pen, st, (m, y), (w - m, y), cuts, gap, inward=(0, 1 if y == m else -1))
    for x in (m, w - m):
        _broken(pen, st, (x, m), (x, h - m), [], gap, inward=(1 if x == m else -1, 0))


def _broken(pen: _Pen, st: DeckStyle, a, b, cuts: list[float], gap: float, inward) -> None:
    horizontal = a[1] == b[1]
    lo, hi = (a[0], b[0]) if horizontal else (a[1], b[1])
    edges = [lo] + [v for c in cuts for v in (c - gap / 2, c + gap / 2)] + [hi]
    lines = [(0.0, 0.45)] + ([(1.1, 0.25)] if st.double_frame else [])
    for s0, s1 in zip(edges[0::2], edges[1::2]):
        for off, lw in lines:
            if horizontal:
                y = a[1] + inward[1] * off
                pen.line((s0, y), (s1, y), st.frame, lw)
            else:
                x = a[0] + inward[0] * off
                pen.line((x, s0), (x, s1), st.frame, lw)


def _index(st: DeckStyle, card: Card, ppm: float) -> np.ndarray:
    """One corner index (rank over a small sign), 10x16 mm, on the card's paper."""
    w, h = 10.0, 16.0
    patch = np.full((int(round(h * ppm)), int(round(w * ppm)), 3), st.paper, np.uint8)
    pen = _Pen(patch, ppm)
    colour = {Suit.OROS: st.gold, Suit.COPES: st.red, Suit.ESPASES: st.blue,
              Suit.BASTOS: st.green}[card.suit] if st.rank_colour_by_suit else st.ink
    label = str(card.rank)
    size = 6.0 if len(label) == 1 else 5.0
    tw = pen.text_width_mm(label, size, st.font)
    pen.text(label, (w - tw) / 2, 7.5, size, colour, st.font, 0.55)
    _SIGNS[card.suit](pen, st, (w / 2, 11.8), 5.5, 0)
    return patch


@lru_cache(maxsize=8)
def card_alpha(px_per_mm: float) -> np.ndarray:
    """The card's outline as a uint8 mask (255 inside), rounded corners, anti-aliased
    (read-only, cached)."""
    w, h = int(round(CARD_W_MM * px_per_mm)), int(round(CARD_H_MM * px_per_mm))
    m = np.zeros((h, w), np.uint8)
    pen = _Pen(m, px_per_mm)
    r = CORNER_R_MM
    pen.rect(r, 0, CARD_W_MM - r, CARD_H_MM, 255)
    pen.rect(0, r, CARD_W_MM, CARD_H_MM - r, 255)
    for c in ((r, r), (CARD_W_MM - r, r), (r, CARD_H_MM - r), (CARD_W_MM - r, CARD_H_MM - r)):
        pen.circle(c, r, 255)
    m.setflags(write=False)
    return m


@lru_cache(maxsize=256)
def _face_cached(code: str, style_name: str, px_per_mm: float) -> np.ndarray:
    st = style(style_name)
    card = Card.parse(code)
    ppm = px_per_mm
    w, h = int(round(CARD_W_MM * ppm)), int(round(CARD_H_MM * ppm))
    img = np.full((h, w, 3), st.paper, np.uint8)
    pen = _Pen(img, ppm)
    if st.hatch:  # a tinted panel with fine diagonal hatching: many small edges for a detector
        pen.rect(8.0, 14.0, CARD_W_MM - 8.0, CARD_H_MM - 14.0, (225, 215, 200))
        for k in np.arange(-CARD_H_MM, CARD_W_MM, 1.6):
            pen.line((k, 0), (k + CARD_H_MM, CARD_H_MM), (205, 205, 200), 0.12)
    _frame(pen, st, card.suit)
    if card.rank <= 9:
        _pips(pen, st, card)
    else:
        _figure(pen, st, card)
    idx = _index(st, card, ppm)
    ih, iw = idx.shape[:2]
    m = int(round((st.frame_mm + 0.8) * ppm))
    # four corner indices: the stickers cover two of them (top-left, bottom-right)
    img[m:m + ih, m:m + iw] = idx
    img[m:m + ih, w - m - iw:w - m] = idx
    img[h - m - ih:h - m, w - m - iw:w - m] = idx[::-1, ::-1]
    img[h - m - ih:h - m, m:m + iw] = idx[::-1, ::-1]
    img.setflags(write=False)
    return img


def card_face(card: Card | str, *, style: str = "fournier", px_per_mm: float = 8.0) -> np.ndarray:
    """The card's face (BGR uint8, read-only, cached), 61x95 mm at ``px_per_mm``, square
    corners: combine with ``card_alpha``. Raises ValueError for an unknown style."""
    code = card.code if isinstance(card, Card) else Card.parse(card).code
    globals()["style"](style)  # validate before caching
    return _face_cached(code, style, float(px_per_mm))


@lru_cache(maxsize=8)
def _back_cached(style_name: str, px_per_mm: float) -> np.ndarray:
    st = _STYLES[style_name]
    ppm = px_per_mm
    w, h = int(round(CARD_W_MM * ppm)), int(round(CARD_H_MM * ppm))
    img = np.full((h, w, 3), st.back_main, np.uint8)
    pen = _Pen(img, ppm)
    if style_name == "fournier":  # a lattice of fine diamonds, an oval in the middle
        for k in np.arange(-CARD_H_MM, CARD_W_MM + CARD_H_MM, 3.0):
            pen.line((k, 0), (k + CARD_H_MM, CARD_H_MM), st.back_line, 0.25)
            pen.line((k, CARD_H_MM), (k + CARD_H_MM, 0), st.back_line, 0.25)
        pen.ellipse((30.5, 47.5), (15, 22), 0, st.back_main)
        pen.ellipse((30.5, 47.5), (15, 22), 0, st.back_line, 0.8)
        _coin(pen, st, (30.5, 47.5), 16, 0)
    else:  # checkered border band (black/white squares, marker-like) and dots
        for y in np.arange(10, CARD_H_MM - 10, 2.5):
            for x in np.arange(10, CARD_W_MM - 10, 2.5):
                pen.circle((x, y), 0.5, (200, 160, 90))
        _checker(pen, 2.0, 2.0, 28, 3, 2.0, (20, 20, 20), (235, 235, 235))
        _checker(pen, 2.0, CARD_H_MM - 8.0, 28, 3, 2.0, (20, 20, 20), (235, 235, 235))
    pen.rect(1.5, 1.5, CARD_W_MM - 1.5, CARD_H_MM - 1.5, (240, 240, 240), 1.0)
    img.setflags(write=False)
    return img


def card_back(*, style: str = "fournier", px_per_mm: float = 8.0) -> np.ndarray:
    """The card's back (BGR uint8, read-only, cached). Raises ValueError for an unknown style."""
    globals()["style"](style)
    return _back_cached(style, float(px_per_mm))

