"""The marked-deck kit: sticker codes, the capture mat, and the printable PDFs.

Geometry of one sticker (``sticker_mm`` square, 14 mm by default, never more):
the code image (code + quiet zone, ``code_image``; this is the PNG in kit.json) is
``12/14`` of the side, centred at the top; the card's name is printed in the strip under it.
For ArUco the code image is 10 cells (8 cells of marker + 1 white cell around it), so a
14 mm sticker has a 9.6 mm marker. For QR it is the 21-module code + 2 modules of quiet zone.

The mat: A3 or A4 landscape with four corner markers (``MAT_IDS``) of ``MAT_CODE_MM``.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.errors import KitError
from vision.marks import CARD_IDS, MAT_IDS, card_dictionary

MARKS = ("aruco", "qr")
STICKER_MM = 14.0
MAX_STICKER_MM = 14.0
CODE_FRACTION = 12.0 / 14.0  # code image side / sticker side
MAT_SIZES_MM: dict[str, tuple[float, float]] = {"A3": (420.0, 297.0), "A4": (297.0, 210.0)}
MAT_CODE_MM = 30.0  # mat corner marker, black border included
MAT_INSET_MM = 12.0  # from the paper's edge to the marker (printer margins)


def check_marks(marks: str) -> str:
    if marks not in MARKS:
        raise KitError(f"unknown marks {marks!r}: use aruco or qr")
    return marks


def code_side_mm(sticker_mm: float = STICKER_MM) -> float:
    """Side of the code image (code + quiet zone) on a sticker."""
    return sticker_mm * CODE_FRACTION


def marker_side_mm(sticker_mm: float = STICKER_MM) -> float:
    """Side of the ArUco marker itself (black border included)."""
    return code_side_mm(sticker_mm) * 8.0 / 10.0


def code_modules(card: Card, marks: str = "aruco") -> np.ndarray:
    """The code at one pixel per cell/module, quiet zone included (uint8, 0 or 255)."""
    check_marks(marks)
    if marks == "aruco":
        index = DECK.index(card)
        m = cv2.aruco.generateImageMarker(card_dictionary(), index, 8, borderBits=1)
        return cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    params = cv2.QRCodeEncoder.Params()
    params.version = 1
    params.correction_level = 1  # M
    return cv2.QRCodeEncoder.create(params).encode(card.code)  # 25x25 with 2-module quiet zone


def code_image(card: Card, *, marks: str = "aruco", px: int = 200) -> np.ndarray:
    """The printed code image, ``px`` pixels square (nearest-neighbour: sharp cells)."""
    mod = code_modules(card, marks)
    return cv2.resize(mod, (px, px), interpolation=cv2.INTER_NEAREST)


def sticker_label(card: Card) -> str:
    return f"{card.code} {card.catalan}"


def sticker_image(card: Card, *, marks: str = "aruco", sticker_mm: float = STICKER_MM,
                  px_per_mm: float = 12.0) -> np.ndarray:
    """The whole sticker as seen on a card (white, code on top, name underneath), grayscale."""
    side = int(round(sticker_mm * px_per_mm))
    img = np.full((side, side), 255, np.uint8)
    code_px = int(round(code_side_mm(sticker_mm) * px_per_mm))
    x0 = (side - code_px) // 2
    img[:code_px, x0:x0 + code_px] = code_image(card, marks=marks, px=code_px)
    strip = side - code_px
    label = sticker_label(card)
    scale = 1.0
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    scale = min((side * 0.92) / tw, (strip * 0.55) / th)
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.putText(img, label, ((side - tw) // 2, code_px + (strip + th) // 2), cv2.FONT_HERSHEY_SIMPLEX,
                scale, 60, max(1, int(scale * 1.5)), cv2.LINE_AA)
    return img


def mat_marker_corners_mm(size: str = "A3") -> dict[int, np.ndarray]:
    """Each mat marker's four corners on the paper (mm, origin top-left), in the order
    OpenCV reports them (marker's own top-left, top-right, bottom-right, bottom-left)."""
    w, h = MAT_SIZES_MM[size]
    s, m = MAT_CODE_MM, MAT_INSET_MM
    origins = [(m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s)]
    return {mid: np.float32([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
            for mid, (x, y) in zip(MAT_IDS[size], origins)}


def mat_image(size: str = "A3", *, px_per_mm: float = 4.0) -> np.ndarray:
    """The capture mat, grayscale (what the PDF prints)."""
    if size not in MAT_SIZES_MM:
        raise KitError(f"unknown mat size {size!r}: use A3 or A4")
    w, h = MAT_SIZES_MM[size]
    img = np.full((int(round(h * px_per_mm)), int(round(w * px_per_mm))), 255, np.uint8)
    d = card_dictionary()
    index = {mid: i for i, mid in enumerate(CARD_IDS + MAT_IDS["A3"] + MAT_IDS["A4"])}
    for mid, corners in mat_marker_corners_mm(size).items():
        x, y = (corners[0] * px_per_mm).round().astype(int)
        s = int(round(MAT_CODE_MM * px_per_mm))
        mod = cv2.aruco.generateImageMarker(d, index[mid], 8, borderBits=1)
        img[y:y + s, x:x + s] = cv2.resize(mod, (s, s), interpolation=cv2.INTER_NEAREST)
    frame = int(round((MAT_INSET_MM + MAT_CODE_MM + 6) * px_per_mm))
    cv2.rectangle(img, (frame, frame), (img.shape[1] - frame, img.shape[0] - frame), 200,
                  max(1, int(px_per_mm * 0.6)))
    return img
