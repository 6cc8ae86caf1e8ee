"""The deal-through reader fed as the kiosk's camera service feeds it on a busy machine: the
reader takes the latest frame, so the frames that came while it was busy are lost, and the
table's taps ("Treu l'última", a refused card taken back) come between any two frames."""

from __future__ import annotations

import copy
import itertools

import pytest

from kiosk.game import Card
from tests.vision import deckdraw
from vision.deck.tracker import COUNTED

STILL = 2  # still frames after each card in the drawn deal (as tests/ui/test_variant_deal.py)
PER_CARD = 3 + 2 + 1 + STILL  # deckdraw.deal: travel, hover, the hand away, still
MOVING = (2, 4, 5)  # of a card's frames, those the UI test's camera streams before the still one


@pytest.fixture(scope="module")
def model():
    return deckdraw.learnt("A")


def drawn(*codes: str) -> list:
    return deckdraw.deal([Card.parse(c) for c in codes], seed=5, still=STILL).frames


def dealt(frames: list, index: int, dropped: tuple[int, ...] = ()) -> list:
    """Card ``index`` of a drawn deal as the UI test's camera streams it (its frames in
    ``MOVING`` but those ``dropped``), and its still frame read three times."""
    start = STILL + PER_CARD * index
    return [frames[start + k] for k in MOVING if k not in dropped] + [frames[start + PER_CARD - 1]] * 3


def told(tracker, frames) -> list[tuple[str, str | None]]:
    return [(e.kind, e.card.code if e.card else None) for f in frames for e in tracker.feed(f)]


def test_a_card_taken_back_then_lifted_is_not_a_second_card_under_the_next_whatever_was_dropped(model):
    """tests/ui/test_variant_deal.py's table: 2E is counted and refused (not in the deck of
    three): taken back while it still lies, the reader reads one frame of it (no look yet: a
    frame kept unlooked), then the player lifts it off (a look: the table as before 2E). 12B
    dealt next, where 2E lay, was "two cards" on main whichever of its moving frames the
    reader dropped: the frame of 2E kept from before the look was taken for a card covered
    unread (the classifier names 2E where 12B lies now). A look that saw the table as the
    pile's last state forgets what the frames kept before it showed."""
    two, pere = drawn("1O", "9C", "2E"), drawn("1O", "9C", "12B")
    base, _ = deckdraw.run_tracker(model, [two[0]] * 3 + dealt(two, 0) + dealt(two, 1) + dealt(two, 2))
    assert base.cards == [Card.parse(c) for c in ("1O", "9C", "2E")]
    assert base.take_back(Card.parse("2E")) == Card.parse("2E")
    lift = two[STILL + PER_CARD * 2 - 1]  # the table with 1O and 9C
    assert told(base, [two[-1]] + [lift] * 3) == []  # one frame of 2E after the tap, then lifted
    for dropped in itertools.chain.from_iterable(itertools.combinations(MOVING, k) for k in range(4)):
        reader = copy.deepcopy(base, {id(model): model})  # (each pattern reads on from the same state)
        got = told(reader, dealt(pere, 2, dropped))
        assert got == [(COUNTED, "12B")], (dropped, got)  # (main: [("two_cards", None)])
