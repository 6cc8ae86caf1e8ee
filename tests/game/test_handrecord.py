"""The record of a hand in play: card events folded trick by trick, the running points, the
whole-deck check, corrections, and a restart from the journal's events."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.game import Card, IllegalPlayError, InvalidCardError, MatchStateError, Rules
from kiosk.game.handcheck import check_hand, read_played_hand
from kiosk.game.handrecord import CardCorrected, CardPlayed, HandInPlay, deck_check, event_from_dict
from tests.game.handgen import Referee, card, deal_and_play


def events_of(doc):
    """The hand's cards as the table would record them: (trick, seat, card) in order."""
    ref = Referee(doc["trump"], doc["rules"]["play_rule"], doc["rules"]["three_second"])
    lead, out = doc["first_lead"], []
    for n, codes in enumerate(doc["tricks"], 1):
        out += [CardPlayed(n, (lead + i) % 4, Card.parse(c)) for i, c in enumerate(codes)]
        lead = (lead + ref.best([card(c) for c in codes])) % 4
    return out


def start(doc):
    return HandInPlay(doc["trump"], first_lead=doc["first_lead"], rules=Rules.from_dict(doc["rules"]))


def C(code):
    return Card.parse(code)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_a_whole_hand_card_by_card_gives_the_winners_and_running_points(seed):
    drawn = deal_and_play(random.Random(seed), renunci=seed % 2 == 0)
    doc, events = drawn.doc, events_of(drawn.doc)
    hand = start(doc)
    running = []
    ref = Referee(doc["trump"], doc["rules"]["play_rule"], doc["rules"]["three_second"])
    points = {"A": 0, "B": 0}
    for n, codes in enumerate(doc["tricks"], 1):
        best = ref.best([card(c) for c in codes])
        winner = next(e.seat for e in events if e.trick == n and e.card == C(codes[best]))
        points["AB"[winner % 2]] += sum({9: 5, 1: 4, 12: 3, 11: 2, 10: 1}.get(card(c)[0], 0) for c in codes) + 1
        running.append((winner, dict(points)))
    for e in events:
        assert (hand.trick_number, hand.to_play) == (e.trick, e.seat)
        hand = hand.play(e)
    assert hand.complete and hand.to_play is None and hand.trick_number is None
    assert [(t.winner, t.points) for t in hand.tricks] == running
    assert sum(hand.points.values()) == 72 and hand.last_trick.number == 12
    assert hand.deck().whole
    assert hand.check() == check_hand(read_played_hand(doc))


@given(st.integers(0, 2**32 - 1), st.integers(1, 47))
@settings(max_examples=60, deadline=None)
def test_a_restart_from_the_journal_resumes_at_the_same_trick(seed, cards):
    doc = deal_and_play(random.Random(seed)).doc
    events = events_of(doc)[:cards]
    hand = start(doc)
    for e in events:
        hand = hand.play(e)
    stored = json.loads(json.dumps([e.to_event() for e in events]))   # what the journal keeps
    again = HandInPlay.from_events(stored, doc["trump"], first_lead=doc["first_lead"],
                                   rules=Rules.from_dict(doc["rules"]))
    assert (again.trick_number, again.to_play, again.trick, again.tricks, again.points) == \
        (hand.trick_number, hand.to_play, hand.trick, hand.tricks, hand.points)
    assert again.events == tuple(events)


TRICKS = [["9C", "2O", "3C", "5C"], ["6C", "4C", "7C", "8C"]]   # seat 1 fails to follow in trick 1


def two_tricks(trump="bastos"):
    hand = HandInPlay(trump, first_lead=0)
    for e in events_of({"rules": {"play_rule": "lliure", "three_second": False}, "trump": trump,
                        "first_lead": 0, "tricks": TRICKS}):
        hand = hand.play(e)
    return hand


def test_the_running_points_the_last_trick_and_the_renunci():
    hand = two_tricks()
    assert [t.points for t in hand.tricks] == [{"A": 6, "B": 0}, {"A": 6, "B": 1}]
    last = hand.last_trick
    assert (last.number, last.lead, last.winner, last.seat_of(C("4C"))) == (2, 0, 3, 1)
    r = hand.check().renunci
    assert (r.trick, r.seat, r.card.code, r.proof.trick, r.proof.card.code) == (1, 1, "2O", 2, "4C")
    assert hand.to_play == 3 and hand.trick_number == 3


def test_a_card_already_played_is_refused_and_says_where():
    hand = two_tricks()
    with pytest.raises(IllegalPlayError, match="trick 3, seat 3: 9C was already played in trick 1"):
        hand.play(CardPlayed(3, 3, C("9C")))


