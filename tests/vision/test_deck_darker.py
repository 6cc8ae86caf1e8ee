"""A card under the lamp's reflection, on the realistic camera (tests/realcam): a low lamp
washes its print out, so the frame alone cannot name it. A camera with exposure control
gives a darker frame of the same table (rendered physically: the reflection is light added
before the sensor clips), from which the deal service names it; a camera without asks to
move the card, as before."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from kiosk.game import Card
from tests.realcam.render import render
from tests.vision import realdeck
from vision.deck.service import DealService
from vision.deck.tracker import COUNTED, DARKER, GLARE, DealTracker
from vision.sources import FrameSource

SEED = 7  # the lamp's reflection falls on the card (checked below: the frame alone asks)
DEALT = "4O"
# the dealt card, the ranks beside it and its suit twins: naming it is not a one-card guess
LEARNT = ("4O", "3O", "5O", "4B", "4E")
SHOT = dict(mode="720p", layout="stack", distractors=(), deck_style="fournier", marks=None, lighting="harsh",
            glare=2.0)


@pytest.fixture(scope="module")
def model():
    return realdeck.learnt("fournier", LEARNT)


@pytest.fixture(scope="module")
def table():
    """The empty mat, then the card dealt on it; each also at 0.4 of the exposure."""
    return SimpleNamespace(**{f"{name}{suffix}": render(SEED, cards=cards, exposure_scale=scale, **SHOT).image
                              for name, cards in (("mat", []), ("card", [DEALT]))
                              for suffix, scale in (("", 1.0), ("_darker", 0.4))})


class _TableCamera(FrameSource):
    """The table as the camera streams it: the empty mat for a moment, then the card on it.
    With ``supports_exposure`` a darker frame is the same table at the darker exposure."""

    name = "table"
    interval = 0.03

    def __init__(self, table, *, exposure: bool):
        super().__init__()
        self.table = table
        self.supports_exposure = exposure
        self.read = 0  # frames the deal service has taken
        self.darker = []  # the exposure scales asked for

    def taken(self, frame) -> None:
        """The deal service took a frame (its ``on_frame``)."""
        self.read += 1

    def _empty(self) -> bool:
        # the mat until the service has taken 4 frames of it (not for a number of grabs: on a
        # loaded machine the reader takes a frame in several grabs' time, and would see the
        # card dealt before it ever saw the mat settle)
        return self.read < 4

    def _grab(self):
        return (self.table.mat if self._empty() else self.table.card).copy()

    def _grab_darker(self, exposure_scale):
        self.darker.append(exposure_scale)
        return (self.table.mat_darker if self._empty() else self.table.card_darker).copy()


def _deal(model, source) -> list:
    """The deal service's events until the card is named or asked about."""
    events, done = [], threading.Event()

    def on_cards(read):
        event = read.deal
        events.append(event)
        if event.kind in (COUNTED, GLARE):
            done.set()

    service = DealService(source, DealTracker(model), on_cards=on_cards, on_frame=source.taken).start()
    try:
        done.wait(30)
    finally:
        service.stop()
    return events


def test_the_frame_alone_asks_to_move_the_card(model, table):
    tracker = DealTracker(model)  # no darker frame to be had
    events = [e for frame in [table.mat] * 3 + [table.card] * 3 for e in tracker.feed(frame)]
    assert [e.kind for e in events] == [GLARE] and tracker.cards == []
    # the darker frame is what names it: the same look, answered
    tracker = DealTracker(model, darker_scale=0.4)
    named = []
    for frame in [table.mat] * 3 + [table.card] * 3:
        for e in tracker.feed(frame):
            darker = table.mat_darker if frame is table.mat else table.card_darker
            named += tracker.feed_darker(e.darker, darker) if e.kind == DARKER else [e]
    assert [(e.kind, e.card) for e in named] == [(COUNTED, Card.parse(DEALT))]
    assert tracker.uncertain == 0


def test_dealing_started_at_once_under_the_reflection_names_the_first_card_from_the_darker_frame(model, table):
    """The camera saw the empty mat settle for one frame or none (a player dealt the moment
    the screen opened, or a loaded reader took a frame late): the first card, its print and
    edges washed out by the reflection, is named in the darker frame the look at the table
    asks for, not taken for the table in silence."""
    for empty in (0, 1):
        tracker = DealTracker(model, darker_scale=0.4)
        named = []
        for frame in [table.mat] * empty + [table.card] * 6:
            for e in tracker.feed(frame):
                darker = table.mat_darker if frame is table.mat else table.card_darker
                named += tracker.feed_darker(e.darker, darker) if e.kind == DARKER else [e]
        assert [(e.kind, e.card) for e in named] == [(COUNTED, Card.parse(DEALT))], empty
        assert tracker.cards == [Card.parse(DEALT)] and tracker.uncertain == 0


def test_a_camera_with_exposure_control_names_the_card_from_a_darker_frame(model, table, one_core):
    source = _TableCamera(table, exposure=True)
    events = _deal(model, source)
    assert [(e.kind, e.card) for e in events] == [(COUNTED, Card.parse(DEALT))]
    assert source.darker and set(source.darker) == {0.4}


def test_a_camera_without_exposure_control_asks_to_move_the_card(model, table, one_core):
    source = _TableCamera(table, exposure=False)
    events = _deal(model, source)
    assert [e.kind for e in events] == [GLARE] and source.darker == []


def test_the_next_hand_already_in_the_darker_frame_is_left_out(model, table):
    """The darker frame comes a moment after the frame that asked: a brisk dealer's next
    hand may be in it already, reaching to the card. Joined to the card it made one change
    touching the frame's edge, "a hand", and the card was passed over in silence."""
    import cv2
    import numpy as np

    diff = cv2.absdiff(table.mat, table.card).max(axis=2) > 40
    ys, xs = np.nonzero(diff)
    x1, y1 = int(np.percentile(xs, 99.5)), int(np.percentile(ys, 99.5))
    reaching = table.card_darker.copy()
    h, w = reaching.shape[:2]
    skin = (40, 60, 95)  # a hand at the darker exposure
    cv2.line(reaching, (x1 + 60, h + 20), (x1 + 4, y1 + 4), skin, 70, cv2.LINE_AA)
    cv2.ellipse(reaching, (x1 + 18, y1 + 30), (34, 26), 40, 0, 360, skin, -1, cv2.LINE_AA)
    tracker = DealTracker(model, darker_scale=0.4)
    named = []
    for frame in [table.mat] * 3 + [table.card] * 3:
        for e in tracker.feed(frame):
            darker = table.mat_darker if frame is table.mat else reaching
            named += tracker.feed_darker(e.darker, darker) if e.kind == DARKER else [e]
    assert [(e.kind, e.card) for e in named] == [(COUNTED, Card.parse(DEALT))]
