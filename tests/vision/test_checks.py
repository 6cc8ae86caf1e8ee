from kiosk.game import DECK
from vision.checks import (CARD_TWICE, IN_BOTH_PILES, MISSING_CARDS, NOT_WHOLE_TRICKS, check_piles)
from vision.scene import make_scene


def test_whole_piles_pass():
    assert check_piles({"A": DECK[:20]}) == []
    assert check_piles({"A": DECK[:20], "B": DECK[20:]}) == []
    assert check_piles({"B": []}) == []


def test_failures_are_returned_with_their_cards():
    kinds = [p.kind for p in check_piles({"A": DECK[:21]})]
    assert kinds == [NOT_WHOLE_TRICKS]
    problems = check_piles({"A": DECK[:24], "B": DECK[20:44]})
    assert {p.kind for p in problems} == {IN_BOTH_PILES, MISSING_CARDS}
    both = next(p for p in problems if p.kind == IN_BOTH_PILES)
    assert set(both.cards) == set(DECK[20:24])
    missing = next(p for p in problems if p.kind == MISSING_CARDS)
    assert set(missing.cards) == set(DECK[44:])
    twice = check_piles({"A": list(DECK[:4]) + [DECK[0]]})
    assert [p.kind for p in twice] == [CARD_TWICE] and twice[0].cards == (DECK[0],)


def test_failed_checks_are_drawn_on_the_photo(reader):
    scene = make_scene(30, cards=list(DECK[:6]), rotation=0)
    result = reader.read(scene.image)
    problems = check_piles({"A": result.cards, "B": DECK[4:]})
    assert problems
    plain = result.annotate(scene.image)
    marked = result.annotate(scene.image, problems=problems)
    assert (marked != plain).any()
    d = result.detections_of(DECK[4])[0]
    x, y = d.corners.mean(axis=0).astype(int)
    ring = marked[max(y - 40, 0):y + 40, max(x - 40, 0):x + 40].reshape(-1, 3)
    assert ((ring[:, 2] > 200) & (ring[:, 1] < 60) & (ring[:, 0] < 60)).any()  # red outline
