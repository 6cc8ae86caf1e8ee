"""Round 22's traces of the rough benchmark (``python -m tests.bench rough``), each read with the
bench's own model: two new outlines in a darker frame, the card under read in the frame that asked
(:mod:`vision.deck.darklook`); the first card's outline found at its print's frame, named grown
(:func:`vision.deck.refit.grown`); an ask held back for one more look, never dropped
(:mod:`vision.deck.again`); and ``bench_deck``'s neat pile 5121, where round 22 first counted a card
still in the dealer's hand."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.bench.bench_rough import hard, models
from tests.realcam.rough.dealing import deal_sequence
from tests.realcam.rough.nuisances import realistic_nuisances
from tests.vision import realdeck
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import ASK_KINDS, COUNTED, UNDER, DealTracker


def _read(seed: int, resolution: str, style: str, start: int, stop: int, *, harder: bool = False,
          at_once: bool = False):
    nu = realistic_nuisances(np.random.default_rng([seed, 1]))
    if at_once:
        nu = dataclasses.replace(nu, at_once=True)
    if harder:
        nu = hard(nu, np.random.default_rng([seed, 2]))
    seq = deal_sequence(seed, nu, resolution=resolution, cards=12, deck_style=style)
    tracker = DealTracker(models((style,))[style], darker_scale=DARKER_SCALE)
    told = realdeck.told_between(tracker, seq, start, stop)
    assert all(seq.truth[i] == code for i, kind, code in told if kind == COUNTED), told
    return seq, told


def test_a_card_come_between_the_frame_that_asked_and_its_darker_frame_is_counted_with_the_one_under():
    """36007 (1080p on the mat, gain 2.1, the lamp's reflection on the pile): 9O lay three frames,
    the look asked for a darker frame, and 4C landed on 9O with no frame in flight before it was
    taken. The darker frame held both cards' outlines, new: "two cards", and 4C and 12O after it
    were read against a table that did not hold 4C (three cards sent back). The frame that asked
    holds 9O alone: it is counted there, and 4C in the darker frame on it; the same for 12O and 6B."""
    seq, told = _read(36007, "1080p", "moderna", 36, 56)
    assert seq.truth[5:9] == ["9O", "4C", "12O", "6B"], seq.truth
    assert {(5, COUNTED, "9O"), (6, COUNTED, "4C"), (7, COUNTED, "12O"), (8, COUNTED, "6B")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_the_first_card_found_at_its_prints_frame_is_named_at_its_own_size():
    """46001 (1080p on marble, gain 5.5, a reflection of 1.5 on the card): the first card, 8B, lies in
    the lamp's reflection, white on white; its size is still searched (no card read yet, no mat), and
    the outline found was the frame printed inside it, a fifth smaller: named nothing sure, and it
    was asked to be moved. Grown about its centre it names 8B. 44002 (720p on marble, dealing at
    once): the same for the first card, 9C, asked to be shown again and counted a frame later."""
    seq, told = _read(46001, "1080p", "fournier", 0, 14)
    assert seq.truth[0] == "8B", seq.truth
    assert (0, COUNTED, "8B") in told and not any(kind in ASK_KINDS for _, kind, _ in told), told
    seq, told = _read(44002, "720p", "moderna", 0, 8, at_once=True)
    assert seq.truth[0] == "9C", seq.truth
    assert (0, COUNTED, "9C") in told and not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_not_named_is_looked_at_once_more_before_asking_and_never_dropped():
    """47008 (the hard set: 720p on marble): 8C, under the swaying reflection, was named unsure in the
    first darker frame and asked to be shown again; it is named sure a look later, and nothing is
    asked. 41001 (1080p on felt): 6C, not named in the look that held the ask, had 10E dealt on it
    before the next look (no frame in flight). The ask is owed: 10E is counted and 6C asked about as
    the card under it, never passed over in silence."""
    seq, told = _read(47008, "720p", "fournier", 14, 24, harder=True)
    assert seq.truth[2] == "8C", seq.truth
    assert (2, COUNTED, "8C") in told and not any(kind in ASK_KINDS for _, kind, _ in told), told
    seq, told = _read(41001, "1080p", "fournier", 0, 60)
    assert seq.truth[7:9] == ["6C", "10E"], seq.truth
    assert (8, COUNTED, "10E") in told and (8, UNDER, "10E") in told, told


def test_a_card_come_with_a_hand_over_the_pile_is_read_once_it_lies_not_in_the_hand(tmp_path):
    """``bench_deck``'s pile 5121 (1080p, fournier, harsh light; the neat deal): 3C counted, the look
    at it asked for a darker frame while the next hand came over the pile, and 4B lay in the darker
    frame. The frame that asked answered "a hand is there", and 4B was counted from the darker frame
    while the hand still held it (the truth's card on top was 3C: counted early, "wrong"); the last
    card, 12B, then passed over in silence. With a hand over the pile in the frame that asked, the
    card come in the darker frame is read once it lies still: every card counted, each in its turn."""
    from tests.bench.deck_darker import darker_frame
    from tests.bench.deck_reshow import frame_at
    from kiosk.game import DECK
    from tests.realcam.deal import deal, enrol_photo
    from vision.deck.store import learn_folder
    from vision.deck.tracker import DARKER

    for card in DECK:  # (learnt as the bench learns it: one enrolment photo a card, the whole deck)
        (tmp_path / f"{card.code}.jpg").write_bytes(enrol_photo(card.code, deck_style="fournier").jpeg)
    d = deal(seed=5121, mode="1080p", deck_style="fournier", lighting="harsh", cards=24)
    tracker = DealTracker(learn_folder("fournier", tmp_path), darker_scale=DARKER_SCALE)
    counted, taken, canvas = [], -1, {}
    for n in range(len(d)):
        if n <= taken:
            continue
        got = tracker.feed(frame_at(d, n, canvas))
        events = [(n, e) for e in got if e.kind != DARKER]
        for ask in [e.darker for e in got if e.kind == DARKER]:
            taken = n + 1
            events += [(taken, e) for e in tracker.feed_darker(ask, darker_frame(d, taken, ask.exposure_scale))]
        for k, e in events:
            if e.kind == COUNTED:
                top = max((i for i, c in enumerate(d.truth) if c.lands_s <= k / d.fps), default=-1) - e.under
                counted.append((top, e.card.code))
    assert all(code == d.truth[i].code for i, code in counted), counted
    assert [code for _, code in counted][-3:] == ["3C", "4B", "12B"], counted
