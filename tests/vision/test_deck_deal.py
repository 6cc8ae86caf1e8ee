"""Deal-through reading on drawn dealing sequences: a hand brings each card onto a face-up
pile, lets go and leaves (motion blur, light gradient, noise, JPEG)."""

from __future__ import annotations

import pytest

from kiosk.game import DECK, Card
from tests.vision import deckdraw
from vision.deck.model import DeckModel
from vision.deck.tracker import COUNTED, DARKER, HAND, SHOW_AGAIN, TAKEN_BACK, TWO_CARDS

# the score-changing neighbours: 8/9, 1/10, 12/1, 9 against others, plus suit twins
ORDER = [Card.parse(c) for c in ("9O", "8O", "1C", "10C", "12E", "1E", "9B", "11B", "2O", "3C")]


@pytest.fixture(scope="module")
def model():
    return deckdraw.learnt("A")


def counted(events):
    return [e.card for e in events if e.kind == COUNTED]


def test_every_card_is_named_once_in_the_order_dealt(model):
    deal = deckdraw.deal(ORDER, seed=11)
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    assert counted(events) == ORDER
    assert tracker.uncertain == 0
    tally = tracker.tally
    assert (tally.points, tally.tricks) == (5 + 0 + 4 + 1 + 3 + 4 + 5 + 2 + 0 + 0, 2)


def test_no_read_while_a_hand_is_over_the_pile(model):
    order = ORDER[:3]
    deal = deckdraw.deal(order, seed=12, hover_frames=6)  # the hand rests on the pile
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    kinds = [e.kind for e in events]
    assert HAND in kinds
    # each card is read only after the hand has gone: never in a frame with the hand
    per_card = len(deal.frames) // len(order)
    for e in events:
        if e.kind == COUNTED:
            assert (e.frame_number - deckdraw_offset()) % per_card >= per_card - 4
    assert counted(events) == order


def deckdraw_offset() -> int:
    return 4  # the empty-mat frames before the first card


def test_two_cards_dealt_at_once_are_asked_about_never_guessed(model):
    deal = deckdraw.deal(ORDER[:5], seed=13, pairs=(2,))  # the 3rd and 4th land together
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    assert TWO_CARDS in [e.kind for e in events]
    got = counted(events)
    assert set(got) <= set(ORDER[:5])  # nothing wrong
    assert got[:2] == ORDER[:2] and got[-1] == ORDER[4]


def test_a_card_lifted_off_again_is_taken_back(model):
    deal = deckdraw.deal(ORDER[:3], seed=14)
    # after the third card lies still, the player lifts it off: the table is as before it
    before_third = deal.frames[deckdraw_offset() + 2 * 10 - 1]
    frames = deal.frames + [before_third] * 5
    tracker, events = deckdraw.run_tracker(model, frames)
    assert counted(events) == ORDER[:3]
    assert [e.card for e in events if e.kind == TAKEN_BACK] == [ORDER[2]]
    assert tracker.cards == ORDER[:2]


def test_take_back_button_forgets_the_last_card(model):
    deal = deckdraw.deal(ORDER[:2], seed=15)
    tracker, _ = deckdraw.run_tracker(model, deal.frames)
    assert tracker.cards == ORDER[:2]
    # asked for a card no longer on top (the reader saw it lifted meanwhile): the one under stays
    assert tracker.take_back(ORDER[0]) is None and tracker.cards == ORDER[:2]
    assert tracker.take_back(ORDER[1]) == ORDER[1]
    assert tracker.cards == ORDER[:1]
    # it still lies there, the player not quick to lift it: not counted again (nor refused
    # again, with the error cue, every few frames) until something moves
    still = [e for _ in range(6) for e in tracker.feed(deal.frames[-1])]
    assert [e.kind for e in still if e.kind != DARKER] == [] and tracker.cards == ORDER[:1]
    # the player lays it down again: read again
    again = deckdraw.deal(ORDER[:2], seed=15)
    for frame in again.frames[-10:]:
        tracker.feed(frame)
    assert tracker.cards == ORDER[:2]


def test_the_same_deck_under_a_second_lighting(model):
    deal = deckdraw.deal(ORDER, seed=16, light=deckdraw.SECOND_LIGHT)
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    got = counted(events)
    assert [c for c in got if c not in ORDER] == []
    assert got == [c for c in ORDER if c in got]
    assert len(got) >= len(ORDER) - 1 and tracker.uncertain <= 1


def test_another_deck_style_is_never_read_as_wrong_cards(model):
    order = [DECK[i] for i in range(0, 48, 5)]
    deal = deckdraw.deal(order, seed=17, style="B")
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    # whatever it names must be the card dealt (it may ask to show one again instead)
    got = iter(order)
    assert all(card in got for card in counted(events)), (counted(events), order)
    # and learning deck B reads it
    tracker_b, events_b = deckdraw.run_tracker(deckdraw.learnt("B"), deal.frames)
    got_b = counted(events_b)
    rest = iter(order)
    assert all(card in rest for card in got_b) and len(got_b) >= len(order) - 1, (got_b, order)


def without(model: DeckModel, code: str) -> DeckModel:
    """``model`` as learnt without ``code``'s photo: each card's two views are its own
    photo's alone (``DeckModel.learn``), so its other rows, no photo drawn or outlined again."""
    keep = [i for i, c in enumerate(model.codes) if c != code]
    rows = [r for i in keep for r in (2 * i, 2 * i + 1)]
    return DeckModel(model.name, [model.codes[i] for i in keep], model.whole[rows], model.corners[rows],
                     card_long_frac=model.card_long_frac)


def test_a_card_not_sure_of_is_asked_again(model):
    # a deck that lacks the card dealt: the reader must not name a neighbour
    partial = without(model, "8O")
    assert "8O" not in partial.codes and len(partial.codes) == 47
    deal = deckdraw.deal([Card.parse("8O")], seed=18)
    tracker, events = deckdraw.run_tracker(partial, deal.frames)
    assert counted(events) == []
    assert [e.kind for e in events] == [SHOW_AGAIN]
