"""Cards sent back that lay there readable (issue 21): the deal-through tracker on the rough
camera's sequences (tests/realcam/rough), from a few frames before the card to its end."""

from __future__ import annotations

import numpy as np

from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, DealTracker


def _told(seed: int, resolution: str, style: str, start: int, stop: int, *, learnt: int, first: int = 0
          ) -> tuple[list[tuple[int, str, str | None]], list[str]]:
    """(the card on top's place, event kind, card named) for each event of frames ``start`` to
    ``stop`` (the first read as dealing started at once), as a camera with exposure control
    delivers them (a darker frame stands in for the next one), and the sequence's cards; the
    cards ``first`` to ``learnt`` (in deal order) learnt."""
    seq = deal_sequence(seed, realistic_nuisances(np.random.default_rng([seed, 1])), resolution=resolution,
                        cards=12, deck_style=style)
    tracker = DealTracker(realdeck.learnt(style, tuple(sorted(seq.truth[first:learnt]))), darker_scale=DARKER_SCALE)
    return realdeck.told_between(tracker, seq, start, stop), seq.truth


def test_the_card_under_a_brisk_dealers_next_card_is_not_asked_about_when_it_was_read():
    """37002's 2nd and 3rd cards (720p on marble, gain 1.5): 3C is counted; the next look asks
    for a darker frame, and 3E lands in it. The card under 3E was read in the frame that asked
    as nothing new (3C, counted): it is not asked about again ("show again" about a counted card)."""
    told, truth = _told(37002, "720p", "moderna", 6, 14, learnt=3)
    assert truth[1:3] == ["3C", "3E"]
    assert (1, COUNTED, "3C") in told, told
    assert not [t for t in told if t[0] <= 1 and t[1] in ASK_KINDS], told


def test_a_card_whose_sides_the_darker_frame_loses_is_outlined_in_the_frame_that_asked():
    """40007's last cards (1080p on felt, gain 5.5, the lamp's reflection by the pile): 2C's look
    asks for a darker frame, and in it no card's outline holds (a shorter exposure shrinks every
    step, and the noise is the gain's): "move it" about 2C, which the frame that asked outlines
    against the table before it (support 0.96, new sides 0.63). Its outline is found there, and
    the card named in the darker frame (41005's 4E and 4B the same, with the bench's models)."""
    told, truth = _told(40007, "1080p", "moderna", 66, 79, learnt=12, first=9)
    assert truth[9:12] == ["1C", "3B", "2C"], truth
    assert all(truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (11, COUNTED, "2C") in told, told  # (main: GLARE about it)


def test_a_card_on_the_pile_found_again_beside_the_new_one_is_no_second_card():
    """40006's first cards (720p on the mat, gain 6.1): 6C lands beside 2O, and the second outline
    found where the table changed outside 6C is 2O found again (overlap 0.81 with its outline;
    its sides in view old, 0.05 of it in view changed: 6C's shadow). "Two cards" asked about
    6C on main. 37002's 12E (below) keeps its ask: 7E came there unread."""
    told, truth = _told(40006, "720p", "moderna", 0, 21, learnt=3)
    assert all(truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (2, COUNTED, truth[2]) in told and not [t for t in told if t[1] in ASK_KINDS], told


def test_a_card_come_unread_under_the_new_one_is_still_two_cards():
    """37002's 11th and 12th cards (720p on marble, under the lamp's reflection): 7E's look
    answered "a hand is there", 12E came over it with no movement seen; the second outline lies
    where 1E was read (overlap 0.79), but what of it is in view changed (7E's print): "two
    cards" (7E is never passed over in silence)."""
    told, truth = _told(37002, "720p", "moderna", 60, 76, learnt=12, first=8)
    assert truth[10:12] == ["7E", "12E"], truth
    assert all(truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {10, 11} & {i for i, kind, _ in told if kind in ASK_KINDS + (COUNTED,)}, told
