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
CARD_W_MM, CARD_H_MM = 61.0, 95.0  # Spanish deck (naipe español)
STICKER_INSET_MM = 2.0  # from the card's edges
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


# -- printable kit ---------------------------------------------------------------------------

PAGE_MARGIN_MM = 12.0
GUTTER_MM = 4.0


def _code_png_px(marks: str) -> int:
    return 240 if marks == "aruco" else 250  # whole pixels per cell / module


def _write_png(path: Path, img: np.ndarray) -> None:
    ok, enc = cv2.imencode(".png", img)
    if not ok:
        raise KitError(f"cannot encode {path.name}")
    path.write_bytes(enc.tobytes())


def _cut_marks(pdf, x: float, y: float, side: float) -> None:
    gap, length = 0.6, 1.6
    for cx, dx in ((x, -1), (x + side, 1)):
        for cy, dy in ((y, -1), (y + side, 1)):
            pdf.line(cx + dx * gap, cy, cx + dx * (gap + length), cy)
            pdf.line(cx, cy + dy * gap, cx, cy + dy * (gap + length))


def _stickers_pdf(out: Path, pngs: dict[Card, Path], marks: str, sticker_mm: float) -> Path:
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_draw_color(120, 120, 120)
    pdf.set_line_width(0.1)
    pitch = sticker_mm + GUTTER_MM
    cols = int((210 - 2 * PAGE_MARGIN_MM + GUTTER_MM) // pitch)
    top = PAGE_MARGIN_MM + 12
    rows = int((297 - top - PAGE_MARGIN_MM + GUTTER_MM) // pitch)
    code = code_side_mm(sticker_mm)
    cols -= cols % 2  # a card's two stickers side by side
    per_page = cols * rows
    items = [c for c in DECK for _ in (0, 1)]
    for n, card in enumerate(items):
        if n % per_page == 0:
            pdf.add_page()
            pdf.set_font("Helvetica", "B", 11)
            pdf.set_xy(PAGE_MARGIN_MM, PAGE_MARGIN_MM)
            pdf.cell(0, 5, f"Botifarra: adhesius de les cartes ({marks}, {sticker_mm:g} mm)")
            pdf.set_font("Helvetica", "", 7)
            pdf.set_xy(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 5)
            pdf.multi_cell(210 - 2 * PAGE_MARGIN_MM, 3.2, "Imprimiu al 100 % (sense ajustar a la pàgina). Retalleu per les marques. "
                           "Enganxeu-ne un a la cantonada de dalt a l'esquerra i l'altre a la de baix "
                           "a la dreta de cada carta, a 2 mm de les vores.")
        k = n % per_page
        x = PAGE_MARGIN_MM + (k % cols) * pitch
        y = top + (k // cols) * pitch
        pdf.image(str(pngs[card]), x=x + (sticker_mm - code) / 2, y=y, w=code, h=code)
        pdf.set_font("Helvetica", "", max(3.0, sticker_mm * 0.3))
        pdf.set_xy(x, y + code)
        pdf.cell(sticker_mm, sticker_mm - code, sticker_label(card), align="C")
        _cut_marks(pdf, x, y, sticker_mm)
    path = out / "stickers.pdf"
    pdf.output(str(path))
    return path


def _mat_pdf(out: Path, size: str) -> Path:
    from fpdf import FPDF

    w, h = MAT_SIZES_MM[size]
    pdf = FPDF(orientation="L", unit="mm", format=size)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    d = card_dictionary()
    mat_dir = out / "mat"
    mat_dir.mkdir(exist_ok=True)
    for mid, corners in mat_marker_corners_mm(size).items():
        png = mat_dir / f"{mid}.png"
        mod = cv2.aruco.generateImageMarker(d, (CARD_IDS + MAT_IDS["A3"] + MAT_IDS["A4"]).index(mid), 8,
                                            borderBits=1)
        _write_png(png, cv2.resize(mod, (240, 240), interpolation=cv2.INTER_NEAREST))
        x, y = corners[0]
        pdf.image(str(png), x=float(x), y=float(y), w=MAT_CODE_MM, h=MAT_CODE_MM)
    inset = MAT_INSET_MM + MAT_CODE_MM + 6
    pdf.set_draw_color(200, 200, 200)
    pdf.set_line_width(0.5)
    pdf.rect(inset, inset, w - 2 * inset, h - 2 * inset)
    pdf.set_font("Helvetica", "", 10)
    pdf.set_text_color(150, 150, 150)
    pdf.set_xy(inset, h - MAT_INSET_MM - 8)
    pdf.cell(w - 2 * inset, 6, f"Botifarra: tapet de captura {size}. Estireu les bases aquí, "
                               "amb les cantonades a la vista.", align="C")
    path = out / f"mat_{size}.pdf"
    pdf.output(str(path))
    return path


def make_kit(out_dir, *, marks: str = "aruco", sticker_mm: float = STICKER_MM) -> dict:
    """Write the kit into ``out_dir``: ``stickers.pdf`` (A4, two stickers per card, cut
    marks), ``mat_A3.pdf``, ``mat_A4.pdf``, ``cards/<code>.png`` (the printed code with its
    quiet zone) and ``kit.json``. Returns the kit.json data."""
    check_marks(marks)
    sticker_mm = float(sticker_mm)
    if not 6.0 <= sticker_mm <= MAX_STICKER_MM:
        raise KitError(f"sticker size {sticker_mm:g} mm: use 6 to {MAX_STICKER_MM:g} mm "
                       "(bigger stickers are hidden when the pile is fanned)")
    out = Path(out_dir)
    try:
        (out / "cards").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KitError(f"{out}: cannot write here ({exc.strerror})") from None
    pngs: dict[Card, Path] = {}
    for card in DECK:
        p = out / "cards" / f"{card.code}.png"
        _write_png(p, code_image(card, marks=marks, px=_code_png_px(marks)))
        pngs[card] = p
    stickers = _stickers_pdf(out, pngs, marks, sticker_mm)
    mats = {size: _mat_pdf(out, size).name for size in MAT_SIZES_MM}
    data = {
        "sticker_mm": sticker_mm,
        "marks": marks,
        "code_mm": round(code_side_mm(sticker_mm), 3),
        "stickers_pdf": stickers.name,
        "mats": mats,
        "cards": {c.code: f"cards/{c.code}.png" for c in DECK},
    }
    (out / "kit.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return data
