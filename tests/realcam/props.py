"""What lies on the table besides the face-up cards: pile layouts and distractors.

Layouts return where each card lies (a 3x3 transform from card mm to table mm), bottom card
first. Distractors are drawn in code: a cardboard coaster, a phone, a laminated menu with a
QR code, a flyer with printed ArUco-like squares that are not our codes, face-down cards,
and the wet ring a beer glass leaves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tests.realcam.deck import CARD_H_MM, CARD_W_MM, _Pen, card_alpha, card_back
from vision.marks import rotation_bits

LAYOUTS = ("fan", "spread", "rows", "stack")
DISTRACTORS = ("coaster", "phone", "menu", "fake_markers", "face_down", "glass_ring")


def rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def move(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def _about_centre(x: float, y: float, deg: float) -> np.ndarray:
    """A card whose centre is at (x, y), turned ``deg``."""
    return move(x, y) @ rot(deg) @ move(-CARD_W_MM / 2, -CARD_H_MM / 2)


def layout(kind: str, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Card placements around the table origin for ``n`` cards, bottom first."""
    if kind not in LAYOUTS:
        raise ValueError(f"unknown layout {kind!r}: use one of {LAYOUTS}")
    out: list[np.ndarray] = []
    if kind == "stack":  # a squared pile: only the top card shows
        for _ in range(n):
            out.append(_about_centre(rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2), rng.uniform(-2.5, 2.5)))
        return out
    if kind == "fan":  # fans of up to 12 around a pivot near the cards' bottom
        per = 12
        groups = [min(per, n - i) for i in range(0, n, per)]
        for g, count in enumerate(groups):
            step = rng.uniform(9.0, 13.0)
            base_x = (g - (len(groups) - 1) / 2) * 150.0 + rng.uniform(-6, 6)
            base_y = rng.uniform(-8, 8) + (g % 2) * 40 - 20 * (len(groups) > 1)
            start = -step * (count - 1) / 2 + rng.uniform(-8, 8)
            for i in range(count):
                a = start + i * step + rng.uniform(-1.5, 1.5)
                pivot = move(base_x, base_y + 40) @ rot(a) @ move(0, -40)
                out.append(pivot @ _about_centre(0, 0, rng.uniform(-1, 1)))
        return out
    # spread (one row) and rows (several): each card shows a strip at its left
    per = 14 if kind == "spread" else int(rng.integers(8, 13))
    rows = [min(per, n - i) for i in range(0, n, per)]
    step_y = rng.uniform(100, 112)
    for r, count in enumerate(rows):
        step = rng.uniform(18.0, 24.0)
        curve = rng.uniform(-0.15, 0.15)
        for i in range(count):
            x = (i - (count - 1) / 2) * step + rng.uniform(-1.5, 1.5)
            y = (r - (len(rows) - 1) / 2) * step_y + curve * x * x / 30 + rng.uniform(-2, 2)
            out.append(_about_centre(x, y, rng.uniform(-4, 4) + math.degrees(math.atan(curve * x / 15)) * 0.3))
    return out


@dataclass
class Prop:
    """One object on the table: its texture (BGR), alpha, gloss (specular factor; cards 1),
    size in mm, and placement (3x3, prop mm -> table mm)."""

    kind: str
    texture: np.ndarray
    alpha: np.ndarray
    px_per_mm: float
    gloss: float
    place: np.ndarray
    darken_only: bool = False  # a wet ring: multiplies what is under it


def _rounded(w_mm: float, h_mm: float, r_mm: float, ppm: float) -> np.ndarray:
    m = np.zeros((int(round(h_mm * ppm)), int(round(w_mm * ppm))), np.uint8)
    pen = _Pen(m, ppm)
    pen.rect(r_mm, 0, w_mm - r_mm, h_mm, 255)
    pen.rect(0, r_mm, w_mm, h_mm - r_mm, 255)
    for c in ((r_mm, r_mm), (w_mm - r_mm, r_mm), (r_mm, h_mm - r_mm), (w_mm - r_mm, h_mm - r_mm)):
        pen.circle(c, r_mm, 255)
    return m


def _words(pen: _Pen, rng, x0, y0, x1, y1, line_mm: float, colour) -> None:
    y = y0 + line_mm
    while y < y1:
        x = x0
        while x < x1 - 8:
            wlen = rng.uniform(4, 14)
            pen.rect(x, y - line_mm * 0.55, min(x + wlen, x1), y, colour)
            x += wlen + rng.uniform(1.5, 3)
        y += line_mm * 1.6


def _foreign_code(rng: np.random.Generator) -> np.ndarray:
    """A 6x6 ArUco-like bit pattern at least 12 bits from each of our 48 codes in every
    rotation: a printed square any honest reader must refuse."""
    ours = rotation_bits("DICT_6X6_250")[:56].reshape(-1, 36)
    while True:  # ends: about half of all random patterns qualify
        bits = rng.integers(0, 2, 36).astype(np.uint8)
        if (ours != bits).sum(1).min() >= 12:
            return bits.reshape(6, 6)


def _marker_img(bits: np.ndarray, cell_px: int) -> np.ndarray:
    n = bits.shape[0] + 2
    m = np.zeros((n, n), np.uint8)
    m[1:-1, 1:-1] = bits * 255
    m = cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    return cv2.resize(m, ((n + 2) * cell_px, (n + 2) * cell_px), interpolation=cv2.INTER_NEAREST)


