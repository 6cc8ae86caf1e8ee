"""The realistic test camera (tests/realcam): the drawn deck, the stickers, the camera."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.game import DECK
from tests.realcam import deck


def test_every_card_has_its_own_face_in_both_styles():
    for name in deck.STYLES:
        faces = [deck.card_face(c, style=name, px_per_mm=3.0) for c in DECK]
        assert faces[0].shape == (round(95 * 3.0), round(61 * 3.0), 3)
        flat = {f.tobytes() for f in faces}
        assert len(flat) == 48


def test_the_two_styles_look_different():
    a = deck.card_face("9O", style="fournier", px_per_mm=3.0).astype(np.int16)
    b = deck.card_face("9O", style="moderna", px_per_mm=3.0).astype(np.int16)
    assert np.abs(a - b).mean() > 15
    assert not np.array_equal(deck.card_back(style="fournier", px_per_mm=3.0),
                              deck.card_back(style="moderna", px_per_mm=3.0))


def test_frame_breaks_count_by_suit():
    # along the top frame line of each suit's 2, count the runs of paper between line pieces
    for code, breaks in (("2O", 1), ("2C", 2), ("2E", 3), ("2B", 4)):
        ppm = 8.0
        face = deck.card_face(code, style="fournier", px_per_mm=ppm)
        st = deck.style("fournier")
        row = face[int(round(st.frame_mm * ppm)), :, :].astype(np.int16)
        inked = np.abs(row - np.array(st.paper)).sum(1) > 120
        x0, x1 = int((st.frame_mm + 12) * ppm), int((61 - st.frame_mm - 12) * ppm)
        seg = inked[int(st.frame_mm * ppm) + 2:int((61 - st.frame_mm) * ppm) - 2]
        gaps = int(np.sum(seg[1:] & ~seg[:-1]))  # paper -> ink transitions = breaks
        assert gaps == breaks, (code, gaps, x0, x1)


def test_unknown_style_is_refused():
    with pytest.raises(ValueError):
        deck.card_face("1O", style="francesa")


# -- the stickers are the printed PDF's -------------------------------------------------------

def test_stickers_are_cut_from_the_kits_pdf_and_read_back():
    import cv2

    from tests.realcam.stickers import marker_corners_mm, printed_stickers
    from vision.kit import code_image
    from vision.marks import card_dictionary

    sheet = printed_stickers()
    det = cv2.aruco.ArucoDetector(card_dictionary())
    want = marker_corners_mm() * sheet.px_per_mm
    for i, card in enumerate(DECK):
        for which in (0, 1):
            st = sheet.sticker(card, which)
            corners, ids, _ = det.detectMarkers(cv2.copyMakeBorder(st, 30, 30, 30, 30, cv2.BORDER_CONSTANT,
                                                                   value=128))
            assert ids is not None and ids.ravel().tolist() == [i], (card.code, which)
            got = np.asarray(corners).reshape(4, 2) - 30
            assert np.abs(got - want).max() < 1.5
    # the printed code area is the kit's code image (up to the raster's resampling)
    st = sheet.sticker(DECK[5], 0)
    side = int(round(12.0 * sheet.px_per_mm))
    x0 = (st.shape[1] - side) // 2
    printed = st[:side, x0:x0 + side].astype(np.int16)
    ref = code_image(DECK[5], px=side).astype(np.int16)
    assert np.mean(np.abs(printed - ref) > 128) < 0.02


# -- the camera -------------------------------------------------------------------------------

def test_same_seed_same_pixels_and_truth():
    from tests.realcam.render import render

    a = render(5, mode="720p", cards=6, layout="spread", distractors=("menu",))
    b = render(5, mode="720p", cards=6, layout="spread", distractors=("menu",))
    assert a.jpeg == b.jpeg
    assert [t.code for t in a.truth] == [t.code for t in b.truth]
    c = render(6, mode="720p", cards=6, layout="spread", distractors=("menu",))
    assert c.jpeg != a.jpeg


@pytest.mark.parametrize("mode, size", [("720p", (1280, 720)), ("1080p", (1920, 1080)), ("still", (4608, 2592))])
def test_each_mode_delivers_its_frame_size(mode, size):
    from tests.realcam.render import render

    shot = render(2, mode=mode, cards=4, layout="stack", distractors=())
    assert shot.image.shape == (size[1], size[0], 3)
    assert shot.meta.size == size


def test_truth_marks_where_opencv_finds_the_markers():
    import cv2

    from tests.realcam.render import render
    from vision.marks import card_dictionary

    shot = render(11, mode="1080p", cards=12, layout="spread", height_cm=52, tilt_deg=5, distractors=(),
                  lighting="even", glare=0.0)
    truth = {t.code: t for t in shot.truth}
    corners, ids, _ = cv2.aruco.ArucoDetector(card_dictionary()).detectMarkers(
        cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    checked = 0
    offsets = []
    for q, i in zip(corners, [] if ids is None else ids.ravel()):
        if i >= 48:
            continue
        t = truth[DECK[i].code]
        q = q.reshape(4, 2)
        # OpenCV's corners on a defocused, noisy 23 px marker wander by a pixel or two; no bias
        m = min(t.marker_quads, key=lambda m: np.abs(q - m).max())
        assert np.abs(q - m).max() < 3.0, DECK[i].code
        offsets.append(q - m)
        side = float(np.mean([np.linalg.norm(q[k] - q[(k + 1) % 4]) for k in range(4)]))
        assert abs(side - t.marker_px) < 1.5
        checked += 1
    assert checked >= 8
    assert np.abs(np.mean(offsets, axis=(0, 1))).max() < 0.5  # no systematic shift
    assert np.abs(np.array(offsets)).mean() < 1.2
    assert 2.7 < shot.meta.px_per_mm < 3.2  # Camera Module 3, 1080p, 52 cm, little tilt


def test_a_squared_stack_shows_only_its_top_card():
    from tests.realcam.render import render

    shot = render(4, mode="1080p", cards=10, layout="stack", distractors=(), height_cm=55)
    visible = [t for t in shot.truth if t.visible]
    assert [t.code for t in visible] == [shot.truth[-1].code]
    assert visible[0].stickers_visible == 2
    assert all(t.stickers_visible == 0 for t in shot.truth[:-1])


def test_foreign_marker_squares_are_not_our_codes():
    import cv2

    from tests.realcam.props import distractor
    from vision.marks import card_dictionary

    det = cv2.aruco.ArucoDetector(card_dictionary())
    for seed in range(5):
        p = distractor("fake_markers", np.random.default_rng(seed), 8.0)
        _, ids, _ = det.detectMarkers(cv2.cvtColor(p.texture, cv2.COLOR_BGR2GRAY))
        assert ids is None or not [i for i in ids.ravel() if i < 48]


def test_distractor_frames_hold_no_face_up_card():
    from tests.realcam.dataset import shot_args
    from tests.realcam.render import render

    shot = render(**shot_args("distractors", 7))
    assert shot.face_up == () and shot.visible == set()
    assert shot.wrong(["9O"]) == {"9O"}


# -- dealing and enrolment (issue 11) ---------------------------------------------------------

def test_a_deal_names_its_order_and_its_still_windows():
    from tests.realcam.deal import deal

    d = deal(3, cards=3, fps=4, doubles=(1,))
    assert len(d.order) == 3 and d.truth[1].together_with == d.truth[2].code
    frames = list(d.frames())
    assert len(frames) == len(d)
    assert [f.t_s for f in frames] == sorted(f.t_s for f in frames)
    assert all(f.image.shape == (720, 1280, 3) for f in frames)
    for c in d.truth:
        for f in frames:
            if c.still_s <= f.t_s < c.until_s:
                assert not f.hand_in_view
    assert any(f.hand_in_view for f in frames)


def test_an_enrolment_photo_has_one_card_and_no_sticker():
    import cv2

    from tests.realcam.deal import enrol_photo
    from vision.marks import card_dictionary

    shot = enrol_photo("12C", deck_style="moderna", seed=2)
    assert shot.face_up == ("12C",) and shot.truth[0].marker_quads == ()
    corners = shot.truth[0].card_corners
    assert corners is not None and (corners >= 0).all() and (corners[:, 0] < 1920).all()
    _, ids, _ = cv2.aruco.ArucoDetector(card_dictionary()).detectMarkers(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    assert ids is None or all(i >= 48 for i in ids.ravel())  # only the mat's corners
