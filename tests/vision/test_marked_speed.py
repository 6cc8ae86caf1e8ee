"""The sticker read's speed on busy tables (issue 21, item 7), guarded by what it must keep:
a still view of a black-and-white checked cloth (hundreds of squares a sticker's size) is
searched a quarter at a time (``vision.tiling``: OpenCV's detector pairs every square with every
other, so its time grows with their number squared) and reads, asks and leaves out exactly what
the whole search does; a square across a cut is found once, on the strip along the cut, and the
cuts keep clear of the mat's corner markers. The times are the benches' (``tests.bench.tables``,
``docs/marked-tables.md``), not a test's."""

from __future__ import annotations

import cv2
import numpy as np

from tests.bench.tables import table_shot
from tests.vision.searches import watch_searches
from vision.marks import ALL_IDS, MAT_IDS, card_dictionary
from vision.reader import PileReader
from vision.tiling import detect_tiled


def _answer(result):
    return (sorted(result.codes), [tuple(np.round(a.centre, 1)) for a in result.asked], len(result.unread),
            sorted((d.card.code, tuple(np.round(d.corners.ravel(), 2))) for d in result.detections))


def test_a_still_view_of_a_checked_cloth_is_searched_in_quarters_and_reads_the_same():
    """720p, a black-and-white checked cloth with one mat corner in view (the fresh set's slowest
    frame: 830 squares). The first frame is searched whole; the next frames of the same view a
    quarter at a time, with the same cards, places asked, squares and corners."""
    shot = table_shot(7, mode="720p", table="checked")
    reader = PileReader()
    searched = watch_searches(reader)
    whole = reader.read(shot.image)
    assert searched == [(1280, 720)]
    assert not shot.wrong(whole.codes) and len(whole.unread) + len(whole.detections) > 0
    visible = [t for t in shot.truth if t.visible]
    assert all(t.code in whole.codes or any(np.hypot(*(np.float32(a.centre) - q.mean(axis=0))) < a.radius
                                            for a in whole.asked for q in t.marker_quads) for t in visible)
    for _ in range(2):  # a still pile: the same frame again
        searched.clear()
        again = reader.read(shot.image)
        assert len(searched) >= 5 and all(w * h < 0.5 * 1280 * 720 for w, h in searched)
        assert _answer(again) == _answer(whole)


def _drawn(places: list[tuple[int, float, float, float, float]], size=(640, 360)) -> np.ndarray:
    """Markers of the card dictionary (index, centre x, y, side px, turn degrees) drawn on a
    light grey sheet with their white quiet zone, a little blur and noise."""
    dictionary = card_dictionary()
    img = np.full(size[::-1], 200, np.uint8)
    for index, x, y, side, turn in places:
        marker = cv2.aruco.generateImageMarker(dictionary, index, 80, borderBits=1)
        marker = cv2.copyMakeBorder(marker, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
        m = cv2.getRotationMatrix2D((56, 56), turn, side / 80)  # (the quiet zone round it too)
        m[:, 2] += (x - 56, y - 56)
        mask = cv2.warpAffine(np.full((112, 112), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
        drawn = cv2.warpAffine(marker, m, size, flags=cv2.INTER_LINEAR)
        img = np.where(mask > 127, drawn, img).astype(np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img + np.random.default_rng(3).normal(0, 3, img.shape), 0, 255).astype(np.uint8)


def test_a_square_across_a_cut_is_found_once_on_its_strip_and_the_cuts_clear_the_mat_corner():
    """Card markers of 22 px across both cuts' middles, turned, and one far from them; a mat
    corner marker three times as big where the vertical cut would fall. The quarters and the
    strips find every marker once, as the whole image does, at the same corners, and the cut
    moves clear of the big marker (the strips are too narrow for it)."""
    corner = ALL_IDS.index(MAT_IDS["A3"][1])
    places = [(3, 320.0, 180.0, 22, 30), (11, 100.0, 181.0, 22, 45), (20, 470.0, 178.0, 22, 10),
              (29, 150.0, 60.0, 22, 0), (corner, 322.0, 300.0, 66, 5)]
    img = _drawn(places)
    detector = cv2.aruco.ArucoDetector(card_dictionary(), cv2.aruco.DetectorParameters())
    c0, i0, _ = detector.detectMarkers(img)
    assert sorted(i0.ravel().tolist()) == sorted(p[0] for p in places)
    big = c0[list(i0.ravel()).index(corner)].reshape(4, 2)
    parts = []

    def detect(part):
        parts.append(part.shape[1::-1])
        return detector.detectMarkers(part)

    strip = int(np.ceil(1.6 * 1.42 * 22)) + 8
    c, i, _ = detect_tiled(detect, img, strip_px=strip, avoid=[big])
    assert len(parts) == 6  # four quarters, two strips
    assert sorted(i.ravel().tolist()) == sorted(i0.ravel().tolist())  # each once
    for q, k in zip(c, i.ravel()):
        q0 = c0[list(i0.ravel()).index(k)].reshape(4, 2)
        assert np.abs(q.reshape(4, 2) - q0).max() < 0.5
    cut = parts[0][0]  # the top-left quarter's width
    assert cut != 320 and (cut + strip // 2 < big[:, 0].min() or cut - strip // 2 > big[:, 0].max())
    assert sorted(parts[4:]) == sorted([(2 * strip, 360), (640, 2 * strip)])