def distractor(kind: str, rng: np.random.Generator, ppm: float, *, deck_style: str = "fournier") -> Prop:
    """One distractor, drawn from ``rng``; placed at the origin (the caller moves it)."""
    if kind == "coaster":
        d = rng.uniform(90, 105)
        tex = np.full((int(d * ppm), int(d * ppm), 3), (170, 200, 225), np.uint8)
        pen = _Pen(tex, ppm)
        pen.circle((d / 2, d / 2), d * 0.42, (30, 30, 150), 2.0)
        pen.circle((d / 2, d / 2), d * 0.3, (20, 90, 160))
        pen.text("ESTRELLA", d * 0.22, d * 0.55, d * 0.1, (235, 235, 240), cv2.FONT_HERSHEY_DUPLEX, 0.8)
        alpha = np.zeros(tex.shape[:2], np.uint8)
        _Pen(alpha, ppm).circle((d / 2, d / 2), d / 2, 255)
        return Prop(kind, tex, alpha, ppm, 0.0, np.eye(3))
    if kind == "phone":
        w, h = rng.uniform(68, 78), rng.uniform(140, 160)
        tex = np.full((int(h * ppm), int(w * ppm), 3), (25, 22, 20), np.uint8)
        pen = _Pen(tex, ppm)
        if rng.random() < 0.6:  # screen on: a grid of app icons (coloured rounded squares)
            pen.rect(3, 10, w - 3, h - 10, (120, 70, 40))
            for r in range(6):
                for c in range(4):
                    col = tuple(int(v) for v in rng.integers(20, 240, 3))
                    x, y = 6 + c * (w - 12) / 4, 16 + r * 18
                    pen.rect(x + 1.5, y, x + (w - 12) / 4 - 1.5, y + 11, col)
                    pen.rect(x + 4, y + 3, x + 8, y + 7, (255, 255, 255) if rng.random() < 0.5 else (0, 0, 0))
        return Prop(kind, tex, _rounded(w, h, 9, ppm), ppm, 1.6, np.eye(3))
    if kind == "menu":
        w, h = 105.0, 148.0
        tex = np.full((int(h * ppm), int(w * ppm), 3), (225, 240, 245), np.uint8)
        pen = _Pen(tex, ppm)
        pen.text("CARTA", 30, 16, 8, (30, 30, 120), cv2.FONT_HERSHEY_TRIPLEX, 0.9)
        _words(pen, rng, 10, 24, w - 10, 100, 3.0, (40, 40, 40))
        qr = cv2.QRCodeEncoder.create().encode(f"https://bar{int(rng.integers(100, 999))}.cat/carta")
        side = 30.0
        qr_img = cv2.resize(qr, (int(side * ppm), int(side * ppm)), interpolation=cv2.INTER_NEAREST)
        y0, x0 = int(108 * ppm), int((w - side) / 2 * ppm)
        tex[y0:y0 + qr_img.shape[0], x0:x0 + qr_img.shape[1]] = cv2.cvtColor(qr_img, cv2.COLOR_GRAY2BGR)
        return Prop(kind, tex, _rounded(w, h, 2, ppm), ppm, 0.9, np.eye(3))
    if kind == "fake_markers":  # a flyer with marker-like squares of other families and ours' size
        w, h = 100.0, 70.0
        tex = np.full((int(h * ppm), int(w * ppm), 3), (240, 240, 240), np.uint8)
        pen = _Pen(tex, ppm)
        _words(pen, rng, 5, 48, w - 5, h - 4, 2.5, (60, 60, 60))
        for i in range(4):
            cell_mm = rng.uniform(1.0, 1.6)
            if i % 2:
                d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50 if i == 1 else cv2.aruco.DICT_5X5_50)
                m = cv2.aruco.generateImageMarker(d, int(rng.integers(0, 50)), d.markerSize + 2, borderBits=1)
                img = cv2.resize(cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255),
                                 None, fx=cell_mm * ppm, fy=cell_mm * ppm, interpolation=cv2.INTER_NEAREST)
            else:
                img = _marker_img(_foreign_code(rng), max(1, int(round(cell_mm * ppm))))
            s = min(img.shape[0], int(22 * ppm))
            x0, y0 = int((3 + i * 24) * ppm), int(4 * ppm)
            tex[y0:y0 + s, x0:x0 + s] = cv2.cvtColor(img[:s, :s], cv2.COLOR_GRAY2BGR)
        return Prop(kind, tex, np.full(tex.shape[:2], 255, np.uint8), ppm, 0.5, np.eye(3))
    if kind == "face_down":
        return Prop(kind, card_back(style=deck_style, px_per_mm=ppm).copy(), card_alpha(ppm), ppm, 1.0, np.eye(3))
    if kind == "glass_ring":  # the wet ring: darker, glossy, see-through
        d = rng.uniform(62, 80)
        n = int(d * ppm) + 2
        tex = np.full((n, n, 3), 150, np.uint8)  # x 150/255: darkens what is under it
        alpha = np.zeros((n, n), np.uint8)
        _Pen(alpha, ppm).circle((d / 2, d / 2), d / 2 - 1.5, 255, rng.uniform(1.5, 3.5))
        return Prop(kind, tex, alpha, ppm, 1.2, np.eye(3), darken_only=True)
    raise ValueError(f"unknown distractor {kind!r}: use one of {DISTRACTORS}")


def prop_size_mm(p: Prop) -> tuple[float, float]:
    h, w = p.alpha.shape
    return w / p.px_per_mm, h / p.px_per_mm
