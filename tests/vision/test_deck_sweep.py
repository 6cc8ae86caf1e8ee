"""Round 20's traces of the rough benchmark (``python -m tests.bench rough``): the sweep at its
extremes (each phenomenon alone on the neat table, ``nuisances.pushed``; seed ``22000 + 1000 *
phenomenon + 10 * level + k``, 720p), where the tracker said a wrong card or dropped cards it had
counted, and a card of the at-once set passed over in silence."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import pushed, realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE, in_hand
from vision.deck.locate import shrunk
from vision.deck.pile import DARKER_CHANGE_LEVEL, DARKER_MIN_PIXELS
from vision.deck.tracker import ASK_KINDS, COUNTED, HAND, TAKEN_BACK, UNDER, DealTracker

DETAIL = 960  # the tracker's detail width


def _told(seed: int, name: str, level: float, style: str, start: int, stop: int, learnt: slice):
    seq = deal_sequence(seed, pushed(name, level), resolution="720p", cards=12, deck_style=style)
    model = realdeck.learnt(style, tuple(sorted(seq.truth[learnt])))
    return seq, realdeck.told_between(DealTracker(model, darker_scale=DARKER_SCALE), seq, start, stop)


def test_a_card_in_the_next_hand_in_a_darker_frame_is_a_hand_and_one_lying_by_it_is_not():
    """27040 (a reflection moving 40 mm between frames, fournier): 11O's look asked for a darker
    frame; the next hand came into it, 6B in the air over the pile, blurred. 6B was counted
    there, from the darker frame, while still in the hand (the sweep's one wrong card). All of
    its outline (as the tracker found it) came in with the hand since the frame that asked: in
    the hand. 11O, lying under it, is not; nor is 40001's 10C (1080p, felt, gain 5.2), lying
    still while the next hand, 11B in it, comes in beside it and touches it."""
    seq = deal_sequence(27040, pushed("reflection_move_mm", 40.0), resolution="720p", cards=12,
                        deck_style="fournier")
    assert seq.frame_truth[29].flying == "6B" and seq.frame_truth[28].top == "11O" and seq.frame_truth[28].still
    normal, dark = _details(seq, 28)
    flying = np.float32([[424.3, 229.9], [487.5, 275.6], [415.9, 374.4], [352.8, 328.7]])  # (the tracker's outline)
    lying = seq.frame_truth[28].quad * (DETAIL / seq.frame(28).image.shape[1])
    assert in_hand(normal, dark, flying, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
    assert not in_hand(normal, dark, lying, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)
    seq = deal_sequence(40001, realistic_nuisances(np.random.default_rng([40001, 1])), resolution="1080p",
                        cards=12, deck_style="fournier")
    assert seq.frame_truth[13].flying == "11B" and seq.frame_truth[12].top == "10C"
    normal, dark = _details(seq, 12)
    ten = np.float32([[547.2, 225.5], [564.7, 303.5], [443.7, 330.7], [426.2, 252.6]])  # (the tracker's outline)
    assert not in_hand(normal, dark, ten, level=DARKER_CHANGE_LEVEL, min_pixels=DARKER_MIN_PIXELS)


def _details(seq, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Frame ``n`` and the next one at the darker exposure, as the tracker's detail copies."""
    return (shrunk(seq.frame(n).image, DETAIL, 3),
            shrunk(seq.frame(n + 1, exposure_scale=DARKER_SCALE).image, DETAIL, 3))


def test_a_card_dealt_squarely_on_the_last_is_not_taken_for_it_lifted():
    """22000 (every card dealt exactly squared on the last, fournier): 12O on 6B, then 5E on
    10O's place, changed the table little but the print, as a lifted card leaves the one under
    it: 6B and 10O were "taken back" (dropped from the count) and 12O and 5E passed over. A card
    on top that the print names, sure, as another than the one under the last is no lift."""
    seq, told = _told(22000, "offset_cm", 0.0, "fournier", 0, 64, slice(0, 12))
    assert seq.truth[5:10] == ["10O", "6B", "12O", "5E", "11O"], seq.truth
    assert not any(kind == TAKEN_BACK for _, kind, _ in told), told
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {(7, COUNTED, "12O"), (8, COUNTED, "5E")} <= set(told), told


def test_a_card_dealt_over_part_of_the_last_is_read_though_the_last_is_found_again():
    """43005 (the at-once set: 1080p on glossy wood, gain 7.6, a reflection on the pile), read
    whole with the bench's own model (the 48 enrolment photos, ``bench_rough.models``): 2O
    landed over most of 10O with no frame in flight. The look found 10O's outline again (its
    left part in view), unsure of the card there, most like 10O, and said nothing, as for the
    light moving over it: 2O passed over in silence, 11O counted next. A quarter of 10O's print
    edges were gone under 2O: unsure with the last card's print partly gone is a card come
    there, named (2O) or asked about."""
    from tests.bench.bench_rough import models

    nu = dataclasses.replace(realistic_nuisances(np.random.default_rng([43005, 1])), at_once=True)
    seq = deal_sequence(43005, nu, resolution="1080p", cards=12, deck_style="fournier")
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 46)
    assert seq.truth[6:9] == ["10O", "2O", "11O"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (7, COUNTED, "2O") in told, told  # (main: 10O, then 11O)


def test_a_darker_frame_the_next_hand_came_into_is_not_the_table_ever_after():
    """27001 (a still reflection of 1.0 on the pile, moderna), read with the bench's own model:
    4O's darker frame held the next hand, 7C in the air apart from the pile; 4O was counted there
    and that darker frame kept as the table's state. Every later look saw that hand gone ("a hand
    is there") and said nothing else: the last six cards passed over in silence. A darker frame
    that any hand came into (not only one over the pile) is stale: the next look that sees only
    a hand is made again against the frame that asked."""
    from tests.bench.bench_rough import models

    seq = deal_sequence(27001, pushed("reflection_move_mm", 0.0), resolution="720p", cards=12, deck_style="moderna")
    tracker = DealTracker(models(("moderna",))["moderna"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 60)
    assert seq.truth[5:10] == ["4O", "7C", "5C", "7O", "4C"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {6, 7, 8, 9} <= {i for i, kind, _ in told if kind in ASK_KINDS + (COUNTED,)}, told
    assert not any(kind == HAND for i, kind, _ in told if i >= 6), told  # (main: "hand" from 7C on)


def test_a_stale_darker_frame_is_stale_at_every_look_while_it_is_the_tables_state():
    """26040 (a reflection of 1.6 on the pile, fournier), read with the bench's own model: 6O was
    counted in a darker frame the next hand came into (10B in the air). The look at 10B saw that
    hand "gone" and was made again against the frame that asked, which waited a frame; the
    next look was against the same stale frame, no longer known as stale, and said "a hand is
    there" again, and so on until 1E came: 10B passed over in silence. It is stale for as long
    as it is the table's state."""
    from tests.bench.bench_rough import models

    seq = deal_sequence(26040, pushed("reflection", 1.6), resolution="720p", cards=12, deck_style="fournier")
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 66)
    assert seq.truth[8:10] == ["6O", "10B"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (9, COUNTED, "10B") in told, told  # (main: (9, hand) twice, then 1E)


def test_a_card_under_the_first_one_counted_is_asked_about_when_dealing_started_at_once():
    """45005 (the hard set: 1080p, the dealer's hand resting by the pile), read with the bench's
    own model: 11B landed in the first frame and lay three frames while the hand twitched, then 6C
    came on it; the table first lay still with both, and the first look named 6C only: 11B passed
    over in silence. The frames read before the table lay still held 11B alone, under where 6C
    lies: 6C stays counted and the card under it is asked about."""
    from tests.bench.bench_rough import hard, models

    nu = hard(realistic_nuisances(np.random.default_rng([45005, 1])), np.random.default_rng([45005, 2]))
    seq = deal_sequence(45005, nu, resolution="1080p", cards=12, deck_style="fournier")
    tracker = DealTracker(models(("fournier",))["fournier"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 14)
    assert seq.truth[:3] == ["11B", "6C", "2B"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert (1, UNDER, "6C") in told and (1, COUNTED, "6C") in told, told  # (main: 6C counted alone)


def test_the_first_card_is_found_in_view_whatever_the_grain_and_the_noise():
    """33006's 4th frame (held-out set 33000, traced in round 20: 720p on the mat over wood, gain
    6.9, dealing at once): 8C lies plain on the mat, but the whole-view search for a card's outline
    tried only the view's six strongest edge directions, and the noise ranked the wood's grain and
    the mat's sides above the card's in this frame (not in the frames before and after): no card,
    and 8C was taken for the table in silence. Twelve are tried."""
    nu = dataclasses.replace(realistic_nuisances(np.random.default_rng([33006, 1])), at_once=True)
    seq = deal_sequence(33006, nu, resolution="720p", cards=12, deck_style="moderna")
    assert seq.frame_truth[3].top == "8C" and seq.frame_truth[3].still and seq.truth[:3] == ["8C", "2C", "11B"]
    tracker = DealTracker(realdeck.learnt("moderna", ("11B", "2C", "8C")), darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 10)
    assert (0, COUNTED, "8C") in told, told  # (main: [(1, counted 2C)], 8C the table)


def test_a_card_dealt_squared_on_a_card_the_reflection_washes_out_is_looked_at():
    """26051 (the sweep's reflection at its extreme, 2.0, moderna), read with the bench's own
    model: the lamp's reflection clipped the pile's top white, print and all, and four cards
    (4O, 11C, 1B, 5B) were dealt onto it with no hand seen, landing squared on it. Only a few px of
    outline changed (13-22 motion px, where movement counts from 27): never looked at, passed over
    in silence. Where the reflection washes the top card out, a few px of outline moving between
    two frames is a card that may have landed; it is looked at once it lies (a darker frame)."""
    from tests.bench.bench_rough import models

    seq = deal_sequence(26051, pushed("reflection", 2.0), resolution="720p", cards=12, deck_style="moderna")
    tracker = DealTracker(models(("moderna",))["moderna"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, len(seq))
    assert [seq.truth[i] for i in (2, 4, 5, 11)] == ["4O", "11C", "1B", "5B"], seq.truth
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    assert {i for i, kind, _ in told if kind == COUNTED} == set(range(12)), told  # (main: 2, 4, 5, 11 passed over)
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told
