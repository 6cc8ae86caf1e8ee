"""The QR route of the sticker read (``PileReader(marks="qr")``): pyzbar reads QR codes whose
payload is a card's code; payloads that are not one of the 48 cards are ignored."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.game import Card, InvalidCardError


def read_qr(gray: np.ndarray, mat_corners: np.ndarray | None) -> list[tuple[Card, np.ndarray]]:
    """pyzbar on the frame, then on the table region (``mat_corners``, image px, or the whole
    frame) upscaled 2x and binarised (zbar misses small rotated codes at camera resolution).
    Returns each card once with its code's corners."""
    from pyzbar.pyzbar import ZBarSymbol, decode

    found: dict[Card, np.ndarray] = {}

    def scan(img: np.ndarray, scale: float, dx: int, dy: int) -> None:
        for sym in decode(img, symbols=[ZBarSymbol.QRCODE]):
            try:
                card = Card.parse(sym.data.decode("ascii", "replace"))
            except InvalidCardError:
                continue
            pts = np.float32([(p.x, p.y) for p in sym.polygon])
            if len(pts) != 4:
                x, y, w, h = sym.rect
                pts = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            found.setdefault(card, pts / scale + (dx, dy))

    scan(gray, 1.0, 0, 0)
    h, w = gray.shape[:2]
    x0, y0, x1, y1 = 0, 0, w, h
    if mat_corners is not None:
        x0, y0 = np.maximum(mat_corners.min(axis=0).astype(int), 0)
        x1, y1 = np.minimum(mat_corners.max(axis=0).astype(int), (w, h))
    if x1 - x0 > 16 and y1 - y0 > 16:
        up = cv2.resize(gray[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        up = cv2.adaptiveThreshold(up, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 31, 5)
        scan(up, 2.0, int(x0), int(y0))
    return list(found.items())
