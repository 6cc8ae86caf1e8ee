from kiosk.game import DECK
from vision.scene import make_scene


def test_same_seed_same_photo_different_seed_different_photo():
    a = make_scene(3, cards=10, face_down=2)
    b = make_scene(3, cards=10, face_down=2)
    c = make_scene(4, cards=10, face_down=2)
    assert a.jpeg == b.jpeg
    assert a.jpeg != c.jpeg
    assert a.image.shape == (1080, 1920, 3)


def test_parameters_stay_in_the_issue_ranges():
    for seed in range(6):
        p = make_scene(seed, cards=0).params
        assert 2.1 <= p["px_per_mm"] <= 3.0
        assert 0 <= p["perspective"] <= 0.10
        assert 75 <= p["jpeg_quality"] <= 92


def test_cards_listed_are_the_face_up_cards_in_view(tmp_path):
    s = make_scene(1, cards=list(DECK[:24]), px_per_mm=2.2, rotation=0, offset_mm=(0, 0))
    assert set(s.cards) == set(DECK[:24])
    s.write(tmp_path / "x.jpg")
    assert (tmp_path / "x.jpg").read_bytes()[:2] == b"\xff\xd8"
    far = make_scene(1, cards=list(DECK[:24]), px_per_mm=3.0, rotation=0, offset_mm=(-330, 0))
    assert 0 < len(far.cards) < 24  # the pile is partly out of the frame
    assert set(far.params["out_of_view"]) == {c.code for c in DECK[:24]} - {c.code for c in far.cards}
