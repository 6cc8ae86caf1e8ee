"""The deal-through's cards sent back (issue 21), round 17: a card the peek finds covered unread
under a card named sure is asked about alone; the card named over it stays counted. Frames rendered
by the realistic camera (:mod:`tests.realcam.rough`) with the bench's hard draws."""

from __future__ import annotations

import numpy as np

from kiosk.game import Card
from tests.vision import realdeck
from tests.vision.test_deck_asks3 import _hard_sequence
from vision.deck.events import COUNTED, UNDER, DealEvent
from vision.deck.locate import shrunk
from vision.deck.outline import iou
from vision.deck.peek import Peek
from vision.deck.pile import Pile, Settled


def test_a_card_found_alone_under_a_card_named_sure_is_asked_about_and_the_named_card_stays_counted():
    """45006's 9th and 10th cards (5B, 8C; 720p on glossy wood, the lamp's reflection over the
    pile): 5B lies still at 49-50 and is covered by 8C unread; 8C is counted at 53, named sure
    (round 16's test, :mod:`tests.vision.test_deck_asks3`). The kept frame shows 5B's outline and
    nothing else new beside it: 8C stays counted and the card under it is asked about ("card
    under", about 8C: lift it, show the one under it, lay it back), one card sent back. The pile
    holds the card under unread between 10B and 8C, at its outline in the kept frame, so lifting
    8C leaves the table as that state. Main answered "two cards" (8C not counted, both sent back)."""
    seq = _hard_sequence(45006, "720p", "moderna")
    assert seq.truth[7:10] == ["10B", "5B", "8C"], seq.truth
    model = realdeck.learnt("moderna", ("10B", "5B", "8C"))

    def state(n: int, card: str) -> Settled:
        image = seq.frame(n).image
        return Settled(shrunk(image, 960, 3), Card.parse(card), where=seq.frame_truth[n].quad * (960 / image.shape[1]))

    before, named = state(42, "10B"), state(53, "8C")
    pile = Pile(model)
    pile.settled = [Settled(None), before, named]
    quad = named.where
    pile.card_long = float(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    peek = Peek(960)
    for n, still in ((47, False), (48, False), (49, True), (50, True)):
        peek.keep(before, seq.frame(n).image, still=still)
    counted = DealEvent(COUNTED, Card.parse("8C"), frame_number=53)
    events = peek.checked(pile, [counted])
    assert [(e.kind, e.card) for e in events] == [(COUNTED, Card.parse("8C")), (UNDER, Card.parse("8C"))]  # (main: two_cards)
    assert pile.cards == [Card.parse("10B"), Card.parse("8C")] and pile.settled[-1] is named
    under = pile.settled[-2]
    assert under.pending and under.card is None and pile.uncertain == 1
    image = seq.frame(50).image
    assert iou(under.where, seq.frame_truth[50].quad * (960 / image.shape[1])) > 0.8  # (5B's outline, as it lay)
