"""Journal basics: create, append, fold, resume, list, threads (real SQLite files)."""
from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from kiosk.game import BotifarraError
from kiosk.journal import InvalidEvent, Journal, JournalError, UnknownMatch, UnreadableMatch
from tests.journal.helpers import created, play_hand


def test_append_returns_the_new_state_and_reopening_resumes_it(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        play_hand(j, mid, 50)
        state = play_hand(j, mid, 30)
    with Journal(db) as j:
        again = j.load(mid)
    assert again.totals == state.totals == {"A": 14, "B": 6}
    assert len(again.hands) == 2


def test_restart_resumes_a_half_entered_bidding(db):
    with Journal(db) as j:
        mid = j.create_match(created(first_dealer=2))
        play_hand(j, mid, 40)
        dealer = j.load(mid).dealer
        j.append(mid, {"type": "trump", "seat": dealer, "trump": "copes"})
        phase = j.load(mid).phase
    with Journal(db) as j:
        current = j.current_match()
    assert current.match_id == mid
    assert current.match.phase == phase != "choose_trump"
    assert current.match.dealer == dealer
    assert current.match.events[-1] == {"type": "trump", "seat": dealer, "trump": "copes"}


def test_an_illegal_event_raises_the_core_error_and_writes_nothing(db):
    with Journal(db) as j:
        mid = j.create_match(created(first_dealer=0))
        before = j.events(mid)
        with pytest.raises(BotifarraError):
            j.append(mid, {"type": "trump", "seat": 1, "trump": "oros"})  # not the dealer
        assert j.events(mid) == before
        # the journal is still usable after the refusal
        j.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
        assert len(j.events(mid)) == len(before) + 1


@pytest.mark.parametrize("event", [None, [], {"seat": 0}, {"type": 3},
                                   {"type": "trump", "seat": float("nan")},
                                   {"type": "trump", "seat": object()}])
def test_events_that_are_not_json_dicts_are_refused(db, event):
    with Journal(db) as j:
        mid = j.create_match(created())
        with pytest.raises(InvalidEvent):
            j.append(mid, event)
        assert len(j.events(mid)) == 1


def test_create_match_needs_a_match_created_event(db):
    with Journal(db) as j, pytest.raises(InvalidEvent, match="match_created"):
        j.create_match({"type": "trump", "seat": 0, "trump": "oros"})


def test_unknown_match(db):
    with Journal(db) as j:
        with pytest.raises(UnknownMatch) as info:
            j.append(42, {"type": "play"})
        assert isinstance(info.value, LookupError) and isinstance(info.value, JournalError)
        with pytest.raises(UnknownMatch):
            j.load(42)


def test_what_is_stored_is_exactly_what_the_state_was_folded_from(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        state = j.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
    rows = sqlite3.connect(db).execute(
        "SELECT seq, type, data FROM events WHERE match_id = ? ORDER BY seq", (mid,)).fetchall()
    assert [r[0] for r in rows] == [1, 2]
    assert [json.loads(r[2]) for r in rows] == state.events
    assert rows[1][1] == "trump"


def test_events_are_append_only_in_the_file_itself(db):
    with Journal(db) as j:
        j.create_match(created())
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET data = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")


def test_matches_lists_teams_totals_winner_and_dates(db):
    clock = iter(range(1_800_000_000, 1_800_100_000, 60))
    with Journal(db, clock=lambda: next(clock)) as j:
        first = j.create_match(created())
        for _ in range(8):  # 8 x 14 = 112: A wins
            play_hand(j, first, 50)
        second = j.create_match(created(players=("Rosa", "Jordi", "Núria", "Pau")))
        play_hand(j, second, 20)
        listed = j.matches()
        assert [m.id for m in listed] == [first, second]
        won, playing = listed
        assert won.is_over and won.winner == "A" and won.totals == {"A": 112, "B": 0}
        assert won.hands == 8 and won.team_names == {"A": "Nosaltres", "B": "Vosaltres"}
        assert won.created_at == "2027-01-15T08:00:00Z" and won.updated_at > won.created_at
        assert not playing.is_over and playing.winner is None
        assert playing.totals == {"A": 0, "B": 16} and playing.players[1] == "Jordi"
        assert json.loads(json.dumps(playing.to_dict()))["id"] == second
        assert j.current_match().match_id == second


def test_current_match_is_the_latest_unfinished_one(db):
    with Journal(db) as j:
        assert j.current_match() is None
        older = j.create_match(created())
        newer = j.create_match(created())
        assert j.current_match().match_id == newer
        play_hand(j, older, 40)  # the table went back to the older match
        assert j.current_match().match_id == older
        j.append(older, {"type": "match_ended", "reason": "abandoned"})
        assert j.current_match().match_id == newer


def test_two_journals_on_one_file_see_each_others_events(db):
    """The CLI may import while the kiosk runs: the kiosk's cached state must not go stale."""
    with Journal(db) as kiosk, Journal(db) as cli:
        mid = kiosk.create_match(created())
        kiosk.load(mid)
        cli.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
        state = kiosk.append(mid, {"type": "play"})
        assert [e["type"] for e in state.events] == ["match_created", "trump", "play"]


def test_readers_on_other_threads_while_the_ui_thread_writes(db):
    with Journal(db) as j:
        mid = j.create_match(created())
        errors: list[BaseException] = []
        stop = threading.Event()

        def reader():
            try:
                while not stop.is_set():
                    j.matches()
                    j.load(mid)
                    assert j.integrity_check() == ["ok"]
            except BaseException as exc:  # reported to the main thread
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for t in threads:
            t.start()
        try:
            for _ in range(15):
                play_hand(j, mid, 36)
        finally:
            stop.set()
            for t in threads:
                t.join(10)
        assert not errors
        assert len(j.events(mid)) == 1 + 15 * 3


def test_backup_is_a_consistent_single_file_copy(db, tmp_path):
    with Journal(db) as j:
        mid = j.create_match(created())
        play_hand(j, mid, 50)
        dest = j.backup(tmp_path / "backups" / "journal-2026-11-22.sqlite")
        play_hand(j, mid, 50)  # after the backup: not in it
        assert not (tmp_path / "backups" / "journal-2026-11-22.sqlite-wal").exists()
    conn = sqlite3.connect(dest)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    with Journal(dest) as copy:
        assert copy.load(mid).totals == {"A": 14, "B": 0}
    assert not [p for p in (tmp_path / "backups").iterdir() if ".tmp" in p.name]


def test_a_match_whose_events_no_longer_fold_is_reported_not_resumed(db):
    with Journal(db) as j:
        good = j.create_match(created())
        bad = j.create_match(created())
        j.append(bad, {"type": "trump", "seat": 0, "trump": "oros"})
    conn = sqlite3.connect(db)  # hand-edited behind the kiosk's back (triggers dropped first)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data = ? WHERE match_id = ? AND seq = 2",
                 (json.dumps({"type": "trump", "seat": 0, "trump": "hearts"}), bad))
    conn.execute("UPDATE matches SET summary = NULL WHERE id = ?", (bad,))
    conn.commit()
    conn.close()
    with Journal(db) as j:
        with pytest.raises(UnreadableMatch, match=f"match {bad} cannot be resumed"):
            j.load(bad)
        listed = {m.id: m for m in j.matches()}
        assert listed[bad].error and listed[good].error is None
        assert j.current_match().match_id == good


def test_a_journal_whose_directory_cannot_be_made(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(JournalError, match="directory"):
        Journal(tmp_path / "file" / "journal.sqlite")


def test_every_kind_of_event_resumes_to_the_same_match(db):
    """Undo, redo, edit, penalty, misdeal, doubling, delegation, time_up: stored as JSON and
    folded again after a restart, the match is equal to the one the kiosk held."""
    with Journal(db) as j:
        mid = j.create_match(created(preset="butinet"))
        play_hand(j, mid, 50)
        seat = j.load(mid).dealer
        for event in ({"type": "delegate", "seat": seat},
                      {"type": "trump", "seat": (seat + 2) % 4, "trump": "espases"},
                      {"type": "double", "seat": (seat + 1) % 4, "level": "contro"},
                      {"type": "undo"}, {"type": "redo"},
                      {"type": "play"},
                      {"type": "penalty", "offender": "B", "source": "cards", "evidence": None}):
            j.append(mid, event)
        j.append(mid, {"type": "misdeal"})
        j.append(mid, {"type": "edit", "hand": 0, "data": {"trump": "copes", "points": {"A": 60}}})
        j.append(mid, {"type": "trump", "seat": j.load(mid).dealer, "trump": "botifarra"})
        j.append(mid, {"type": "time_up"})  # the match ends after this hand
        held = j.load(mid)
    with Journal(db) as j:
        resumed = j.load(mid)
    assert resumed == held
    assert resumed.totals == held.totals and resumed.phase == held.phase == "doubling"
    assert [h.kind for h in resumed.hands] == ["played", "penalty", "misdeal"]
    assert resumed.hands[0].points == {"A": 60, "B": 12}
    assert resumed.can_undo and resumed.time_up
