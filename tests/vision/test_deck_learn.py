"""Learning an ordinary deck from photos: the library, the store and the `deck` command."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from kiosk.decks import deck_store
from kiosk.game import DECK, Card
from tests.vision import deckdraw
from vision.deck.errors import DeckError, DeckNotFoundError, EnrolmentError
from vision.deck.store import DeckStore, learn_folder, load_model


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deckA")
    deckdraw.enrol_folder(folder, style="A")
    return folder


@pytest.fixture(scope="module")
def bar(photos):
    """The deck learnt from ``photos`` (learnt once: several tests read the same model)."""
    return learn_folder("bar", photos)


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_learns_all_48_cards_and_keeps_them_by_name(bar, tmp_path):
    model = bar
    assert model.codes == [c.code for c in DECK]
    assert model.missing == []
    store = DeckStore(tmp_path / "decks")
    store.save(model)
    again = store.load("bar")
    assert again.codes == model.codes
    assert np.allclose(again.whole, model.whole)
    assert store.names() == ["bar"]


def test_a_missing_card_is_named(photos, tmp_path):
    folder = tmp_path / "some"
    shutil.copytree(photos, folder)
    (folder / "8B.jpg").unlink()
    with pytest.raises(EnrolmentError) as err:
        learn_folder("bar", folder)
    assert "8B" in str(err.value) and err.value.code == "8B"


def test_the_same_card_photographed_for_two_codes_is_flagged_and_the_deck_command_keeps_the_deck(
        photos, bar, tmp_path, data_dir, capsys):
    assert bar.similar_pairs() == []
    folder = tmp_path / "dup"
    shutil.copytree(photos, folder)
    # 7C photographed again, at another place on the mat, and filed as 6C
    image = deckdraw.enrol_photo(Card.parse("7C"), seed=5, centre=(560, 330))
    cv2.imwrite(str(folder / "6C.jpg"), image)
    # learnt once, by the command (``learn_folder`` and the store underneath): the pair is in
    # the model it kept, and the command names the two photos to check
    assert main(["deck", "learn", "bar", str(folder)]) == 0
    assert "check 7C.jpg and 6C.jpg" in capsys.readouterr().err
    assert (data_dir / "decks" / "bar.npz").exists()
    pairs = deck_store().load("bar").similar_pairs()
    assert [(p.first.code, p.second.code) for p in pairs] == [("7C", "6C")]
    # the deck the command learnt, listed, exported, imported under another name and removed
    # (the command's learning of 48 photos is the one above: not a second time)
    assert main(["deck", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "bar"
    assert main(["deck", "export", "bar", str(tmp_path)]) == 0
    assert main(["deck", "import", str(tmp_path / "bar.npz"), "--name", "casa"]) == 0
    capsys.readouterr()
    assert main(["deck", "list"]) == 0
    assert capsys.readouterr().out.split() == ["bar", "casa"]
    assert deck_store().load("casa").codes == [c.code for c in DECK]
    assert main(["deck", "remove", "bar"]) == 0
    assert main(["deck", "remove", "bar"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("botifarra-kiosk deck: no deck named bar")


def test_a_card_not_on_the_mat_is_refused(photos, tmp_path):
    folder = tmp_path / "off"
    shutil.copytree(photos, folder)
    # half off the photo (on the right, where the drawn light's gradient would clip the paper
    # white at gain 1: a reflection's mark; a little dimmer here). The deck's second card
    # (``DECK`` order, the order it is learnt in): one card learnt before the refusal, not 34
    cut = deckdraw.enrol_photo(Card.parse("1O"), centre=(1270, 360), light=deckdraw.Light(gain=0.9))
    cv2.imwrite(str(folder / "1O.jpg"), cut)
    with pytest.raises(EnrolmentError) as err:
        learn_folder("bar", folder)
    # the true reason, and where: the card across the photo's edge
    assert err.value.code == "1O" and err.value.reason == "cut" and "edge" in str(err.value)
    assert "1O.jpg" in str(err.value) and err.value.where is not None and err.value.where[:, 0].max() > 1200
    empty = deckdraw.camera(deckdraw._mat((1280, 720), 0), deckdraw.Light(), np.random.default_rng(0))
    cv2.imwrite(str(folder / "1O.jpg"), empty)
    with pytest.raises(EnrolmentError, match="no card"):
        learn_folder("bar", folder)


def test_a_deck_learnt_with_older_features_is_learnt_again(tmp_path):
    path = tmp_path / "old.npz"
    header = json.dumps({"format": 1, "name": "old", "codes": ["9O"], "card_long_frac": 0.1})
    np.savez_compressed(path, header=np.array(header), whole=np.zeros((2, 4)), corners=np.zeros((2, 3, 3)))
    with pytest.raises(DeckError, match="learn the deck again"):
        load_model(path)


def test_unknown_deck(tmp_path):
    with pytest.raises(DeckNotFoundError):
        DeckStore(tmp_path).load("nothing")


def test_command_learn_exits_2_with_one_line_for_a_missing_card(photos, data_dir, tmp_path, capsys):
    folder = tmp_path / "some"
    shutil.copytree(photos, folder)
    (folder / "12O.jpg").unlink()
    assert main(["deck", "learn", "bar", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "12O" in err
    assert not (data_dir / "decks" / "bar.npz").exists()


def test_read_deal_prints_the_cards_in_the_order_dealt(bar, data_dir, tmp_path, capsys):
    deck_store().save(bar)  # (where `deck learn bar` keeps it: the command itself is tested above)
    order = [Card.parse(c) for c in ("9O", "1C", "12E", "4B", "10O")]
    deal = deckdraw.deal(order, seed=4)
    names = []
    for i, frame in enumerate(deal.frames):
        names.append(str(tmp_path / f"f{i:03d}.jpg"))
        cv2.imwrite(names[-1], frame)
    capsys.readouterr()
    assert main(["read", "--deck", "bar", "--deal", *names, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"cards": [c.code for c in order], "uncertain": 0}
    assert main(["read", "--deck", "nope", "--deal", names[0], "--json"]) == 2


def test_the_card_is_found_on_marble_on_wood_beside_a_reflection_and_across_the_edge():
    """Realistic learning photos (tests/realcam/rough) the learner refused or outlined wrong:
    cream paper on white marble (the outline a vein joined was taken), a card beside the
    lamp's reflection on wood (its halo took the outline; a plank's joint running off the
    photo vetoed the card as "cut"); and an ace cut by the photo's edge, a thin strip, said
    to be no card at all. A moderna card on white marble: its tinted panel was outlined (its
    white paper, like the marble, has no edge in colour)."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import find_card_on_mat
    from vision.deck.views import order_quad

    for code, surface, seed, style in (("12C", "marble", 26014, "fournier"), ("1O", "wood", 25001, "fournier"),
                                       ("3O", "wood", 25010, "fournier"), ("11E", "wood", 25027, "fournier"),
                                       ("6O", "marble", 26107, "moderna"), ("5B", "marble", 26144, "moderna")):
        photo = learning_photo(code, surface, seed, deck_style=style)
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 6.0, (code, surface)
    cut = deckdraw.enrol_photo(Card.parse("1O"), centre=(1270, 360), light=deckdraw.Light(gain=0.9))
    with pytest.raises(EnrolmentError) as err:
        find_card_on_mat(cut)
    assert err.value.reason == "cut" and err.value.where[:, 0].max() > 1200


