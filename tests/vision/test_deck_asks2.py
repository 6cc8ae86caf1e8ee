"""The deal-through's asks about cards it could have named (issue 21, sent back), round 15: a
"two cards" whose second outline is the pile's old edges (cards lying askew under the new one),
and an ask about the last card read, lying on top uncovered, when the next one came between a
look's two frames. Frames rendered by the realistic camera (:mod:`tests.realcam.rough`) with the
bench's draws (``tests/bench/bench_rough.py``), the test model (the window's cards learnt from one
photo each)."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, DealTracker


def _sequence(seed: int, resolution: str, style: str, *, at_once: bool = False):
    """The bench's mixed sequence ``seed`` (``bench_rough.mixed_args``'s draws)."""
    nu = realistic_nuisances(np.random.default_rng([seed, 1]))
    if at_once:
        nu = dataclasses.replace(nu, at_once=True)
    return deal_sequence(seed, nu, resolution=resolution, cards=12, deck_style=style)


def test_a_second_outline_drawn_from_the_piles_old_edges_is_no_second_card():
    """44002's 3rd to 6th cards (3O, 5O, 9B, 10C; 720p on marble, the cards turned 15° either way
    and 2.5 cm apart), read from frame 20: when 9B lands, a card-sized rectangle is found on the
    pile's old edges beside it (the askew cards below, their sides and prints), its "new" sides
    under 9B, whose print is all new. Of it in view, its sides are old edges and every edge the
    table showed there still shows: nothing came there. Main answered "two cards"
    (``(4, 'two_cards', None)``; the bench's models five times in that sequence)."""
    seq = _sequence(44002, "720p", "moderna", at_once=True)
    tracker = DealTracker(realdeck.learnt("moderna", tuple(sorted(seq.truth[2:6]))), darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 20, 46)
    assert seq.truth[2:6] == ["3O", "5O", "9B", "10C"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (4, COUNTED, "9B") in told and (5, COUNTED, "10C") in told, told
    assert not [t for t in told if t[1] in ASK_KINDS], told  # (main: (4, two_cards, None))


def test_a_card_come_between_the_two_frames_over_the_last_card_lying_on_top_asks_nothing():
    """42007's 7th to 9th cards (8C, 5O, 8O; 1080p on felt, gain 5.8, the lamp's reflection by the
    pile), read from frame 40: after 5O is counted a look asks for a darker frame and 8O lands in it.
    The card under it is read in the frame that asked: nothing new there against the pile's last
    state, yet new edges about the pile (the dealer's hand, the light), and main asked to show the
    card again (``(7, 'show_again', None)``; the bench's models the same at f54). 5O lay on top there,
    uncovered, every edge of it kept, named there: nothing asked, and 8O is read against that frame."""
    seq = _sequence(42007, "1080p", "moderna")
    tracker = DealTracker(realdeck.learnt("moderna", tuple(sorted(seq.truth[6:9]))), darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 40, 58)
    assert seq.truth[6:9] == ["8C", "5O", "8O"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert [(7, COUNTED, "5O"), (8, COUNTED, "8O")] == [t for t in told if t[0] in (7, 8)], told  # (main: an ask between)
