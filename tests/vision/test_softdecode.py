import cv2
import numpy as np
import pytest

from kiosk.game import DECK
from tests.vision.camera_chain import camera, scatter
from vision.kit import code_image
from vision.marks import ALL_IDS, FAMILY
from vision.scene import make_scene
from vision.softdecode import SoftDecoder


@pytest.fixture(scope="module")
def decoder():
    return SoftDecoder()


def _square(code: np.ndarray, *, marker_px: float, turns: int = 0, blur: float = 0.0,
            noise: float = 0.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A code image (quiet zone included, 10 modules) on a grey card, turned ``turns``
    quarter turns and shrunk so the marker is ``marker_px`` wide; its corners in the image."""
    big = 20  # px per module before shrinking
    canvas = np.full((20 * big, 20 * big), 110, np.uint8)
    canvas[5 * big:15 * big, 5 * big:15 * big] = cv2.resize(code, (10 * big, 10 * big),
                                                             interpolation=cv2.INTER_NEAREST)
    canvas = np.ascontiguousarray(np.rot90(canvas, turns))
    f = marker_px / (8 * big)
    small = cv2.resize(canvas, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    if blur:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    if noise:
        small = np.clip(small + np.random.default_rng(seed).normal(0, noise, small.shape), 0, 255).astype(np.uint8)
    a, b = 6 * big * f, 14 * big * f  # the marker's outer corners (a candidate's, not exact)
    corners = np.float32([[a, a], [b, a], [b, b], [a, b]]) + np.random.default_rng(seed).normal(0, 0.3, (4, 2))
    return small, corners.astype(np.float32)


def test_every_code_in_every_rotation_is_decoded_with_its_orientation(decoder):
    for i, card in enumerate(DECK):
        for turns in range(4):
            img, q = _square(code_image(card, px=10), marker_px=32, turns=turns, blur=0.6, seed=i)
            got = decoder.decode(img, q)
            assert got.index == i, (card, turns, got)
            assert got.margin >= decoder.min_margin and got.fit >= decoder.min_fit


def test_orientation_puts_the_codes_top_left_first(decoder):
    img, q = _square(code_image(DECK[5], px=10), marker_px=40, turns=1)
    got = decoder.decode(img, q)
    # np.rot90 turns a quarter anticlockwise: the code's top-left lands at the bottom-left,
    # its top-right at the top-left
    a, b = q[0, 0], q[2, 0]
    assert got.index == 5
    assert np.abs(got.corners[0] - (a, b)).max() < 1.5 and np.abs(got.corners[1] - (a, a)).max() < 1.5


@pytest.mark.parametrize("marker_px,blur,noise", [(18, 1.2, 4.0), (16, 1.0, 3.0), (22, 1.6, 5.0)])
def test_a_small_blurred_noisy_marker_is_decoded(decoder, marker_px, blur, noise):
    read = 0
    for seed, card in enumerate(DECK[:12]):
        img, q = _square(code_image(card, px=10), marker_px=marker_px, turns=seed % 4, blur=blur,
                         noise=noise, seed=seed)
        got = decoder.decode(img, q)
        assert got.index in (None, seed), got  # never another card
        read += got.index == seed
    assert read >= 11


def _code_of_bits(bits: np.ndarray) -> np.ndarray:
    m = np.zeros((10, 10), np.uint8) + 255
    m[1:9, 1:9] = 0
    m[2:8, 2:8] = bits.astype(np.uint8) * 255
    return m


def test_squares_that_are_not_our_codes_are_refused(decoder):
    family = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, FAMILY))
    others = [i for i in range(250) if i not in ALL_IDS][:40]
    for i in others:
        bits = cv2.aruco.Dictionary.getBitsFromByteList(family.bytesList[i:i + 1], 6)
        img, q = _square(_code_of_bits(bits), marker_px=30, blur=0.6, seed=i)
        got = decoder.decode(img, q)
        assert got.index is None and got.why, (i, got)
    rng = np.random.default_rng(3)
    for k in range(40):
        img, q = _square(_code_of_bits(rng.random((6, 6)) > 0.5), marker_px=24, blur=0.8, seed=k)
        assert decoder.decode(img, q).index is None


def test_a_card_code_with_two_cells_changed_is_refused_not_guessed(decoder):
    family = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, FAMILY))
    for i in (0, 7, 23, 47):
        bits = cv2.aruco.Dictionary.getBitsFromByteList(family.bytesList[ALL_IDS[i]:ALL_IDS[i] + 1], 6).copy()
        bits[1, 2] ^= 1
        bits[4, 4] ^= 1
        img, q = _square(_code_of_bits(bits), marker_px=40, blur=0.5, seed=i)
        got = decoder.decode(img, q)
        assert got.index is None and ("otherwise" in got.why or "contradicts" in got.why), got


def test_low_margin_is_refused(decoder):
    img, q = _square(code_image(DECK[3], px=10), marker_px=14, blur=3.5, noise=6, seed=1)
    got = decoder.decode(img, q)
    assert got.index is None and got.why
    strict = SoftDecoder(min_margin=1e6)
    img, q = _square(code_image(DECK[3], px=10), marker_px=30, blur=0.5)
    got = strict.decode(img, q)
    assert got.index is None and "low margin" in got.why


def test_a_blank_patch_is_not_a_marker(decoder):
    img = np.full((60, 60), 200, np.uint8)
    got = decoder.decode(img, np.float32([[10, 10], [40, 10], [40, 40], [10, 40]]))
    assert got.index is None and got.why == "no contrast"


@pytest.mark.parametrize("marker_px", [15, 20, 28])
def test_distractors_face_down_cards_and_an_empty_mat_give_no_card(reader, marker_px, one_core):
    for seed in range(3):
        rng = np.random.default_rng(100 * marker_px + seed)
        scene = make_scene(seed, cards=0, face_down=int(rng.integers(0, 12)), px_per_mm=marker_px / 9.6, glare=0)
        img = camera(scatter(scene.image, rng, marker_px), rng, blur=rng.uniform(0.5, 1.3),
                     sharpen=rng.uniform(0.3, 1.0))
        result = reader.read(img)
        assert result.cards == [], (marker_px, seed, result.codes)


@pytest.mark.parametrize("marker_px", [16, 19])
def test_small_stickers_through_a_cheap_camera_are_read_and_never_wrong(reader, marker_px, one_core):
    found = total = 0
    for seed in range(3):
        rng = np.random.default_rng(7 * marker_px + seed)
        scene = make_scene(seed, cards=16, px_per_mm=marker_px / 9.6, blur=0.5, glare=0)
        img = camera(scene.image, rng, blur=rng.uniform(0.6, 1.3), sharpen=rng.uniform(0.3, 1.0))
        result = reader.read(img)
        assert set(result.cards) <= scene.allowed
        found += len(set(result.cards) & set(scene.cards))
        total += len(scene.cards)
    assert found >= 0.9 * total, (found, total)


@pytest.mark.parametrize("mode,seed", [("720p", 3), ("1080p", 4)])
def test_realistic_distractor_table_gives_no_card(reader, mode, seed, one_core):
    """The realistic camera's table with no face-up card: QR menu, coaster, phone, other
    fiducials, a glass ring, face-down cards. Whatever squares are seen, none is a card."""
    from tests.realcam.render import render

    shot = render(95_000 + seed, mode=mode, cards=0, face_down=6,
                  distractors=("coaster", "phone", "menu", "fake_markers", "face_down", "glass_ring"))
    result = reader.read(shot.image)
    assert result.cards == [] and shot.wrong(result.codes) == set()
