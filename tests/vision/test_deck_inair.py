"""Round 24's traces of the rough benchmark (``python -m tests.bench rough``), on the fresh held-out sets
55000, 57000 and 59000 and the sweep, each read with the bench's own model:

- a card that came between the frame that asked for a darker frame and the darker frame, still in the
  dealer's hand there, was counted from the darker frame alone (:class:`vision.deck.darklook.Unconfirmed`);
- a hand that lay in the pile's last state and had gone since was taken for a hand over the next card
  (:meth:`vision.deck.pile.Pile._not_bare`);
- a held ask was settled by a card whose print the noise hid (:func:`vision.deck.again.lay_in`);
- a stale darker state was not set aside when a look only held its ask
  (:meth:`vision.deck.tracker.DealTracker.feed_darker`)."""

from __future__ import annotations

import numpy as np

from tests.bench.bench_rough import models
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, HAND, UNDER, DealTracker


def _read(seed: int, resolution: str, stop: int, *, style: str):
    seq = deal_sequence(seed, realistic_nuisances(np.random.default_rng([seed, 1])), resolution=resolution,
                        cards=12, deck_style=style)
    tracker = DealTracker(models((style,))[style], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, stop)
    # (every count is the card on top when it is said: none in the air, none twice)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    return seq, told


def test_a_card_come_between_a_look_and_its_darker_frame_is_counted_once_it_lies():
    """57011 (1080p on wood, gain 5.8, the lamp's reflection on the pile): the look at 4B asked for a
    darker frame, and 11C came into it in the dealer's hand, blurred, the hand faint at the view's
    edge (too faint to be over the card). 4B was read in the frame that asked, then 11C counted from
    the darker frame (a wrong card: 4B lay on top), and "ja comptada" once it lay. It is counted once
    the next frame shows it lying where it lay; in the air, it moved, and is read when it lies."""
    seq, told = _read(57011, "1080p", 53, style="moderna")
    assert seq.truth[7:9] == ["4B", "11C"], seq.truth
    assert {(7, COUNTED, "4B"), (8, COUNTED, "11C")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told
    seq, told = _read(59001, "1080p", 71, style="fournier")  # (3B, in the hand over 8C the same way)
    assert seq.truth[9:11] == ["8C", "3B"], seq.truth
    assert {(9, COUNTED, "8C"), (10, COUNTED, "3B")} <= set(told), told


def test_a_hand_gone_since_the_last_card_is_no_hand_over_the_next():
    """59010 (720p on the mat, gain 2.3): the dealer's hand rested at the view's edge while 10C was
    read, and had gone when 7E lay. What changed since 10C's state reached the view's edge (the table
    bare where the hand lay), joined to 7E: "a hand is there", twice, and 12O then covered 7E, passed
    over in silence. Where the frame shows the table as it lay under the pile, nothing came: 7E is
    counted, and no hand is answered."""
    seq, told = _read(59010, "720p", 52, style="moderna")
    assert seq.truth[6:8] == ["10C", "7E"], seq.truth
    assert {(6, COUNTED, "10C"), (7, COUNTED, "7E")} <= set(told), told
    assert not any(kind == HAND and i == 7 for i, kind, _ in told), told


def test_a_held_ask_is_not_settled_by_a_card_whose_print_the_noise_hid():
    """55010 (720p on felt, a high gain): 3B lay on 2O, no outline found, and the ask about it was held
    for one look more; 11B then came over it. Whether 11B's print lay there when the ask was held was
    measured in 11B's own box, which the new card fills: the change set the least change at 54 levels,
    "barely changed", and 3B was passed over in silence. The light and the noise are measured over the
    whole view: 3B is asked about, under 11B."""
    seq, told = _read(55010, "720p", 64, style="moderna")
    assert seq.truth[9:12] == ["2O", "3B", "11B"], seq.truth
    assert (11, COUNTED, "11B") in told, told
    assert (11, UNDER, "11B") in told or (10, COUNTED, "3B") in told, told  # (the card under 11B asked about, or read)


def test_a_stale_darker_state_is_set_aside_when_the_look_holds_its_ask():
    """The sweep's reflection_move_mm 0, second sequence (27001, 720p, moderna): 4O was read in a darker
    frame that held the next hand and 7C in the air. When 7C lay, its look against that picture found no
    outline of it (it lay where it had flown), and held its ask; the look against the frame that asked
    for the darker one, which used to follow only a "hand" answer (the hand gone, now no hand), was not
    made, and 7C was asked to be moved. It is counted."""
    from tests.bench.bench_rough import SEED_SWEEP
    from tests.realcam.rough.nuisances import SWEEP, pushed

    seed = SEED_SWEEP + 1000 * list(SWEEP).index("reflection_move_mm") + 10 * SWEEP["reflection_move_mm"].index(0) + 1
    assert seed == 27001
    seq = deal_sequence(seed, pushed("reflection_move_mm", 0), resolution="720p", cards=12, deck_style="moderna")
    tracker = DealTracker(models(("moderna",))["moderna"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 40)
    assert seq.truth[5:7] == ["4O", "7C"], seq.truth
    assert {(5, COUNTED, "4O"), (6, COUNTED, "7C")} <= set(told), told
    assert not any(kind in ASK_KINDS for i, kind, _ in told if i >= 5), told


def test_fet_right_after_the_darker_frame_counts_the_card_that_came_between():
    """57011 again, earlier: 2O came between the look at 7O and its darker frame, and lay. Its count
    waits for the next frame; when the players press "Fet" (dealing done) before it comes, no frame is
    to come: 7O and 2O are both counted, nothing is asked."""
    seq = deal_sequence(57011, realistic_nuisances(np.random.default_rng([57011, 1])), resolution="1080p",
                        cards=12, deck_style="moderna")
    tracker = DealTracker(models(("moderna",))["moderna"], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, 0, 22)  # (frame 21 asks for a darker frame: frame 22 stands in)
    assert seq.truth[3:5] == ["7O", "2O"], seq.truth
    assert (3, COUNTED, "7O") in told and not any(code == "2O" for _, _, code in told), told
    done = [(e.kind, e.card.code if e.card else None) for e in tracker.finish()]
    assert (COUNTED, "2O") in done and not any(kind in ASK_KINDS for kind, _ in done), done
    assert [c.code for c in tracker.cards][-2:] == ["7O", "2O"], tracker.cards
