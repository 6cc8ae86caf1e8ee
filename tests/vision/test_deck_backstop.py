"""The backstop's episodes (:mod:`vision.deck.backstop`): a card that came is never passed over
in silence, and a card the tracker spoke about is not asked about again.

33001 (held-out set 33000, traced in round 20): a look began while 6B was still in the air (the
resting hand lingered apart from the pile), and 6B was counted on the darker frame that look
asked for. The darker frame is not fed to the backstop, so the next episode began at the still
frame before it, 6B in the air, and at the next hand's coming the backstop found 6B's edges new
since then, "nothing said": "show again", with 6B counted. An episode begun after the pile's
state changed since its first frame starts as spoken."""

from __future__ import annotations

import numpy as np

from vision.deck.backstop import Backstop

STILL = 2  # the tracker's still_frames


def _frames(n: int) -> list[np.ndarray]:
    return [np.full((4, 4), k, np.uint8) for k in range(n)]


def test_an_episode_begun_after_the_tracker_spoke_on_a_darker_frame_starts_as_spoken():
    f, backstop = _frames(8), Backstop()
    before, counted = object(), object()  # the pile's states: before the card, the card counted
    backstop.step(f[0], False, before, STILL)  # the table, still
    assert backstop.step(f[0], True, before, STILL) is None  # the hand with the card
    assert backstop.step(f[1], False, before, STILL) is None
    assert backstop.step(f[2], False, before, STILL) is None  # the look; the card counted on its darker frame
    assert backstop.step(f[3], True, counted, STILL) is None  # (the darker frame stood in for a frame)
    assert backstop.step(f[4], False, counted, STILL) is None
    assert backstop.step(f[5], False, counted, STILL) is None
    assert backstop.step(f[6], True, counted, STILL) is None  # main: (f[2], f[5]), the counted card asked again


def test_a_card_that_landed_with_nothing_said_is_still_checked():
    f, backstop = _frames(8), Backstop()
    before, counted = object(), object()
    backstop.step(f[0], False, before, STILL)  # the table, still
    assert backstop.step(f[1], True, before, STILL) is None  # the hand with a card
    assert backstop.step(f[2], False, before, STILL) is None
    assert backstop.step(f[3], False, counted, STILL) is None  # its look counted it (on a normal frame)
    assert backstop.step(f[4], True, counted, STILL) is None  # (spoken: nothing to check)
    assert backstop.step(f[5], False, counted, STILL) is None
    assert backstop.step(f[6], False, counted, STILL) is None
    due = backstop.step(f[7], True, counted, STILL)  # a card landed, looked at, nothing said
    assert due is not None and due[0] is f[3] and due[1] is f[6], due
