import cv2
import numpy as np
import pytest

from tests.vision.camera_chain import camera
from vision.reader import PileReader
from vision.scene import make_scene
from vision.setup_check import GLARE, GOOD, NO_MAT, OUT_OF_FOCUS, TOO_HIGH, TOO_WEAK, check_setup


@pytest.fixture(scope="module")
def reader():
    return PileReader()


def _check(reader, *, px_per_mm, blur, glare_at=None, mat="A3", video=True):
    scene = make_scene(3, cards=6, px_per_mm=px_per_mm, glare=0, blur=0.3, mat=mat)
    img = scene.image.copy()
    if glare_at is not None:  # the lamp's reflection on a glossy card: a burnt-out blob
        cv2.circle(img, glare_at, int(8 * px_per_mm), (255, 255, 255), -1)
        img = cv2.GaussianBlur(img, (0, 0), 0.7)
    img = camera(img, np.random.default_rng(1), blur=blur, sharpen=0.5, noise=2)
    return check_setup(img, reader.read(img), video=video)


def test_a_good_setup_says_so_with_its_measures(reader):
    c = _check(reader, px_per_mm=2.6, blur=0.5)
    assert c.ok and [f.kind for f in c.findings] == [GOOD]
    assert 2.4 < c.px_per_mm < 2.8 and 23 < c.marker_px < 27 and c.edge_cells < 1.0
    assert "correcte" in c.messages[0] and any("px/mm" in line for line in c.lines())


def test_camera_too_high_is_blocking(reader):
    c = _check(reader, px_per_mm=1.1, blur=0.5)
    assert not c.ok and c.findings[0].kind == TOO_HIGH and "massa alta" in c.messages[0]


def test_too_weak_for_video_but_fine_for_stills(reader):
    c = _check(reader, px_per_mm=1.9, blur=0.5)
    assert c.ok and [f.kind for f in c.findings] == [TOO_WEAK] and "foto fixa" in c.messages[0]
    assert [f.kind for f in _check(reader, px_per_mm=1.9, blur=0.5, video=False).findings] == [GOOD]


def test_out_of_focus_is_blocking(reader):
    c = _check(reader, px_per_mm=2.6, blur=2.5)
    assert not c.ok and OUT_OF_FOCUS in [f.kind for f in c.findings] and c.edge_cells > 1.3
    assert "desenfocada" in " ".join(c.messages)


def test_a_card_in_glare_is_said_and_marked(reader):
    c = _check(reader, px_per_mm=2.6, blur=0.5, glare_at=(960, 540))
    assert GLARE in [f.kind for f in c.findings] and "reflex" in " ".join(c.messages)
    assert c.glare_squares and any(abs(q.mean(axis=0) - (960, 540)).max() < 40 for q in c.glare_squares)


def test_without_the_mat_nothing_is_measured(reader):
    c = _check(reader, px_per_mm=2.6, blur=0.5, mat=None)
    assert not c.ok and c.findings[0].kind == NO_MAT and c.px_per_mm is None


def test_diag_probe_without_a_camera_says_there_is_nothing_to_measure():
    from vision.setup_check import probe_setup

    assert "no set-up to measure" in probe_setup("demo")["camera"]
