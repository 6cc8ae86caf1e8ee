"""The player doing what the deck reader asked: a card it was not sure of, lifted and laid
down again a few mm off, is named then, once, and the count goes on as if it had been named
the first time (drawn dealing sequences, no mat in view: the card's size is the reader's
own)."""

from __future__ import annotations

import pytest

from kiosk.game import Card, pile_points
from tests.vision import deckdraw
from vision.deck.tracker import COUNTED, SHOW_AGAIN

ORDER = [Card.parse(c) for c in ("9O", "8O", "1C", "10C", "12E", "1E", "9B")]


@pytest.fixture(scope="module")
def model():
    return deckdraw.learnt("A")


@pytest.mark.parametrize("seed", [24, 27, 28])
def test_a_card_sent_back_and_laid_down_again_is_named_once(model, seed):
    deal = deckdraw.deal(ORDER, seed=seed, stained=(1,))  # the 8 of oros lands under a stain of beer
    tracker, events = deckdraw.run_tracker(model, deal.frames)
    # asked about once, never guessed; named when laid down again; nothing else asked
    assert [e.kind for e in events].count(SHOW_AGAIN) == 1
    counted = [e for e in events if e.kind == COUNTED]
    assert [e.card for e in counted] == ORDER
    assert (tracker.tally.points, tracker.tally.tricks) == pile_points(ORDER)
    # the card laid down again is read from its own outline, not from its outline joined
    # to the gap it left (which also made the reader's idea of a card's size grow): it
    # and every card after it keep a clear score
    scores = [e.naming.score for e in counted[1:]]
    assert min(scores) > 0.8, scores
