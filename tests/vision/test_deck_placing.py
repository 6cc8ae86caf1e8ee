"""The outline search's faster sums (packed counts, running sums, a size left out when its
counts cannot beat the best so far) find the very same rectangle, to the last bit of its
score, as the plain search: every map box-summed apart, every size scored in full."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.deck.exposure import noise_of
from vision.deck.placing import edge_maps, search


def _plain_best(maps: tuple[np.ndarray, ...], a: int, b: int, inside: np.ndarray) -> tuple | None:
    h, w = maps[0].shape
    if a + 2 >= w or b + 2 >= h:
        return None
    per, ny, nx = 2.0 * (a + b), h - b, w - a

    def box(m: np.ndarray, length: int, axis: int) -> np.ndarray:
        ksize = (1, length) if axis == 0 else (length, 1)
        return cv2.boxFilter(m, cv2.CV_32F, ksize, anchor=(0, 0), normalize=False, borderType=cv2.BORDER_CONSTANT)

    def sides(vert: np.ndarray, horiz: np.ndarray) -> np.ndarray:
        vs, hs = box(vert, b, 0), box(horiz, a, 1)
        return (vs[:ny, :nx] + vs[:ny, a:a + nx] + hs[:ny, :nx] + hs[b:b + ny, :nx]) / per

    sup, new, strength = sides(maps[0], maps[1]), sides(maps[2], maps[3]), sides(maps[4], maps[5])
    centres = inside[b // 2:b // 2 + ny, a // 2:a // 2 + nx]
    score = np.where(centres > 0, sup + 0.5 * new + 0.2 * strength, 0)
    y, x = divmod(int(np.argmax(score)), nx)
    if score[y, x] <= 0:
        return 0.0, float(sup[0, 0]), float(new[0, 0]), 0, 0
    return float(score[y, x]), float(sup[y, x]), float(new[y, x]), x, y


def _plain_search(cur, ref, mask, angles, sizes_px, level) -> tuple | None:
    best = None
    ph, pw = cur.shape
    for ang in angles:
        rot = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
        c, s = abs(rot[0, 0]), abs(rot[0, 1])
        nw, nh = int(pw * c + ph * s) + 2, int(pw * s + ph * c) + 2
        rot[0, 2] += nw / 2 - pw / 2
        rot[1, 2] += nh / 2 - ph / 2
        tc = cv2.warpAffine(cur, rot, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        tr = None if ref is None else cv2.warpAffine(ref, rot, (nw, nh), flags=cv2.INTER_LINEAR,
                                                      borderMode=cv2.BORDER_REPLICATE)
        tm = cv2.dilate(cv2.warpAffine(mask, rot, (nw, nh), flags=cv2.INTER_NEAREST), np.ones((5, 5), np.uint8))
        maps = edge_maps(tc, tr, level)
        for a, b in sizes_px:
            got = _plain_best(maps, a, b, tm)
            if got is not None and (best is None or got[0] > best[0] + 0.01):
                best = (*got, a, b, ang)
    return best


def _table(seed: int, card: bool) -> np.ndarray:
    """A grainy table (grey, float32), with a card (and a print line on it) lying turned."""
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 25, (150, 190)).astype(np.float32), (0, 0), 1.5)
    table = np.float32(90) + grain + rng.normal(0, 2, grain.shape).astype(np.float32)
    if card:
        quad = cv2.boxPoints(((98, 72), (88, 57), 17.0))
        cv2.fillPoly(table, [np.round(quad).astype(np.int32)], 215)
        cv2.line(table, (80, 60), (115, 75), 120, 2)
    return table


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("with_reference", [True, False])
@pytest.mark.parametrize("many_sizes", [True, False])
def test_the_faster_search_finds_what_the_plain_one_finds(seed, with_reference, many_sizes):
    cur = _table(seed, card=True)
    ref = _table(seed, card=False) if with_reference else None
    mask = np.zeros(cur.shape, np.uint8)
    mask[35:110, 45:150] = 1
    sizes = [(88, 57), (57, 88), (80, 52), (52, 80), (96, 62), (62, 96)] if many_sizes else [(88, 57), (57, 88)]
    angles = [17.0, 2.0, 45.0, 31.5]
    want = _plain_search(cur, ref, mask, angles, sizes, 6.0)
    got = search(cur, ref, mask, angles, sizes, 6.0)
    assert want is not None and got is not None
    assert got[:7] + got[8:] == want  # (the score's float32 bits too; got[7]: the turn matrix)
    assert abs(want[-1] - 17.0) < 1e-9  # (the card found at its own direction)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("with_reference", [True, False])
def test_a_narrow_place_is_searched_as_the_plain_search_does(seed, with_reference):
    """Fewer placements than the rectangle is long, either way: the strength sums only the runs
    its sides take, each the very same sum as the plain search's."""
    cur = _table(seed, card=True)
    ref = _table(seed, card=False) if with_reference else None
    mask = np.zeros(cur.shape, np.uint8)
    mask[65:80, 90:108] = 1
    for sizes in ([(88, 57)], [(57, 88), (88, 57)]):
        want = _plain_search(cur, ref, mask, [17.0, 11.0, 23.0], sizes, 6.0)
        got = search(cur, ref, mask, [17.0, 11.0, 23.0], sizes, 6.0)
        assert want is not None and got is not None
        assert got[:7] + got[8:] == want


def test_the_noise_is_the_median_difference_of_every_second_pixel():
    rng = np.random.default_rng(5)
    for h, w in ((540, 960), (121, 77), (64, 90)):
        reference = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        current = cv2.add(reference, rng.integers(0, 9, (h, w, 3), dtype=np.uint8))
        d = cv2.absdiff(reference[::2, ::2], current[::2, ::2]).max(axis=2)
        assert noise_of(reference, current) == float(np.median(d))
