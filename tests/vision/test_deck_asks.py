"""The deal-through's asks about a card that lies counted on top (issue 21, sent back): on the
bench's hard set (``BENCH_ROUGH_HARD=1``: the dealer's hand always lingering by the pile, the
lamp's reflection always on) a look found a card's worth of new edges and no card's outline, and
asked about a card that may have come unseen, or the backstop heard the tracker silent about new
edges about the pile. The new edges were a lingering hand's fingertips twitching (flat skin
changes only at its rim, which never reaches the view's edge) or the light; the last card read
lay on top, uncovered, every edge of it kept, named there (:mod:`vision.deck.ontop`). Frames
rendered by the realistic camera (:mod:`tests.realcam.rough`), the test model (the window's cards
learnt from one photo each)."""

from __future__ import annotations

import numpy as np

from tests.bench.bench_rough import hard
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, DealTracker


def _hard_sequence(seed: int, resolution: str, style: str):
    """The hard set's sequence ``seed`` (``tests/bench/bench_rough.py``'s draws)."""
    nu = hard(realistic_nuisances(np.random.default_rng([seed, 1])), np.random.default_rng([seed, 2]))
    return deal_sequence(seed, nu, resolution=resolution, cards=12, deck_style=style)


def test_a_lingering_hands_twitch_beside_the_counted_card_is_no_card_come_unseen():
    """45008's 7th to 9th cards (12O, 3O, 11B; 720p on felt, gain 5.7, the hand lingering), read from
    frame 38: after 11B is counted the dealer's fingertips twitch below the pile, a card's worth of new
    edges with no card's outline (their rim, never the view's edge: no hand for ``hand_over``), and
    the look asked to show 11B again on main (``(8, 'show_again', None)``; the bench's models the same
    at f55, and at f44 about 12O). 11B lies on top, every edge of it kept, named there: nothing asked."""
    seq = _hard_sequence(45008, "720p", "fournier")
    tracker = DealTracker(realdeck.learnt("fournier", tuple(sorted(seq.truth[5:9]))), darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 38, 57)
    assert seq.truth[5:9] == ["1E", "12O", "3O", "11B"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (8, COUNTED, "11B") in told, told
    assert not [t for t in told if t[1] in ASK_KINDS], told  # (main: (8, show_again, None))


def test_the_backstop_asks_nothing_while_the_last_card_lies_on_top_uncovered():
    """45000's 7th to 9th cards (11O, then 10B; 720p on wood, gain 5.9, the hand lingering), read from
    frame 34: after 11O is counted the hand's twitch about the pile brings new edges there, the tracker
    says nothing in that still spell, and the backstop asked to show the card again on main
    (``(8, 'show_again', None)`` before 10B's count; the bench's models the same at f46). 11O lay on
    top, uncovered, named there: no ask, and 10B is counted when it lands. (The window's first card,
    9B, read as dealt at once, is asked about on both.)"""
    seq = _hard_sequence(45000, "720p", "fournier")
    tracker = DealTracker(realdeck.learnt("fournier", tuple(sorted(seq.truth[6:9]))), darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 34, 51)
    assert seq.truth[6:9] == ["9B", "11O", "10B"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (7, COUNTED, "11O") in told and (8, COUNTED, "10B") in told, told
    assert not [t for t in told if t[0] in (7, 8) and t[1] in ASK_KINDS], told  # (main: (8, show_again, None))
