"""Round 21's traces of the rough benchmark (``python -m tests.bench rough``): a card whose sides
the lamp's reflection washed out, read by its print (:mod:`vision.deck.faint`); a card covered
unread, named in the frames it lay in (:mod:`vision.deck.peek`)."""

from __future__ import annotations

import numpy as np

from tests.bench.bench_rough import models
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, DealTracker


def test_cards_whose_sides_a_clipping_reflection_washed_out_are_named_by_their_print():
    """34002 (set 34000: 720p on the mat, gain 6.7, a clipping reflection on the pile), read with
    the bench's own model: 8B, 1E and 7E each landed under the reflection. The change against the
    pile before was a few specks, so the outline search had nowhere to look: 8B and 7E were asked
    to be moved, and 1E, landing with no frame in flight on 8B, passed over in silence. In the
    darker frame each one's print names it plainly; the best outline about the pile, the last
    card's sides left out, holds on most of its perimeter, some of it new."""
    seq = deal_sequence(34002, realistic_nuisances(np.random.default_rng([34002, 1])), resolution="720p",
                        cards=12, deck_style="moderna")
    assert seq.truth[7:10] == ["8B", "1E", "7E"], seq.truth
    tracker = DealTracker(models(("moderna",))["moderna"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 40, 60)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {(7, COUNTED, "8B"), (8, COUNTED, "1E")} <= set(told), told  # (main: 8B asked about, 1E nothing)
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_covered_unread_is_named_in_a_frame_it_lay_in_and_counted_under_the_next():
    """47004 (the hard set: 720p on marble, a reflection swaying by the pile, the dealer's hand
    resting at the view's edge), read with the bench's own model: 8O lay four frames while the
    resting hand twitched (no still spell, no look), then 7C came on it. The look named 7C and
    found 8O come unread in the frames kept meanwhile, alone, unsure where the reflection lay on
    it: "a card under it" was asked. In the frames where it lay plain it names 8O, sure: 8O is
    counted, under 7C."""
    from tests.bench.bench_rough import hard

    nu = hard(realistic_nuisances(np.random.default_rng([47004, 1])), np.random.default_rng([47004, 2]))
    seq = deal_sequence(47004, nu, resolution="720p", cards=12, deck_style="fournier")
    assert seq.truth[:2] == ["8O", "7C"], seq.truth
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 14)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {(0, COUNTED, "8O"), (1, COUNTED, "7C")} <= set(told), told  # (main: 7C counted, 8O asked about)
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_squared_on_the_last_under_the_reflection_is_named_by_its_print():
    """The sweep's reflection rows (the neat table: every card squared on the last), read with the
    bench's own model. 26040 (a reflection of 1.6 on the pile, fournier): 8C landed squared on 12O;
    in the darker frame no outline held where the table changed, and the faint one lay along 12O's
    old sides (its sides new for 0.13): 8C was asked to be moved. 27020 (a reflection of 1.0 moving
    10 mm, fournier): 6O on 6C, the same; with the faint outline taken as "the last card looked at
    again", little of its print changed, and 6O passed over in silence. A faint outline that names
    a card sure, not one on the pile, is that card: named."""
    from tests.realcam.rough.nuisances import pushed

    seq = deal_sequence(26040, pushed("reflection", 1.6), resolution="720p", cards=12, deck_style="fournier")
    assert seq.truth[4:6] == ["12O", "8C"], seq.truth
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 20, 38)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (5, COUNTED, "8C") in told and not any(kind in ASK_KINDS for _, kind, _ in told), told
    seq = deal_sequence(27020, pushed("reflection_move_mm", 10.0), resolution="720p", cards=12, deck_style="fournier")
    assert seq.truth[10:12] == ["6C", "6O"], seq.truth
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 50, 70)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (11, COUNTED, "6O") in told, told  # (round 21's first faint outline: nothing said)
