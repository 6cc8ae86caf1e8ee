"""Stillness -> one full-resolution still -> its read -> the table session's pending hand.

A real TableSession on a real SQLite journal, the real CameraService and PileReader; only
the camera is a fake (a FrameSource subclass): its video is too blurred to read a card,
a hand sweeps over the pile for a while, and on request it serves the full-size photo as
the still. So every card the session gets came from the still.
"""

from __future__ import annotations

import queue
import random
import threading
import time

import cv2
import numpy as np

from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.table import DraftStore, TableSession
from kiosk.table.camera import CameraScoring
from kiosk.ui.viewmodels import CardPicker
from vision.reader import PileReader
from vision.scene import make_scene
from vision.service import StickerService
from vision.sources import FrameSource


class _BlurredVideoCamera(FrameSource):
    """Video: the photo at 640 px, blurred past reading, a hand over it for ``hand_frames``
    frames. Still: the photo itself."""
    name = "blurred"
    interval = 0.03

    def __init__(self, photo: np.ndarray, *, hand_frames: int):
        super().__init__()
        self.photo = photo
        self.video = cv2.GaussianBlur(cv2.resize(photo, (640, 360), interpolation=cv2.INTER_AREA), (0, 0), 4)
        self.hand_frames, self.grabs, self.stills_at = hand_frames, 0, []

    def _grab(self):
        self.grabs += 1
        img = self.video.copy()
        if self.grabs <= self.hand_frames:
            cv2.ellipse(img, (40 * self.grabs % 600, 200), (70, 110), 20, 0, 360, (60, 90, 150), -1)
        return img

    def _grab_still(self):
        self.stills_at.append(self.grabs)
        return self.photo.copy()


def test_a_settled_pile_is_read_from_a_still_into_the_pending_hand(tmp_path):
    session = TableSession(Journal(tmp_path / "journal.sqlite"), settings=Settings(),
                           drafts=DraftStore(tmp_path / "draft.json"), rng=random.Random(3))
    session.new_match(first_dealer=0)
    session.choose_trump("oros")
    session.start_play()
    session.begin_score("camera")
    scene = make_scene(5, cards=12, px_per_mm=2.6, glare=0)
    jobs: queue.Queue = queue.Queue()  # the session's thread: this test's, draining the hand-offs

    def to_ui(fn):
        return lambda *a: jobs.put(lambda: fn(*a))

    ticks, stills, lights = [], [], []
    scoring = CameraScoring(session, evidence_dir=tmp_path, to_ui=to_ui, on_read=ticks.append,
                            on_still=stills.append)
    src = _BlurredVideoCamera(scene.image, hand_frames=15)
    live: list = []  # cards the video counted: none, it is too blurred

    def on_cards(read):
        live.extend(read.new)
        scoring.on_cards(read)

    service = StickerService(src, PileReader(), on_cards=on_cards, on_still=scoring.on_still, light=lights.append)
    scoring.attach(service)
    service.start()
    try:
        end = time.monotonic() + 30
        while not stills and time.monotonic() < end:
            try:
                jobs.get(timeout=0.1)()
            except queue.Empty:
                pass
    finally:
        scoring.stop()
    assert stills, "no still was read"
    assert service.reads > 0 and live == []
    assert len(src.stills_at) == 1 and src.stills_at[0] > src.hand_frames  # after the hand left
    assert lights == [True, False]
    read = stills[0]
    assert read.why == "still" and read.frame.image.shape == scene.image.shape
    draft = session.state.draft
    assert sorted(draft.cards) == sorted(c.code for c in scene.cards) and sum(ticks) == 12
    assert scoring.evidence is not None  # the still, annotated, kept as the hand's photo
    assert cv2.imread(scoring.evidence).shape[1] <= 1920
    session.update_draft(team="A")
    session.propose(CardPicker("A", draft.cards).result(source="camera", evidence=scoring.evidence))
    pending = session.state.pending
    assert pending is not None and sorted(pending.result.piles["A"]) == sorted(draft.cards)


def test_scan_asks_the_service_for_a_still_and_without_stills_says_no(tmp_path):
    session = TableSession(Journal(tmp_path / "journal.sqlite"), settings=Settings(),
                           drafts=DraftStore(tmp_path / "draft.json"))
    scoring = CameraScoring(session, evidence_dir=None, to_ui=lambda f: f)
    assert not scoring.request_still()  # no service yet
    src = _BlurredVideoCamera(np.zeros((720, 1280, 3), np.uint8), hand_frames=10 ** 6)
    asked = threading.Event()
    service = StickerService(src, PileReader(), on_still=lambda read, new: asked.set())
    scoring.attach(service)
    with service:
        src.latest(3)
        assert scoring.request_still()
        assert asked.wait(20)  # an empty table, read: a still with no cards
    assert CameraScoring(session, evidence_dir=None, to_ui=lambda f: f).request_still() is False