def test_a_side_placed_by_the_cards_shape_gives_the_paper_a_cards_aspect():
    """Moderna cards on white marble, outlined from the printed frame's steps of light
    (vision.deck.rim). 7C's short side steps nowhere clearly: it was placed to give the printed
    FRAME a card's aspect, 2m(aspect - 1) short of the paper's (m: the frame's margin), 7 px
    off, and accepted. 3E: the margin was taken at the paper's shadow, not its edge."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import find_card_on_mat
    from vision.deck.views import order_quad

    for code, seed in (("7C", 26118), ("3E", 26134)):
        photo = learning_photo(code, "marble", seed, deck_style="moderna")
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 4.0, code


def test_every_refusal_names_its_true_cause_and_a_reflection_beside_the_card_is_learnt():
    """Realistic learning photos (tests/realcam/rough) whose refusal gave a false reason, or
    none: a reflection on the card that clips half of it (taken for paper clipping in bright
    light) or nothing at all (a sheen, on glossy wood), or that joined the card on marble
    (said to be "cut"); a card off the mat that touches it, across the photo's edge (said to be
    "no card"); a card across both the photo's edge and the mat's edge (learnt 244 px off). A reflection beside the card, on marble and wood, is learnt, and one card on
    wood is not "two cards", nor one beside a reflection "cut"."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import find_card_on_mat
    from vision.deck.views import order_quad

    seed0 = 23_000 + 9000  # (tests/bench/deck_learning.py's refusal photos)
    # (95000: held-out; the card lies across the photo's edge and the mat's edge, and the part
    # of it on the mat, card-shaped, was learnt 244 px off: its side on the mat's edge has the
    # same paper on both sides)
    for surface, seed, kwargs, reason in (("felt", seed0 + 1, dict(reflection_on=True), "glare"),
                                          ("wood", seed0 + 14, dict(reflection_on=True), "glare"),
                                          ("marble", seed0 + 3, dict(reflection_on=True), "glare"),
                                          ("mat", seed0 + 12, dict(cut=True), "cut"),
                                          ("mat", 95_000, dict(cut=True), "cut"),
                                          ("marble", 95_015, dict(cut=True), "cut")):
        photo = learning_photo("5O", surface, seed, **kwargs)
        with pytest.raises(EnrolmentError) as err:
            find_card_on_mat(photo.image)
        assert err.value.reason == reason, (surface, seed, str(err.value))
        where, truth = np.asarray(err.value.where), photo.truth.quad
        assert where[:, 0].max() > truth[:, 0].min() and where[:, 0].min() < truth[:, 0].max(), (surface, seed)
    # (9C alone on wood, no reflection: its outlines by colour and by hue lie a fraction of a
    # pixel apart, and OpenCV's polygon intersection gave them no common area: "two cards")
    # (11O, moderna, held-out: a reflection's halo joined the card to a region running off the
    # photo, which took the card with it as "cut"; the card lies inside the photo)
    for code, surface, seed, style in (("4C", "marble", 26021, "fournier"), ("3C", "wood", 25022, "fournier"),
                                       ("9C", "wood", 61012, "fournier"), ("11O", "wood", 103103, "moderna")):
        photo = learning_photo(code, surface, seed, deck_style=style)
        assert (photo.truth.reflection is not None) == (code != "9C")
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 6.0, (code, surface)


