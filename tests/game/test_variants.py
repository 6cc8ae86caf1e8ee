"""Other player counts: four individual, three (36 cards), two (rector i vicari)."""

import pytest

from kiosk.game import DECK, DECK_36, IllegalBidError, InvalidPileError, InvalidScoreError
from kiosk.game.variants import FOUR_INDIVIDUAL, THREE, TWO, PlayerTally, score_players

D48 = [c.code for c in DECK]
D36 = [c.code for c in DECK_36]


def test_four_individual_scores_around_18_and_can_be_negative():
    assert score_players("four_individual", trump="oros", points=[30, 10, 20, 12]) == [12, -8, 2, -6]
    assert score_players("four_individual", trump="oros", doubling="contro", points=[30, 10, 20, 12]) == [24, -16, 4, -12]
    assert score_players("four_individual", trump="botifarra", points=[18, 18, 18, 18]) == [0, 0, 0, 0]


@pytest.mark.parametrize("trump,doubling,words", [
    ("botifarra", "contro", "not allowed when trump is botifarra"),
    ("oros", "recontro", "only contro"),
])
def test_four_individual_doubling_limits(trump, doubling, words):
    with pytest.raises(IllegalBidError, match=words):
        score_players("four_individual", trump=trump, doubling=doubling, points=[18, 18, 18, 18])


def test_four_individual_from_piles():
    piles = [D48[:12], D48[12:24], D48[24:36], D48[36:]]  # one suit each: 15 + 3 tricks
    assert FOUR_INDIVIDUAL.points(piles) == [18, 18, 18, 18]


def test_three_players_use_36_cards_and_score_around_24():
    assert len(THREE.deck) == 36 and THREE.tricks_per_hand == 12
    piles = [D36[:12], D36[12:24], D36[24:]]  # oros+ ... 12 cards = 4 tricks each
    pts = THREE.points(piles)
    assert sum(pts) == 72
    assert score_players("three", trump="copes", piles=piles) == [p - 24 for p in pts]
    with pytest.raises(InvalidPileError, match="not in this deck"):
        THREE.points([["2O", "9O", "1O"], D36[3:12], D36[12:]])


def test_rector_i_vicari_one_point_per_two_tricks():
    assert TWO.tricks_per_hand == 24
    # 12 tricks each: 6 trick points each
    a, b = D48[:24], D48[24:]
    assert TWO.points([a, b]) == [30 + 6, 30 + 6]
    # 11 and 13 tricks: 5 + 6 = 11 points, the odd one goes to the player with fewer tricks
    a, b = D48[:22], D48[22:]
    pa, pb = TWO.points([a, b])
    assert pa + pb == 72 and pa == 30 + 5 + 1
    assert TWO.score([45, 27], 2) == [18, 0]
    assert TWO.score([36, 36]) == [0, 0]
    assert score_players("two", trump="botifarra", doubling="contro", points=[40, 32]) == [16, 0]


def test_bad_variant_input():
    with pytest.raises(InvalidScoreError, match="add up to 70"):
        THREE.score([30, 20, 20])
    with pytest.raises(InvalidScoreError, match="give 3"):
        THREE.score([36, 36])
    with pytest.raises(InvalidPileError, match="is in two piles"):
        TWO.points([D48[:24], D48[:24]])
    with pytest.raises(InvalidPileError, match="whole deck"):
        FOUR_INDIVIDUAL.points([D48[:12], D48[12:24], D48[24:36], D48[36:44]])
    with pytest.raises(InvalidScoreError, match="either"):
        score_players("two", trump="oros")


def test_tally_keeps_running_totals_immutably():
    t0 = PlayerTally("three")
    t1 = t0.add(trump="oros", points=[30, 20, 22])
    t2 = t1.add(trump="botifarra", points=[20, 30, 22])
    assert t0.totals == [0, 0, 0] and t1.totals == [6, -4, -2]
    assert t2.totals == [6 - 8, -4 + 12, -2 - 4] and len(t2.hands) == 2


from hypothesis import given, settings, strategies as st  # noqa: E402


@st.composite
def deal(draw, variant):
    """The variant's deck split into one pile of whole tricks per player."""
    n = variant.tricks_per_hand
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=variant.players - 1,
                                max_size=variant.players - 1)))
    order = draw(st.permutations(range(len(variant.deck))))
    cards = [variant.deck[i].code for i in order]
    bounds = [0] + [c * variant.trick_size for c in cuts] + [len(cards)]
    return [cards[a:b] for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([FOUR_INDIVIDUAL, THREE, TWO]), st.sampled_from(["oros", "botifarra"]))
def test_every_variant_hand_makes_72(data, variant, trump):
    piles = data.draw(deal(variant))
    pts = variant.points(piles)
    assert sum(pts) == 72 and all(p >= 0 for p in pts)
    scores = score_players(variant, trump=trump, piles=piles)
    if not variant.pair_style:
        assert sum(scores) == 0  # each for himself: what one wins the others lose
    else:
        assert min(scores) == 0
