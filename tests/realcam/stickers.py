"""The kit's stickers exactly as the printer prints them.

The kit's own code (``vision.kit.make_kit``) writes ``stickers.pdf`` into a temporary folder,
``pdftoppm`` (poppler-utils) rasterises it at ``RASTER_PX_PER_MM``, and each card's two
stickers are cut out of the page where the kit's layout puts them. So a change to the kit
(sticker size, quiet zone, label, PDF layout) reaches the test camera without a copy of
its geometry here, except the page layout arithmetic, which ``test_realcam`` checks by
reading every cut-out back.

Where they go on a card (the PDF's own instructions): top-left and bottom-right of the
face, 2 mm from the edges, the bottom-right one turned 180 degrees.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision import kit

RASTER_PX_PER_MM = 24.0  # 609.6 dpi: 10 px per ArUco cell on a 14 mm sticker


@dataclass(frozen=True)
class StickerSheet:
    """Both printed stickers of every card, grey (uint8), ``px_per_mm`` pixels per mm."""

    marks: str
    sticker_mm: float
    px_per_mm: float
    stickers: dict[str, tuple[np.ndarray, np.ndarray]]  # card code -> (first, second) as printed

    def sticker(self, card: Card | str, which: int = 0) -> np.ndarray:
        code = card.code if isinstance(card, Card) else Card.parse(card).code
        return self.stickers[code][which]


def _page_layout(sticker_mm: float) -> tuple[int, int, float]:
    """(columns, rows, pitch mm) of ``vision.kit._stickers_pdf``'s grid."""
    pitch = sticker_mm + kit.GUTTER_MM
    cols = int((210 - 2 * kit.PAGE_MARGIN_MM + kit.GUTTER_MM) // pitch)
    cols -= cols % 2
    top = kit.PAGE_MARGIN_MM + 12
    rows = int((297 - top - kit.PAGE_MARGIN_MM + kit.GUTTER_MM) // pitch)
    return cols, rows, pitch


def sticker_origin_mm(n: int, sticker_mm: float) -> tuple[int, float, float]:
    """(page, x, y) in mm of the ``n``-th sticker on the printed sheet."""
    cols, rows, pitch = _page_layout(sticker_mm)
    page, k = divmod(n, cols * rows)
    return page, kit.PAGE_MARGIN_MM + (k % cols) * pitch, kit.PAGE_MARGIN_MM + 12 + (k // cols) * pitch


@lru_cache(maxsize=4)
def printed_stickers(marks: str = "aruco", sticker_mm: float = kit.STICKER_MM) -> StickerSheet:
    """Make the kit, rasterise its PDF and cut out all 96 stickers (about a second, cached).

    Raises RuntimeError when ``pdftoppm`` is missing or fails."""
    ppm = RASTER_PX_PER_MM
    with tempfile.TemporaryDirectory(prefix="realcam-kit-") as tmp:
        data = kit.make_kit(tmp, marks=marks, sticker_mm=sticker_mm)
        pdf = Path(tmp) / data["stickers_pdf"]
        try:
            subprocess.run(["pdftoppm", "-r", f"{ppm * 25.4:.3f}", "-gray", "-png", str(pdf),
                            str(Path(tmp) / "page")], check=True, capture_output=True, timeout=120)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise RuntimeError(f"pdftoppm (poppler-utils) could not rasterise the kit: {exc}") from exc
        pages = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in sorted(Path(tmp).glob("page*.png"))]
    side = int(round(sticker_mm * ppm))
    out: dict[str, list[np.ndarray]] = {}
    for n, card in enumerate(c for c in DECK for _ in (0, 1)):
        page, x, y = sticker_origin_mm(n, sticker_mm)
        x0, y0 = int(round(x * ppm)), int(round(y * ppm))
        out.setdefault(card.code, []).append(pages[page][y0:y0 + side, x0:x0 + side].copy())
    return StickerSheet(marks, float(sticker_mm), ppm, {k: (v[0], v[1]) for k, v in out.items()})


def marker_corners_mm(sticker_mm: float = kit.STICKER_MM, marks: str = "aruco") -> np.ndarray:
    """The code's own corners (ArUco: the black border's outside; QR: the symbol without its
    quiet zone) in mm on the sticker, clockwise from the top-left. (4, 2) float32."""
    code = kit.code_side_mm(sticker_mm)
    x0 = (sticker_mm - code) / 2
    cells = 10 if marks == "aruco" else 25
    quiet = 1 if marks == "aruco" else 2
    a = code * quiet / cells
    s = code * (cells - 2 * quiet) / cells
    return np.float32([[x0 + a, a], [x0 + a + s, a], [x0 + a + s, a + s], [x0 + a, a + s]])
