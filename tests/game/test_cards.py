import pytest

from kiosk.game import DECK, DECK_36, Card, InvalidCardError, Suit, card_points


def test_deck_has_48_distinct_cards_and_60_card_points():
    assert len(DECK) == 48 and len(set(DECK)) == 48
    assert card_points(DECK) == 60


def test_three_player_deck_drops_2_3_4():
    assert len(DECK_36) == 36
    assert not any(c.rank in (2, 3, 4) for c in DECK_36)
    assert card_points(DECK_36) == 60


@pytest.mark.parametrize("code,points", [("9O", 5), ("1C", 4), ("12E", 3), ("11B", 2), ("10O", 1), ("8C", 0), ("2B", 0)])
def test_points(code, points):
    assert Card.parse(code).points == points


def test_order_inside_a_suit():
    order = [Card(r, Suit.OROS) for r in (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)]
    strengths = [c.strength() for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert Card(3, Suit.OROS).strength(three_second=True) > Card(1, Suit.OROS).strength(three_second=True)


@pytest.mark.parametrize("text", ["13O", "0C", "9X", "", "O9", "9", "abc", "²O", "1²C", "٩O"])
def test_bad_cards_are_rejected_with_a_clear_error(text):
    with pytest.raises(InvalidCardError) as e:
        Card.parse(text)
    assert isinstance(e.value, ValueError)


def test_notation_round_trip():
    assert all(Card.parse(c.code) == c for c in DECK)
    assert Card.parse(" 12c ").code == "12C"


def test_repr_is_the_notation():
    assert repr(Card.parse("12b")) == "Card('12B')" and str(Card.parse("9o")) == "9O"
