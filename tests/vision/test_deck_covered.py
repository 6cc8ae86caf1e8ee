"""Round 27's traces of the rough benchmark (``python -m tests.bench rough``) on the fresh held-out
sets 74000-81000, each read with the bench's own model: a card asked about twice over in a still
spell the lamp's reflection swayed over (:func:`vision.deck.second.print_shown`); a card covered
squared by the next one before its darker frame (:meth:`vision.deck.darklook.DarkerLook._under_first`);
a card below, found again, counted as another card (:meth:`vision.deck.pile.Pile.judge`); a held
card settled by the one dealt over it at a gain of 8 (:func:`vision.deck.again.lay_in`)."""

from __future__ import annotations

from tests.vision.test_deck_silent import _read
from vision.deck.tracker import ASK_KINDS, COUNTED, UNDER


def test_a_card_the_swaying_reflection_clips_in_the_still_frames_is_counted_once():
    """76008 (720p on white marble, gain 3.3): the lamp's reflection swayed over the pile in the still
    frames between two looks, clipping the card the next darker frame named (3C, then 7C) all over.
    The rim of the clipped patch, the little of the print left there, was taken for another card's
    print: a card come unread, "two cards". With all but a fifth of the card clipped, its print says
    nothing, and the card named is counted."""
    seq, told = _read(76008, "720p", 41, style="fournier")
    assert seq.truth[3:6] == ["3C", "1E", "7C"], seq.truth
    assert {(3, COUNTED, "3C"), (4, COUNTED, "1E"), (5, COUNTED, "7C")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_covered_squared_before_its_darker_frame_is_counted_first():
    """79005 (1080p on the mat, gain 5.8): 12B landed squared on 3E, with no frame in flight, between
    the frame that asked for a darker frame and the darker frame. Their sides barely differ, so no
    outline apart was found; the darker look held its ask, made next about 12B, and 3E was passed
    over in silence. The frame that asked is read first: 3E is counted there, then 12B."""
    seq, told = _read(79005, "1080p", 63, style="fournier")
    assert seq.truth[9:11] == ["3E", "12B"], seq.truth
    assert {(9, COUNTED, "3E"), (10, COUNTED, "12B")} <= set(told), told
    assert not any(kind in ASK_KINDS for _, kind, _ in told), told


def test_a_card_below_found_again_beside_the_last_is_not_counted_as_another():
    """80009 (1080p on the mat, gain 6.6, the dealer's hand lingering by the pile): after 8B was
    counted, the hand's twitch was a change, and the outline found around it was 5O's, under 8B, one
    corner covered, with no new sides. Named 4O there (its fifth coin under 8B), it was counted: a
    card not in the deal. 8B still lay on top, uncovered (its print all there, named sure): a card below."""
    seq, told = _read(80009, "1080p", 27, style="fournier")  # (every count is checked against the truth)
    assert seq.truth[2:5] == ["5O", "8B", "3E"], seq.truth
    assert {(3, COUNTED, "8B"), (4, COUNTED, "3E")} <= set(told), told
    assert not any(card == "4O" for _, _, card in told), told


def test_a_held_card_is_not_settled_by_the_card_dealt_over_it_at_a_gain_of_eight():
    """80008 (720p on the mat, gain 8.0): 3E, found by no outline, was held for a look more; 1C was
    dealt over it and counted. So little of two sparsely printed cards differs that, through the noise,
    1C's print "barely changed" from the held frame: 3E was taken for 1C and passed over in silence.
    1C's print does not show there, so 3E is asked about as the card under 1C."""
    seq, told = _read(80008, "720p", 50, style="fournier")
    assert seq.truth[6:8] == ["3E", "1C"], seq.truth
    assert {(7, COUNTED, "1C"), (7, UNDER, "1C")} <= set(told), told