@pytest.mark.parametrize("event,words", [
    (CardPlayed(3, 0, C("1O")), "trick 3: it is seat 3's turn to play, not seat 0's"),
    (CardPlayed(2, 3, C("1O")), "trick 3 is being played, not trick 2"),
])
def test_a_card_out_of_turn_is_refused(event, words):
    with pytest.raises(IllegalPlayError, match=words):
        two_tricks().play(event)


def test_nothing_after_the_48th_card():
    doc = deal_and_play(random.Random(3)).doc
    hand = HandInPlay.from_events([e.to_event() for e in events_of(doc)], doc["trump"],
                                  first_lead=doc["first_lead"], rules=Rules.from_dict(doc["rules"]))
    with pytest.raises(IllegalPlayError, match="every card of this hand has been played"):
        hand.play(CardPlayed(12, 0, C("1O")))


def test_a_misread_corrected_at_its_trick_clears_the_renunci():
    hand = two_tricks()
    # the table says seat 1's card in trick 1 was the 10C, not the 2O
    fixed = hand.apply(CardCorrected(1, 1, C("10C")))
    assert fixed.check().renunci is None
    assert [t.points for t in fixed.tricks] == [{"A": 7, "B": 0}, {"A": 7, "B": 1}]
    assert fixed.events[1] == CardPlayed(1, 1, C("10C"))
    stored = [e.to_event() for e in hand.events] + [CardCorrected(1, 1, C("10C")).to_event()]
    assert HandInPlay.from_events(stored, "bastos", first_lead=0).tricks == fixed.tricks


def test_a_correction_that_no_longer_fits_is_refused():
    hand = two_tricks()
    with pytest.raises(IllegalPlayError, match="trick 1, seat 1: 6C was already played in trick 2"):
        hand.apply(CardCorrected(1, 1, C("6C")))
    with pytest.raises(IllegalPlayError, match="trick 2: it is seat 1's turn"):
        hand.apply(CardCorrected(1, 1, C("1B")))     # a trump: seat 1 wins trick 1 and leads trick 2
    with pytest.raises(IllegalPlayError, match="seat 2 has no card in trick 3 to correct"):
        hand.apply(CardCorrected(3, 2, C("1O")))


def test_the_whole_deck_check():
    doc = deal_and_play(random.Random(5)).doc
    events = events_of(doc)
    assert deck_check(events).whole
    short = deck_check(events[:-1])
    assert short.missing == (events[-1].card,) and short.per_seat.count(11) == 1 and not short.whole
    doubled = deck_check(events[:-1] + [CardPlayed(12, events[-1].seat, events[0].card)])
    assert doubled.doubled == (events[0].card,) and doubled.missing == (events[-1].card,)
    assert doubled.per_seat == (12, 12, 12, 12) and not doubled.whole


@pytest.mark.parametrize("event,error,words", [
    ({"type": "card_played", "trick": 0, "seat": 0, "card": "9O"}, MatchStateError, "numbered 1 to 12, not 0"),
    ({"type": "card_played", "trick": True, "seat": 0, "card": "9O"}, MatchStateError, "numbered 1 to 12"),
    ({"type": "card_played", "trick": 1, "seat": 4, "card": "9O"}, BaseException, "seat 4 does not exist"),
    ({"type": "card_played", "trick": 1, "seat": 0, "card": "²O"}, InvalidCardError, "unknown card"),
    ({"type": "card_played", "trick": 1, "seat": 0, "card": 9}, InvalidCardError, "unknown card 9"),
    ({"type": "card_played", "trick": 1, "seat": 0}, MatchStateError, "an event such as"),
    ({"type": "card_played", "trick": 1, "seat": 0, "card": "9O", "x": 1}, MatchStateError, "an event such as"),
    ({"type": "card_eaten", "trick": 1, "seat": 0, "card": "9O"}, MatchStateError, "an event such as"),
    (["card_played", 1, 0, "9O"], MatchStateError, "an event such as"),
])
def test_bad_events_are_refused(event, error, words):
    with pytest.raises(error, match=words):
        event_from_dict(event)


def test_typed_events_check_themselves():
    with pytest.raises(MatchStateError):
        CardPlayed(13, 0, C("9O"))
    with pytest.raises(InvalidCardError):
        CardPlayed(1, 0, "9O")
    assert event_from_dict(CardCorrected(2, 3, C("12E")).to_event()) == CardCorrected(2, 3, C("12E"))


def test_the_documented_examples_run():
    import doctest

    from kiosk.game import handcheck, handrecord
    for module in (handcheck, handrecord):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0
