"""Trick play: winners and legal cards under lliure, obligat and intermediate."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.game import DECK, Card, IllegalPlayError, RulesError
from kiosk.game.tricks import check_play, legal_cards, trick_winner, winning_index


def codes(cards):
    return " ".join(c.code for c in cards)


@pytest.mark.parametrize("cards,lead,trump,winner", [
    ("1C 11C 12C 9C", 0, "oros", 3),        # manilla of the suit led
    ("1C 11C 2O 9C", 1, "oros", 3),         # a small trump beats everything
    ("1C 3O 2O 9C", 2, "oros", 3),          # 3O over-trumps 2O
    ("1C 9O 9E 9B", 3, "botifarra", 3),     # no trump: only the suit led wins
    ("8E 1C 7E 9B", 0, "copes", 1),
    ("5O 4O 3O 2O", 2, "espases", 2),
])
def test_trick_winner(cards, lead, trump, winner):
    assert trick_winner(cards.split(), lead, trump) == winner


def test_three_second_variant_changes_the_order_only():
    cards = "1C 3C 2C 4C".split()
    assert trick_winner(cards, 0, "oros") == 0
    assert trick_winner(cards, 0, "oros", three_second=True) == 1
    assert Card.parse("3C").points == 0


def test_bad_tricks():
    with pytest.raises(IllegalPlayError, match="4 cards"):
        trick_winner(["1C"], 0, "oros")
    with pytest.raises(IllegalPlayError, match="empty"):
        winning_index([], "oros")


HAND = "9C 5C 3C 1O 7O 12E"   # no bastos

# (rule, trick so far, trump, expected legal cards from HAND)
CASES = [
    # leading: anything
    ("lliure", "", "oros", HAND),
    ("obligat", "", "oros", HAND),
    # partner winning (the card two places back), suit held
    ("lliure", "1C 11C", "oros", "9C 5C 3C"),
    ("obligat", "1C 11C", "oros", "9C 3C"),           # a point card of the suit or the lowest
    ("intermediate", "1C 11C", "oros", "9C 3C"),
    # partner winning, suit not held
    ("lliure", "1B 11B", "oros", HAND),
    ("obligat", "10B 4B", "oros", "9C 3C 1O 7O 12E"),  # point cards or the lowest of a suit
    # opponent winning, can beat
    ("lliure", "12C", "oros", "9C"),
    ("obligat", "12C", "oros", "9C"),
    ("intermediate", "12C", "oros", "9C"),
    # opponent winning, cannot beat (trumped)
    ("lliure", "8C 2O", "oros", "9C 5C 3C"),
    ("obligat", "8C 2O", "oros", "3C"),
    ("intermediate", "8C 2O", "oros", "9C 3C"),      # may load the manilla
    # opponent winning, suit not held: must trump to win
    ("lliure", "11B 1B 9B", "oros", "1O 7O"),       # 9B (an opponent) is winning
    ("obligat", "8B 9B", "oros", "1O 7O"),
    # ... over-trump if needed
    ("lliure", "8B 12O", "oros", "1O"),
    # no suit and no winning trump
    ("lliure", "8B 9O", "oros", HAND),
    ("obligat", "8B 9O", "oros", "3C 7O 12E"),   # the lowest card of a suit
    ("intermediate", "8B 9O", "oros", "9C 3C 1O 7O 12E"),
    # botifarra: no trumping
    ("lliure", "8B 9B", "botifarra", HAND),
    ("obligat", "8B 9B", "botifarra", "3C 7O 12E"),
]


@pytest.mark.parametrize("rule,trick,trump,expected", CASES)
def test_legal_cards_by_rule(rule, trick, trump, expected):
    got = legal_cards(HAND.split(), trick.split(), trump=trump, play_rule=rule)
    assert codes(got) == expected


def test_three_second_changes_the_lowest_card():
    hand = "3C 2C 5C".split()
    assert codes(legal_cards(hand, ["8C", "2O"], trump="oros", play_rule="obligat")) == "2C"
    hand = "3C 4C".split()
    assert codes(legal_cards(hand, ["8C", "2O"], trump="oros", play_rule="obligat")) == "3C"
    assert codes(legal_cards(hand, ["8C", "2O"], trump="oros", play_rule="obligat", three_second=True)) == "4C"
    # and a 3 beats the as
    assert codes(legal_cards(hand, ["1C"], trump="oros", play_rule="lliure", three_second=True)) == "3C"


def test_check_play_says_why():
    with pytest.raises(IllegalPlayError, match="5C may not be played: an opponent is winning with 12C: "
                                               "you must beat it with a higher copes"):
        check_play(HAND.split(), ["12C"], "5C", trump="oros")
    with pytest.raises(IllegalPlayError, match="you must trump to win"):
        check_play(HAND.split(), ["8B", "9B"], "12E", trump="oros")
    with pytest.raises(IllegalPlayError, match="not in this hand"):
        check_play(HAND.split(), [], "9O", trump="oros")
    assert check_play(HAND.split(), ["12C"], "9C", trump="oros") == Card.parse("9C")
    with pytest.raises(RulesError):
        legal_cards(HAND.split(), [], trump="oros", play_rule="strict")


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3), st.sampled_from(["oros", "copes", "botifarra"]))
def test_rules_nest_and_are_never_empty(rnd, played, trump):
    deck = list(DECK)
    rnd.shuffle(deck)
    hand, trick = deck[:12], deck[12:12 + played]
    lliure = set(legal_cards(hand, trick, trump=trump, play_rule="lliure"))
    inter = set(legal_cards(hand, trick, trump=trump, play_rule="intermediate"))
    obligat = set(legal_cards(hand, trick, trump=trump, play_rule="obligat"))
    assert obligat and obligat <= inter <= lliure <= set(hand)
    if trick:
        led = trick[0].suit
        if any(c.suit == led for c in hand):  # everybody follows suit when he can
            assert all(c.suit == led for c in lliure)
    for c in hand:
        if c in obligat:
            check_play(hand, trick, c, trump=trump, play_rule="obligat")
        else:
            with pytest.raises(IllegalPlayError):
                check_play(hand, trick, c, trump=trump, play_rule="obligat")


def test_a_whole_random_hand_can_always_be_played():
    rnd = random.Random(7)
    for rule in ("lliure", "obligat", "intermediate"):
        deck = list(DECK)
        rnd.shuffle(deck)
        hands = {s: deck[12 * s:12 * s + 12] for s in range(4)}
        lead, won = 1, {s: 0 for s in range(4)}
        for _ in range(12):
            trick = []
            for k in range(4):
                seat = (lead + k) % 4
                card = rnd.choice(legal_cards(hands[seat], trick, trump="espases", play_rule=rule))
                hands[seat].remove(card)
                trick.append(card)
            lead = trick_winner(trick, lead, "espases")
            won[lead] += 1
        assert sum(won.values()) == 12 and not any(hands.values())


def test_hand_play_follows_a_whole_hand_and_gives_the_piles():
    from kiosk.game import HandPlay, points_from_piles
    rnd = random.Random(3)
    deck = list(DECK)
    rnd.shuffle(deck)
    p = HandPlay({s: deck[12 * s:12 * s + 12] for s in range(4)}, first_lead=1, trump="copes",
                 play_rule="obligat")
    assert p.to_play == 1
    while not p.done:
        p = p.play(rnd.choice(p.legal()))
    assert len(p.tricks) == 12 and p.to_play is None and p.legal() == []
    piles = p.piles()
    assert sum(points_from_piles(piles).points.values()) == 72
    assert points_from_piles({"A": piles["A"]}).points == points_from_piles(piles).points
    # the winner of a trick leads the next one
    for (lead, cards, winner), (next_lead, _, _) in zip(p.tricks, p.tricks[1:]):
        assert next_lead == winner


def test_hand_play_refuses_a_wrong_card_and_says_where():
    from kiosk.game import HandPlay
    hands = {0: ["12C", "2O"], 1: ["9C", "5C"], 2: ["1O", "3B"], 3: ["4E", "5E"]}
    p = HandPlay(hands, first_lead=0, trump="oros")
    p = p.play("12C")
    with pytest.raises(IllegalPlayError, match="^trick 1, seat 1: 5C may not be played"):
        p.play("5C")
    with pytest.raises(IllegalPlayError, match="not in this hand"):
        p.play("1O")
    p2 = p.play("9C")
    assert p.trick == [Card.parse("12C")] and p2.trick == [Card.parse("12C"), Card.parse("9C")]
    with pytest.raises(IllegalPlayError, match="dealt twice"):
        HandPlay({0: ["9C"], 1: ["9C"], 2: ["1C"], 3: ["2C"]}, first_lead=0, trump="oros")
