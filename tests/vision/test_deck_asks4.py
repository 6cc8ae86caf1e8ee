"""The deal-through's cards sent back (issue 21), round 17: a card the peek finds covered unread
under a card named sure is asked about alone (round 21: counted under it when named where it
lay), the card named over it stays counted; a card named
unsure at the outline found is named at its own sides when that outline lies where the one found
lies (whose sides were new), and over a card asked about too. Frames rendered by the realistic
camera (:mod:`tests.realcam.rough`) with the bench's draws; the outlines found are the tracker's
with the bench's models (traced), the test model learnt from a few cards."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.game import Card
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from tests.vision.test_deck_asks3 import _hard_sequence
from vision.deck.events import COUNTED, UNDER, DealEvent
from vision.deck.locate import shrunk
from vision.deck.outline import Outline, iou
from vision.deck.peek import Peek
from vision.deck.pile import Pile
from vision.deck.states import Settled
from vision.deck.scale import TableScale


@pytest.mark.parametrize("knows_it", [True, False])
def test_a_card_found_alone_under_a_card_named_sure_is_counted_under_it_or_asked_about(knows_it: bool):
    """45006's 9th and 10th cards (5B, 8C; 720p on glossy wood, the lamp's reflection over the
    pile): 5B lies still at 49-50 and is covered by 8C unread; 8C is counted at 53, named sure
    (round 16's test, :mod:`tests.vision.test_deck_asks3`). The kept frame shows 5B's outline and
    nothing else new beside it: 8C stays counted. 5B, named sure in a kept frame it lay in, is
    counted under 8C (round 21: its event first, marked ``under``); with a deck that cannot name
    it (5B never learnt, cards like it learnt), the card under 8C is asked about ("card under",
    about 8C: lift it, show the one under it, lay it back), one card sent back. The pile holds the
    card under, read or unread, between 10B and 8C, at its outline in the kept frame, so lifting
    8C leaves the table as that state. Round 16 answered "two cards" (8C not counted, both sent back)."""
    seq = _hard_sequence(45006, "720p", "moderna")
    assert seq.truth[7:10] == ["10B", "5B", "8C"], seq.truth
    model = realdeck.learnt("moderna", ("10B", "5B", "8C") if knows_it else ("10B", "8C", "4B", "6B", "7B", "5C"))

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
    under = pile.settled[-2]
    if knows_it:
        assert [(e.kind, e.card, e.under) for e in events] == [
            (COUNTED, Card.parse("5B"), True), (COUNTED, Card.parse("8C"), False)]
        assert pile.cards == [Card.parse("10B"), Card.parse("5B"), Card.parse("8C")] and pile.uncertain == 0
        assert not under.pending and under.card == Card.parse("5B")
    else:
        assert [(e.kind, e.card) for e in events] == [(COUNTED, Card.parse("8C")), (UNDER, Card.parse("8C"))]
        assert pile.cards == [Card.parse("10B"), Card.parse("8C")] and pile.uncertain == 1
        assert under.pending and under.card is None
    assert pile.settled[-1] is named
    image = seq.frame(50).image
    assert iou(under.where, seq.frame_truth[50].quad * (960 / image.shape[1])) > 0.8  # (5B's outline, as it lay)


def _mixed_sequence(seed: int, k: int):
    """The mixed set's sequence ``seed``, the ``k``-th of its set (``tests/bench/bench_rough.py``'s draws)."""
    nu = realistic_nuisances(np.random.default_rng([seed, 1]))
    return deal_sequence(seed, nu, resolution=("720p", "1080p")[k % 2], cards=12,
                         deck_style=("fournier", "moderna")[k // 2 % 2])


def _detail(image: np.ndarray) -> np.ndarray:
    return shrunk(image, 960, 3)


def test_a_card_squared_on_the_last_one_in_a_darker_frame_is_named_at_its_own_sides():
    """41010's 3rd and 4th cards (6O, 7C; 720p on glossy wood, the lamp's reflection at 1.5 over
    the pile): 7C lands nearly squared on 6O (their outlines overlap 0.8), and the look at 21 asks
    for a darker frame (22). The outline found there (the tracker's, traced with the bench's models:
    its sides new, 0.45) is turned off 7C's (overlap 0.89): the classifier is unsure there. The
    frame's own edges give 7C's outline (0.91), where the classifier names 7C, sure; but main's
    refit guard took it for a card below found again: its sides new for 0.19 against 6O's darker
    picture (under ``NOT_NEW``: 7C's sides lie along 6O's), changed inside 0.18 (under
    ``DEALT_OVER``: white on white in the darker frame). An outline lying where the outline found
    lies, whose sides were new, is that card's: main asked to move it ("glare")."""
    seq = _mixed_sequence(41010, 10)
    assert seq.truth[2:4] == ["6O", "7C"] and [seq.frame_truth[n].top_index for n in (17, 21, 22)] == [2, 3, 3]
    model = realdeck.learnt("moderna", ("6O", "7C", "6C"))
    image, normal = seq.frame(22, exposure_scale=0.4).image, seq.frame(21).image
    k = 960 / image.shape[1]
    pile = Pile(model)
    pile.settled = [Settled(None), Settled(_detail(seq.frame(16).image), Card.parse("6O"),
                                           darker=_detail(seq.frame(17, exposure_scale=0.4).image),
                                           where=(seq.frame_truth[17].quad * k).astype(np.float32))]
    pile.card_long = 106.0
    found = np.float32([[504.45, 197.67], [557.32, 240.43], [490.66, 322.85], [437.79, 280.09]])  # (the tracker's)
    events = pile.name(image, _detail(normal), Outline(found, 0.9, 0.45, 106.0), _detail(image), normal)
    assert [(e.kind, e.card) for e in events] == [(COUNTED, Card.parse("7C"))]  # (main: [("glare", None)])
    assert iou(pile.settled[-1].where, seq.frame_truth[22].quad * k) > 0.9 > iou(found, seq.frame_truth[22].quad * k)


