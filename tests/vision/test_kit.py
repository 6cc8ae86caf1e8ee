import json
import subprocess

import cv2
import numpy as np
import pytest

from kiosk.game import DECK
from vision.errors import KitError
from vision.kit import make_kit
from vision.reader import PileReader


def _rasterise(pdf, out_prefix, dpi):
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(out_prefix)], check=True)
    return sorted(out_prefix.parent.glob(out_prefix.name + "*.png"))


def test_aruco_kit_files_and_every_printed_sticker_reads_back(tmp_path):
    data = make_kit(tmp_path)
    saved = json.loads((tmp_path / "kit.json").read_text())
    assert saved == data
    assert saved["sticker_mm"] == 14.0
    assert list(saved["cards"]) == [c.code for c in DECK]
    assert saved["cards"]["9O"] == "cards/9O.png"
    for code, rel in saved["cards"].items():
        png = cv2.imread(str(tmp_path / rel), cv2.IMREAD_GRAYSCALE)
        assert png is not None and png.shape[0] == png.shape[1]
        assert set(np.unique(png)) <= {0, 255}
    # one PNG read alone names its card
    one = cv2.imread(str(tmp_path / "cards" / "12B.png"))
    assert PileReader().read(cv2.copyMakeBorder(one, 60, 60, 60, 60, cv2.BORDER_CONSTANT,
                                                value=(255, 255, 255))).codes == ["12B"]
    pages = _rasterise(tmp_path / "stickers.pdf", tmp_path / "page", 150)
    reader = PileReader()
    seen = []
    for page in pages:
        result = reader.read_file(page)
        seen += [d.card for d in result.detections]
    assert sorted(seen, key=DECK.index) == [c for c in DECK for _ in (0, 1)]  # two stickers per card


@pytest.mark.parametrize("size, shape", [("A3", (297, 420)), ("A4", (210, 297))])
def test_printed_mats_are_found(tmp_path, size, shape):
    make_kit(tmp_path)
    (page,) = _rasterise(tmp_path / f"mat_{size}.pdf", tmp_path / f"mat{size}", 40)
    img = cv2.imread(str(page))
    assert abs(img.shape[0] / img.shape[1] - shape[0] / shape[1]) < 0.01
    result = PileReader().read(img)
    assert result.mat_found and result.mat_size == size and result.cards == []
    assert result.problems == []


def test_qr_kit_reads_back(tmp_path):
    data = make_kit(tmp_path, marks="qr")
    assert data["marks"] == "qr"
    pages = _rasterise(tmp_path / "stickers.pdf", tmp_path / "page", 300)
    reader = PileReader("qr")
    cards = set()
    for page in pages:
        cards |= set(reader.read_file(page).cards)
    assert cards == set(DECK)


def test_kit_refuses_stickers_that_a_fanned_pile_would_hide(tmp_path):
    with pytest.raises(KitError, match="14"):
        make_kit(tmp_path, sticker_mm=20)
    with pytest.raises(KitError):
        make_kit(tmp_path, marks="barcode")
