"""The sticker read's speed on video (issue 21, item 7), guarded by what it must keep.

A still pile's next frames are searched only in boxes round what the last whole search found
(``vision.revisit``), with the same cards and places asked, also under fresh sensor noise. A card
put on the pile changes the frame, which is then searched whole and the card read; a square the
last whole search read that its box no longer shows sends the frame to the whole search at once,
not one frame late. The times are the benches' (``docs/marked-tables.md``), not a test's."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from kiosk.game import DECK
from tests.bench.tables import table_shot
from tests.vision.searches import watch_searches
from vision.marks import card_dictionary
from vision.reader import PileReader


@functools.cache
def _gingham():
    """720p, a pile on the mat on a gingham cloth (rendered once for the tests of this file)."""
    return table_shot(0, mode="720p", table="gingham")


def _answer(result):
    return (sorted(result.codes), [tuple(np.round(a.centre, 1)) for a in result.asked], len(result.unread),
            sorted((d.card.code, tuple(np.round(d.corners.ravel(), 2))) for d in result.detections))


def _paste(img: np.ndarray, index: int, x: float, y: float, side: float, turn: float, *,
           marker: np.ndarray | None = None) -> np.ndarray:
    """A card dictionary marker (``index``, or ``marker``: 80 px) of ``side`` px, turned, with its
    white quiet zone, drawn on ``img`` (gray) at (x, y), a little blurred."""
    if marker is None:
        marker = cv2.aruco.generateImageMarker(card_dictionary(), index, 80, borderBits=1)
    marker = cv2.copyMakeBorder(marker, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=235)
    m = cv2.getRotationMatrix2D((56, 56), turn, side / 80)
    m[:, 2] += (x - 56, y - 56)
    size = img.shape[1::-1]
    mask = cv2.warpAffine(np.full((112, 112), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
    drawn = cv2.GaussianBlur(cv2.warpAffine(marker, m, size, flags=cv2.INTER_LINEAR), (0, 0), 0.7)
    return np.where(mask > 127, drawn, img).astype(np.uint8)


def _free_place(result, side: float) -> tuple[float, float]:
    """A place on the mat, four sides or more inside its edge and from every marker read."""
    mat = result.mat_corners.astype(np.float32).reshape(-1, 1, 2)
    (x0, y0), (x1, y1) = result.mat_corners.min(axis=0), result.mat_corners.max(axis=0)
    centres = np.array([d.corners.mean(axis=0) for d in result.detections])
    for y in np.arange(y0, y1, side):
        for x in np.arange(x0, x1, side):
            if cv2.pointPolygonTest(mat, (float(x), float(y)), True) > 4 * side and \
                    np.linalg.norm(centres - (x, y), axis=1).min() > 4 * side:
                return float(x), float(y)
    raise AssertionError("no free place on the mat")


def _shuffled_cells(gray: np.ndarray, quad: np.ndarray, seed: int = 3) -> np.ndarray:
    """``gray`` with the pixels of every 8 x 8 cell (the frame's own grid) round ``quad`` shuffled
    within their cell: each cell's mean is the same, the square's outline is gone."""
    out = gray.copy()
    rng = np.random.default_rng(seed)
    (x0, y0), (x1, y1) = np.floor(quad.min(axis=0)).astype(int), np.ceil(quad.max(axis=0)).astype(int)
    for y in range(8 * (y0 // 8 - 1), 8 * (y1 // 8 + 2), 8):
        for x in range(8 * (x0 // 8 - 1), 8 * (x1 // 8 + 2), 8):
            cell = out[y:y + 8, x:x + 8]
            cell[:] = rng.permutation(cell.ravel()).reshape(cell.shape)
    return out


def test_a_still_piles_next_frames_are_searched_in_boxes_and_a_card_put_on_it_is_read():
    """720p, a pile on the mat on a gingham cloth. The first frame is searched whole; the same
    frame again, and again under fresh sensor noise, only in boxes round its markers, with the
    same cards (and, the same pixels, the same places asked, squares and corners). A card put on
    the mat, further than four sides from every marker (outside every box), changes the frame:
    it is searched whole in that frame, and the new card is read; its next frame in boxes again."""
    shot = _gingham()
    reader = PileReader()
    searched = watch_searches(reader)
    whole = reader.read(shot.image)
    whole_px = sum(w * h for w, h in searched)
    assert whole.mat_found and len(whole.codes) >= 8 and not shot.wrong(whole.codes)

    searched.clear()
    again = reader.read(shot.image)
    assert searched and sum(w * h for w, h in searched) < 0.5 * whole_px
    assert _answer(again) == _answer(whole)

    searched.clear()
    noisy = np.clip(shot.image + np.random.default_rng(7).normal(0, 2.0, shot.image.shape), 0, 255).astype(np.uint8)
    assert set(reader.read(noisy).codes) == set(whole.codes)
    assert searched and sum(w * h for w, h in searched) < 0.5 * whole_px

    side = float(np.median([np.linalg.norm(d.corners[1] - d.corners[0]) for d in whole.detections]))
    new = next(i for i, c in enumerate(DECK) if c.code not in {t.code for t in shot.truth})
    x, y = _free_place(whole, side)
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    with_card = _paste(gray, new, x, y, side, 20.0)
    searched.clear()
    put = reader.read(with_card)
    assert sum(w * h for w, h in searched) >= whole_px  # (searched whole again)
    assert set(put.codes) == set(whole.codes) | {DECK[new].code}
    searched.clear()
    assert _answer(reader.read(with_card)) == _answer(put)
    assert sum(w * h for w, h in searched) < 0.5 * whole_px


def test_a_marker_its_box_no_longer_shows_sends_the_frame_to_the_whole_search_at_once():
    """720p gingham on the mat. A read sticker's pixels shuffled within each 8 x 8 cell of the
    frame: every cell's mean stays (the frame looks unchanged to the still-view check), the square
    is gone. Its box no longer shows it, and that same frame is searched whole: the answer is a
    whole search's (a new reader's on that frame), not the boxes'. The frame after it, unchanged,
    in boxes again."""
    shot = _gingham()
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    reader = PileReader()
    searched = watch_searches(reader)
    whole = reader.read(gray)
    whole_px = sum(w * h for w, h in searched)
    searched.clear()
    assert _answer(reader.read(gray)) == _answer(whole)
    assert sum(w * h for w, h in searched) < 0.5 * whole_px  # (a still frame: in boxes)

    gone = whole.detections[0]
    mangled = _shuffled_cells(gray, gone.corners)
    searched.clear()
    after = reader.read(mangled)
    assert sum(w * h for w, h in searched) >= whole_px  # (the boxes, then the whole search)
    assert _answer(after) == _answer(PileReader().read(mangled))
    assert not any(np.linalg.norm(d.corners.mean(axis=0) - gone.corners.mean(axis=0)) < 3 for d in after.detections)
    searched.clear()
    assert _answer(reader.read(mangled)) == _answer(after)
    assert sum(w * h for w, h in searched) < 0.5 * whole_px


def _broken(index: int) -> np.ndarray:
    """A card dictionary marker (``index``, 80 px, its black ring one cell) with a 2 x 2 block of
    its code's cells inverted: a sticker's square that no decision reads (refused, or doubted)."""
    marker = cv2.aruco.generateImageMarker(card_dictionary(), index, 80, borderBits=1)
    cell = 80 // (card_dictionary().markerSize + 2)
    marker[cell:3 * cell, cell:3 * cell] = 255 - marker[cell:3 * cell, cell:3 * cell]
    return marker


def test_a_box_search_thrown_away_stops_at_the_first_square_decided_softly_not_found_again():
    """720p gingham on the mat, with a sticker's square that the soft decision refuses laid on the
    mat (the kind of square the sensor's noise takes out of its box). Still, its next frame is
    searched in boxes. That square then shuffled away within the frame's 8 x 8 cells (the frame
    the same to the still-view check): the boxes that could give it back are searched first, and
    the frame goes to the whole search after those, not after every box; the answer is a whole
    search's."""
    shot = _gingham()
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    first = PileReader().read(gray)
    side = float(np.median([np.linalg.norm(d.corners[1] - d.corners[0]) for d in first.detections]))
    x, y = _free_place(first, side)
    new = next(i for i, c in enumerate(DECK) if c.code not in {t.code for t in shot.truth})
    framed = _paste(gray, new, x, y, side, 20.0, marker=_broken(new))

    reader = PileReader()
    searched = watch_searches(reader)
    whole = reader.read(framed)
    whole_calls = list(searched)
    refused = [q for q in whole.unread if np.linalg.norm(q.mean(axis=0) - (x, y)) < 0.5 * side]
    assert refused and DECK[new].code not in whole.codes
    searched.clear()
    assert _answer(reader.read(framed)) == _answer(whole)
    boxes = len(searched)  # (a still read: one detector call a box)
    assert boxes >= 8

    mangled = _shuffled_cells(framed, refused[0])
    searched.clear()
    after = reader.read(mangled)
    assert searched[-len(whole_calls):] == whole_calls  # (searched whole at the end)
    assert 1 <= len(searched) - len(whole_calls) <= 3
    assert _answer(after) == _answer(PileReader().read(mangled))
