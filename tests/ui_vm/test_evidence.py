"""The evidence view-model on a real journal and real files, without a window: which hand's
photo the table is looking at, whether it can be shown, and its caption."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from kiosk.game import DECK, Match, Rules
from kiosk.journal import Journal
from kiosk.settings import Settings

from kiosk.table import DraftStore, TableSession
from kiosk.ui.viewmodels.evidence import HandEvidence, current_evidence, from_hand, photo_problem
from kiosk.game import HandResult

# two whole tricks read for Vosaltres: the four aces and the four nines (manilles)
PILE = [c.code for c in DECK if c.rank in (1, 9)]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "journal.sqlite"


@pytest.fixture
def photo(tmp_path):
    path = tmp_path / "evidence" / "match1-hand1.jpg"
    path.parent.mkdir()
    assert cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return path


def make_vm(db):
    return TableSession(Journal(db), settings=Settings(), drafts=DraftStore(db.with_name("draft.json")),
                          rng=random.Random(7))


def camera_hand(vm, evidence):
    vm.new_match()
    vm.choose_trump("oros")
    vm.start_play()
    vm.begin_score("camera")
    vm.propose(HandResult.from_event({"type": "hand_scored", "piles": {"B": PILE}, "source": "camera",
                "evidence": str(evidence) if evidence else None}))


def test_the_hand_being_confirmed_shows_its_photo_and_what_was_counted(db, photo):
    vm = make_vm(db)
    camera_hand(vm, photo)
    ev = current_evidence(vm)
    assert ev is not None and ev.viewable and ev.problem is None
    hand = vm.state.pending.hand
    assert (ev.number, ev.team, ev.cards) == (1, "B", 8)
    assert (ev.card_points, ev.tricks, ev.points) == (hand.card_points["B"], 2, hand.points["B"])
    caption = ev.caption(vm.state.team_names)
    assert "Vosaltres" in caption and f"{ev.card_points}" in caption and f"= {ev.points}" in caption


def test_a_past_hand_being_edited_shows_its_photo_after_a_restart(db, photo):
    vm = make_vm(db)
    camera_hand(vm, photo)
    assert vm.confirm()
    assert current_evidence(vm) is None  # the scoreboard: no hand chosen
    vm = make_vm(db)                      # the kiosk restarted
    vm.begin_action("edit_hand", hand=0)
    ev = current_evidence(vm)
    assert ev is not None and ev.path == str(photo) and ev.viewable and ev.team == "B"


def test_an_edited_camera_hand_keeps_its_photo(db, photo):
    vm = make_vm(db)
    camera_hand(vm, photo)
    assert vm.confirm()
    vm.begin_action("edit_hand", hand=0)
    vm.edit_hand(0, {"trump": "copes", "delegated": False, "doubling": "contro", "points": {"A": 50}})
    hand = vm.match.hands[0]
    assert hand.evidence == str(photo) and hand.points == {"A": 50, "B": 22}
    edit = [e for e in Journal(db).events(vm.state.match_id) if e["type"] == "edit"]
    assert edit and edit[-1]["data"]["evidence"] == str(photo)  # it is in the journal itself
    vm = make_vm(db)                      # after a restart, the photo is still the hand's
    vm.begin_action("edit_hand", hand=0)
    ev = current_evidence(vm)
    assert ev is not None and ev.path == str(photo) and ev.viewable
    vm.cancel()
    vm.edit_hand(0, {"trump": "copes", "delegated": False, "doubling": "none", "penalty": "B"})
    assert vm.match.hands[0].evidence is None  # a penalty is not what the photo shows
    vm.begin_action("edit_hand", hand=0)
    assert current_evidence(vm) is None


def test_a_hand_scored_without_the_camera_has_no_photo(db):
    vm = make_vm(db)
    camera_hand(vm, None)
    assert current_evidence(vm) is None
    vm.confirm()
    vm.begin_action("edit_hand", hand=0)
    assert current_evidence(vm) is None
    vm.begin_action("edit_hand", hand=5)  # not a hand of this match
    assert current_evidence(vm) is None


def test_a_deleted_empty_or_corrupt_photo_says_why(tmp_path, photo):
    messages = set()
    photo_gone = tmp_path / "gone.jpg"
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a photo at all")
    for bad in (photo_gone, empty, junk, tmp_path, None):
        problem = photo_problem(bad)
        assert problem and isinstance(problem, str)
        messages.add(problem)
    assert len(messages) >= 3  # gone, damaged, none: different words
    assert photo_problem(photo) is None
    ev = HandEvidence(number=3, path=str(photo_gone))
    assert not ev.viewable and ev.caption({"A": "Nosaltres"}).count("3") == 1


def test_from_a_record_without_evidence_or_without_piles():
    m = Match.create(Rules.from_dict({"preset": "reglament"}), first_dealer=0)
    m = m.apply({"type": "trump", "seat": 0, "trump": "oros"}).apply({"type": "play"})
    hand = m.apply({"type": "hand_scored", "points": {"A": 50}, "source": "points"}).hands[-1]
    assert from_hand(hand) is None
    ev = from_hand(replace(hand, number=2, evidence="/x.jpg"))
    assert ev is not None and ev.number == 2 and ev.team is None and ev.points is None
