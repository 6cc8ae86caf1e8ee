"""The deal-through's shortcuts (issue 21, the slow frames' CPU) give the full path's answer,
value for value: a shrunk copy remembered by the frame's identity, the white balance
applied by a table of the 256 levels, the tone map's median ratio and the motion's noise
level found from counts. Each is checked against the computation it replaces, on drawn
tables through real OpenCV; a shortcut that drifts by one level, one pixel or one ratio fails."""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck import darker, exposure, views
from vision.deck.locate import shrunk


def _table(w: int, h: int, seed: int) -> np.ndarray:
    """A mat with two cards and their print, a lamp's hot spot, the camera's noise."""
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), (70, 120, 60), np.uint8)
    s = w / 1280
    for (x, y), colour in (((500, 300), (40, 40, 170)), ((700, 330), (150, 60, 30))):
        x0, y0, x1, y1 = (int(round(v * s)) for v in (x, y, x + 110, y + 170))
        cv2.rectangle(img, (x0, y0), (x1, y1), (232, 236, 238), -1)
        for k in range(5):
            cv2.circle(img, (x0 + int(25 * s) + int(15 * s) * k, y0 + int(60 * s) + int(12 * s) * (k % 2)),
                       max(2, int(8 * s)), colour, -1)
    yy, xx = np.mgrid[0:h, 0:w]
    spot = 160.0 * np.exp(-((xx - 0.45 * w) ** 2 + (yy - 0.45 * h) ** 2) / (2 * (0.05 * w) ** 2))
    out = img + spot[..., None] + rng.normal(0, 4, img.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _shrunk_afresh(frame: np.ndarray, width: int, blur: int) -> np.ndarray:
    h, w = frame.shape[:2]
    width = min(width, w)
    inter = cv2.INTER_AREA if w % width == 0 else cv2.INTER_LINEAR
    return cv2.GaussianBlur(cv2.resize(frame, (width, int(round(h * width / w))), interpolation=inter),
                            (blur, blur), 0)


def test_a_frame_shrunk_again_is_its_copy_and_a_frame_with_a_corner_changed_is_shrunk_afresh():
    for w, h in ((1280, 720), (1920, 1080)):
        frame = _table(w, h, 1)
        first = shrunk(frame, 960, 3)
        assert shrunk(frame, 960, 3) is first  # (remembered: the same frame object)
        assert np.array_equal(first, _shrunk_afresh(frame, 960, 3))
        assert np.array_equal(shrunk(frame, 320, 5), _shrunk_afresh(frame, 320, 5))  # (another size: its own)
        # the same pixels in another object, then a card's corner come into view: each its own answer
        same = frame.copy()
        assert np.array_equal(shrunk(same, 960, 3), first)
        moved = frame.copy()
        cv2.rectangle(moved, (w // 10, h // 10), (w // 10 + 12, h // 10 + 18), (235, 235, 235), -1)
        again = shrunk(moved, 960, 3)
        assert again is not first and not np.array_equal(again, first)
        assert np.array_equal(again, _shrunk_afresh(moved, 960, 3))


def test_the_white_balance_by_a_table_of_levels_is_the_float_computation():
    rng = np.random.default_rng(5)
    frame = _table(960, 540, 2)
    # the card's white balance (views._ycc): every level, and a card warped off the table
    card = views.warp_card(frame, np.float32([[500, 300], [610, 300], [610, 470], [500, 470]]) * 0.75, pad=6)
    for img in (card, rng.integers(0, 256, (37, 29, 3), dtype=np.uint8)):
        for gains in (views.paper_gains(img), rng.uniform(0.5, 3.0, 3).astype(np.float32)):
            full = cv2.cvtColor(cv2.convertScaleAbs(img.astype(np.float32) * gains), cv2.COLOR_BGR2YCrCb)
            assert np.array_equal(views._ycc(img, gains), full)


def _tone_map_full(normal: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """darker.tone_map as first written: every sample pixel's ratio, np.median."""
    out = []
    for nc, dc in zip(cv2.split(normal), cv2.split(dark)):
        a, b = nc[::4, ::4], dc[::4, ::4]
        ok = (a >= darker.MIN_LEVEL) & (a < darker.GLARE_LEVEL) & (b >= darker.MIN_LEVEL)
        ratio = darker._LINEAR[b[ok]] / darker._LINEAR[a[ok]] if np.count_nonzero(ok) >= darker.MIN_SAMPLES \
            else np.ones(1)
        lut = darker._linear_to_srgb(float(np.median(ratio)) * darker._LINEAR)
        mapped = cv2.LUT(nc, np.clip(lut + 0.5, 0, 255).astype(np.uint8))
        lost = cv2.dilate(cv2.compare(nc, darker.GLARE_LEVEL, cv2.CMP_GE), darker._RING)
        np.copyto(mapped, dc, where=lost > 0)
        out.append(mapped)
    return cv2.merge(out)


def test_the_tone_maps_median_ratio_is_np_medians_and_the_map_the_full_one():
    rng = np.random.default_rng(7)
    for w, h, seed in ((960, 540, 3), (963, 541, 4), (61, 37, 5)):  # (odd sizes: numpy's own sample)
        normal = _table(w, h, seed)
        linear = darker._LINEAR[normal] * np.float64([0.42, 0.38, 0.4])
        dark = np.clip(darker._linear_to_srgb(linear) + rng.normal(0, 3, normal.shape), 0, 255).astype(np.uint8)
        assert np.array_equal(darker.tone_map.__wrapped__(normal, dark), _tone_map_full(normal, dark))
        a, b = normal[::4, ::4, 1], dark[::4, ::4, 1]
        ok = (a >= darker.MIN_LEVEL) & (a < darker.GLARE_LEVEL) & (b >= darker.MIN_LEVEL)
        want = float(np.median(darker._LINEAR[b[ok]] / darker._LINEAR[a[ok]])) if ok.sum() >= darker.MIN_SAMPLES else 1.0
        assert darker._median_ratio(np.ascontiguousarray(a), np.ascontiguousarray(b)) == want
    # a pixel more or less at the middle moves the median: an odd and an even count, both exact
    a = np.full(101, 100, np.uint8)
    b = np.arange(60, 161, dtype=np.uint8)
    for n in (101, 100):
        want = float(np.median(darker._LINEAR[b[:n]] / darker._LINEAR[a[:n]]))
        assert darker._median_ratio(a[:n], b[:n]) == want
    assert darker._median_ratio(a[:99], b[:99]) == 1.0  # (too few samples)


def test_a_levels_median_from_its_histogram_is_np_medians():
    rng = np.random.default_rng(9)
    for n in (1, 2, 7, 10, 1001):
        levels = rng.integers(0, 256, n, dtype=np.uint8)
        assert exposure.median_level(levels) == float(np.median(levels))
    d = cv2.absdiff(_table(320, 180, 6), _table(320, 180, 7))[..., 1]
    assert exposure.median_level(exposure.every_nth(d, 2)) == float(np.median(d[::2, ::2]))
    odd = d[:179, :317]
    assert np.array_equal(exposure.every_nth(odd, 2), odd[::2, ::2])