def test_fresh_moderna_cards_on_white_marble_are_learnt_within_3_px():
    """Moderna cards on white marble from seeds nobody had tuned on, each wholly in the photo
    and clear of any reflection. 2E: its edge was placed at the margin that gives the card's
    shape (6.1 px off, accepted); the paper's edge lies in the middle of its thin dark line,
    whose two flanks step faintly. 10C: the colour took in a patch of marble, 27 px past one
    long side, beyond where the rim looked inwards; that side, placed by the card's shape, was
    put 179 px out instead (a rectangle of veins), and the photo refused as "white on white".
    5E: the colour found the tinted panel and no rim round it; the rim round the edge fit's
    outline is the card (both refused before, the card plain to see). 8E: a vein joined to the
    card's outline, and the colour found only its tinted panel: no card-shaped candidate, and
    the refusal said "cut by the photo's edge" (a patch of marble at the edge in the lens's
    shade); the card's edge is now looked for round what is printed on it."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import _confirmed, find_card_on_mat
    from vision.deck.views import order_quad

    for code, seed in (("2E", 61035), ("5E", 61032), ("8E", 61029), ("10C", 61016)):
        photo = learning_photo(code, "marble", seed, deck_style="moderna")
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 3.0, code
    # an outline that took in a patch of marble (10C's long side 27 px out) is still refused, and
    # why: the card's printed frame found round it does not lie on it
    q = order_quad(photo.truth.quad)
    out = np.float32([q[1, 1] - q[0, 1], q[0, 0] - q[1, 0]]) / np.linalg.norm(q[1] - q[0])
    out *= np.sign(np.dot(out, q[0] - q.mean(axis=0)))
    took = q + np.float32([27, 27, 0, 0])[:, None] * out
    with pytest.raises(EnrolmentError) as err:
        _confirmed(photo.image, took)
    assert err.value.reason == "no_edge" and "edge does not show" in str(err.value)


def test_moderna_cards_on_white_marble_of_the_held_out_seeds_are_learnt_within_3_px():
    """Moderna cards on white marble from the held-out seeds of round 5 (87000 + 1000 surface +
    100 deck + card: every one wrongly outlined or refused on its first run). 10C: the colour
    took in marble past one short side, and the sides stepped at one flank of the paper's dark
    edge line only; the edge was put half a line INSIDE that flank, as the card's shape said (a
    side placed by the shape makes that shape no evidence): 7.6 px off. Which flank a step is
    shows in its sign: paper to line darkens outwards, line to marble brightens. 9C (under a
    reflection's halo, gain 7.7): one side stepped at one flank, no more: 4.1 px off. 7E: a
    card-sized patch of marble that its veins close, nothing printed on it, was a second card
    ("more than one card"). 10E (a second held-out set, 101000 + ...): of its outlines, none
    was both the fullest and the most card-shaped, and the learner stopped with StopIteration
    (the kiosk's learn screen would have crashed). 12E: the colour took the figure's robe
    for the card, no rim lies round it, and the card was refused as "white on white"; the
    card's edge is now looked for round the other printed regions."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import find_card_on_mat
    from vision.deck.views import order_quad

    for code, seed in (("10C", 90116), ("9C", 90112), ("7E", 90130), ("10E", 104128), ("12E", 104126)):
        photo = learning_photo(code, "marble", seed, deck_style="moderna")
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 3.0, code


def test_fournier_cards_on_glossy_wood_of_the_held_out_seeds_are_learnt_within_3_px():
    """Fournier cards on glossy wood from the held-out seeds of round 5 (87000 / 101000 + 1000
    surface + 100 deck + card), accepted with one side 22-39 px out: the edge fit's line
    through the most edge points was one across the grain or a reflection's halo beside the
    card, turned 6-13 degrees from the card's side. A side's line now turns from the rough
    outline's by 3 degrees at the most."""
    from tests.realcam.rough.learning import learning_photo
    from vision.deck.learnspot import find_card_on_mat
    from vision.deck.views import order_quad

    for code, seed in (("5C", 89020), ("12E", 89026), ("4E", 103033)):
        photo = learning_photo(code, "wood", seed)
        quad = find_card_on_mat(photo.image)
        assert np.linalg.norm(order_quad(quad) - order_quad(photo.truth.quad), axis=1).max() <= 3.0, code