def test_a_card_come_over_one_asked_about_is_named_at_its_own_sides():
    """36002's 1st and 2nd cards (5E, 4O; 720p on marble, dealing at once under the reflection):
    5E is asked about at 3 (the first card under the reflection, round 12's by design), so the
    pile's last state is a card asked about when 4O lands; the look at 7 asks for a darker frame
    (8). The outline found (the tracker's) is a fifth too small inside 4O (overlap 0.62); the
    frame's own edges give 4O's (0.74), its sides new against 5E's picture (0.72), where the
    classifier names 4O. Main never refitted over a card asked about, and asked to move 4O;
    the count replaces the state asked about (5E stays asked about), as any card named over it."""
    seq = _mixed_sequence(36002, 2)
    assert seq.truth[:2] == ["5E", "4O"] and [seq.frame_truth[n].top_index for n in (3, 7, 8)] == [0, 1, 1]
    model = realdeck.learnt("moderna", ("5E", "4O", "4E"))
    image, normal = seq.frame(8, exposure_scale=0.4).image, seq.frame(7).image
    pile = Pile(model)
    pile.settled = [Settled(_detail(seq.frame(0).image)),
                    Settled(_detail(seq.frame(2).image), None, pending=True,
                            darker=_detail(seq.frame(3, exposure_scale=0.4).image))]
    pile.card_long = 98.0
    found = np.float32([[483.62, 264.25], [531.32, 305.40], [467.32, 379.61], [419.61, 338.46]])  # (the tracker's)
    events = pile.name(image, _detail(normal), Outline(found, 0.9, 0.64, 98.0), _detail(image), normal)
    assert [(e.kind, e.card) for e in events] == [(COUNTED, Card.parse("4O"))]  # (main: [("glare", None)])
    assert [s.card for s in pile.settled] == [None, Card.parse("4O")] and not pile.settled[-1].pending


def test_a_card_covered_unread_on_a_square_pile_is_found_by_its_name():
    """47006's 10th to 12th cards (6O, 9O, 11E; 720p on the mat, the hard draws): 9O lies still at
    62-64 under the dealer's lingering hand, with no look, and 11E lands almost squarely on it (the
    pile dealt square: their outlines overlap 0.65); the bench's models count 11E at 67 and say
    nothing of 9O: silent on main. In the still kept frame (63) 9O's outline lies there, new against
    6O's state, but its sides in view beside 11E now lie along the old ones (new for 0.09, under
    ``MIN_NEW_SECOND``). The classifier names 9O there, sure: neither the card named now nor one
    on the pile, so a card came, under 11E. The pile's states and the kept frames are set as the
    tracker left them (traced with the bench's models)."""
    seq = _hard_sequence(47006, "720p", "moderna")
    assert seq.truth[9:12] == ["6O", "9O", "11E"], seq.truth
    assert [seq.frame_truth[n].top_index for n in (58, 62, 63, 66)] == [9, 10, 10, 11]
    model = realdeck.learnt("moderna", ("6O", "9O", "11E"))
    k = 960 / 1280

    def state(asked: int, card: str, where: list) -> Settled:
        return Settled(_detail(seq.frame(asked).image), Card.parse(card),
                       darker=_detail(seq.frame(asked + 1, exposure_scale=0.4).image), where=np.float32(where))

    # (the outlines the tracker read them at, with the bench's models)
    before = state(58, "6O", [[464.08, 239.41], [533.55, 270.23], [485.70, 378.09], [416.23, 347.27]])
    pile = Pile(model)
    pile.settled = [Settled(None), before,
                    state(66, "11E", [[438.04, 243.06], [507.68, 273.49], [460.45, 381.62], [390.80, 351.20]])]
    pile.scale = TableScale.find(_detail(seq.frame(58).image))  # (the mat in view: the cards' size from it)
    peek = Peek(960)
    for n, still in ((61, False), (62, False), (63, True)):
        peek.keep(before, seq.frame(n).image, still=still)
    unread = peek.came_unread(pile)
    assert unread, "9O silent"  # (main: False)
    assert iou(unread.where, seq.frame_truth[63].quad * k) > 0.8
