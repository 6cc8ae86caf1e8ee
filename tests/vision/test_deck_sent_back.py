"""Cards sent back that lay there readable (issue 21): the deal-through tracker on the rough
camera's sequences (tests/realcam/rough), from a few frames before the card to its end."""

from __future__ import annotations

import numpy as np

from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, DealTracker


def _told(seed: int, resolution: str, style: str, start: int, stop: int, *, learnt: int
          ) -> tuple[list[tuple[int, str, str | None]], list[str]]:
    """(the card on top's place, event kind, card named) for each event of frames ``start`` to
    ``stop`` (the first read as dealing started at once), as a camera with exposure control
    delivers them (a darker frame stands in for the next one), and the sequence's cards; the
    first ``learnt`` cards learnt."""
    seq = deal_sequence(seed, realistic_nuisances(np.random.default_rng([seed, 1])), resolution=resolution,
                        cards=12, deck_style=style)
    tracker = DealTracker(realdeck.learnt(style, tuple(sorted(seq.truth[:learnt]))), darker_scale=DARKER_SCALE)
    return realdeck.told_between(tracker, seq, start, stop), seq.truth


def test_the_card_under_a_brisk_dealers_next_card_is_not_asked_about_when_it_was_read():
    """37002's 2nd and 3rd cards (720p on marble, gain 1.5): 3C is counted; the next look asks
    for a darker frame, and 3E lands in it. The card under 3E was read in the frame that asked
    as nothing new (3C, counted): it is not asked about again ("show again" about a counted card)."""
    told, truth = _told(37002, "720p", "moderna", 6, 14, learnt=3)
    assert truth[1:3] == ["3C", "3E"]
    assert (1, COUNTED, "3C") in told, told
    assert not [t for t in told if t[0] <= 1 and t[1] in ASK_KINDS], told
