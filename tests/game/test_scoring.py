"""Hand scoring, with the cases straight from RULES.md."""

import pytest

from kiosk.game import (
    DECK, PRESETS, Card, Doubling, InvalidCardError, InvalidPileError, InvalidScoreError, Trump,
    pile_points, points_from_piles, points_from_total, score_penalty, score_points, validate_pile,
)

R = PRESETS["reglament"]


def codes(cards):
    return [c.code for c in cards]


@pytest.mark.parametrize("points_a,trump,doubling,expected", [
    (45, Trump.OROS, Doubling.NONE, {"A": 9, "B": 0}),          # pagat: 45 scores 9
    (45, Trump.OROS, Doubling.CONTRO, {"A": 18, "B": 0}),       # contrat 18
    (45, Trump.OROS, Doubling.RECONTRO, {"A": 36, "B": 0}),     # recontrat 36
    (45, Trump.OROS, Doubling.SANT_VICENC, {"A": 72, "B": 0}),
    (45, Trump.BOTIFARRA, Doubling.NONE, {"A": 18, "B": 0}),    # botifarra x2
    (45, Trump.BOTIFARRA, Doubling.CONTRO, {"A": 36, "B": 0}),  # botifarra + contro x4
    (45, Trump.BOTIFARRA, Doubling.RECONTRO, {"A": 72, "B": 0}),  # x8
    (36, Trump.OROS, Doubling.NONE, {"A": 0, "B": 0}),          # 36-36: nobody
    (36, Trump.BOTIFARRA, Doubling.RECONTRO, {"A": 0, "B": 0}),
    (31, Trump.COPES, Doubling.NONE, {"A": 0, "B": 5}),
    (0, Trump.COPES, Doubling.NONE, {"A": 0, "B": 36}),
    (72, Trump.COPES, Doubling.NONE, {"A": 36, "B": 0}),        # no capot bonus
    (37, Trump.ESPASES, Doubling.NONE, {"A": 1, "B": 0}),
])
def test_hand_scores(points_a, trump, doubling, expected):
    assert score_points({"A": points_a, "B": 72 - points_a}, R.multiplier(trump, doubling)) == expected


@pytest.mark.parametrize("trump,doubling,stake", [
    (Trump.OROS, Doubling.NONE, 36), (Trump.BOTIFARRA, Doubling.NONE, 72),
    (Trump.OROS, Doubling.CONTRO, 72), (Trump.OROS, Doubling.RECONTRO, 144),
    (Trump.BOTIFARRA, Doubling.CONTRO, 144),
])
def test_penalty_other_pair_scores_36_times_multiplier(trump, doubling, stake):
    assert score_penalty("A", R.multiplier(trump, doubling)) == {"A": 0, "B": stake}
    assert score_penalty("B", R.multiplier(trump, doubling)) == {"A": stake, "B": 0}


def test_whole_deck_is_72_points():
    cp, tricks = pile_points(DECK)
    assert (cp, tricks, cp + tricks) == (60, 12, 72)


def test_one_pile_determines_the_other():
    pile = codes(DECK[:8])  # the top 8 of oros: 9 1 12 11 10 8 7 6 -> 15 points, 2 tricks
    hp = points_from_piles({"A": pile})
    assert hp.points == {"A": 17, "B": 55}
    assert hp.card_points == {"A": 15, "B": 45} and hp.tricks == {"A": 2, "B": 10}
    both = points_from_piles({"A": pile, "B": codes(DECK[8:])})
    assert both.points == hp.points


def test_empty_pile_is_zero():
    assert points_from_piles({"B": []}).points == {"A": 72, "B": 0}


@pytest.mark.parametrize("piles,error,words", [
    ({"A": ["9O", "1O", "12O"]}, InvalidPileError, "not whole tricks"),
    ({"A": ["9O", "9O", "1O", "12O"]}, InvalidPileError, "9O is there twice"),
    ({"A": ["13O", "9O", "1O", "12O"]}, InvalidCardError, "unknown card '13O'"),
    ({"A": ["9O", "1O", "12O", "11O"], "B": ["9O", "1C", "12C", "11C"]}, InvalidPileError, "9O is in both piles"),
    ({"A": ["9O", "1O", "12O", "11O"], "B": ["9C", "1C", "12C", "11C"]}, InvalidPileError, "whole deck"),
    ({"C": []}, InvalidPileError, "unknown team"),
    ({}, InvalidPileError, "piles must be"),
    ({"A": "9O 1O"}, InvalidPileError, "list of cards"),
])
def test_bad_piles_say_what_is_wrong(piles, error, words):
    with pytest.raises(error, match=words) as e:
        points_from_piles(piles)
    assert isinstance(e.value, ValueError)


def test_validate_pile_with_the_36_card_deck():
    from kiosk.game import DECK_36
    with pytest.raises(InvalidPileError, match="not in this deck"):
        validate_pile(["2O", "9O", "1O"], deck=DECK_36, trick_size=3)
    assert validate_pile(["9O", "1O", "12O"], deck=DECK_36, trick_size=3) == [Card.parse(c) for c in ("9O", "1O", "12O")]


@pytest.mark.parametrize("points,words", [
    ({"A": 73}, "over the 72"),
    ({"B": -1}, "negative"),
    ({"A": 40, "B": 40}, "do not make 72"),
    ({"A": "40"}, "whole number"),
    ({"A": True}, "whole number"),
    ({"X": 3}, "unknown team"),
    ({}, "must be an object"),
])
def test_bad_points(points, words):
    with pytest.raises(InvalidScoreError, match=words):
        points_from_total(points)


def test_points_from_total():
    assert points_from_total({"B": 41}).points == {"A": 31, "B": 41}
    assert points_from_total({"A": 36, "B": 36}).points == {"A": 36, "B": 36}
