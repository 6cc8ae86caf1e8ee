"""botifarra-kiosk export / import / matches / backup on real journal files."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.game import score_match_json
from kiosk.journal import Journal

ROOT = Path(__file__).resolve().parents[2]

MATCH = {"rules": {"preset": "reglament"}, "first_dealer": 1,
         "players": ["Anna", "Pere", "Marta", "Joan"],
         "team_names": {"A": "Nosaltres", "B": "Vosaltres"},
         "hands": [{"trump": "oros", "doubling": "contro", "points": {"A": 45}},
                   {"trump": "botifarra", "points": {"B": 41}},
                   {"trump": "copes", "penalty": "A"},
                   {"misdeal": True},
                   {"trump": "espases", "delegated": True,
                    "piles": {"A": ["9O", "1O", "12C", "10E"]}}]}


def cli(*argv: str, capsys) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def db(tmp_path):
    return tmp_path / "data" / "journal.sqlite"


@pytest.fixture
def match_file(tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(MATCH), encoding="utf-8")
    return path


def test_import_then_export_reproduces_the_scores(db, match_file, capsys):
    status, out, err = cli("import", str(match_file), "--db", str(db), capsys=capsys)
    assert (status, err) == (0, "")
    assert out.startswith("imported match 1: Nosaltres ")
    status, out, _ = cli("export", "--match", "1", "--db", str(db), capsys=capsys)
    assert status == 0
    exported = json.loads(out)
    assert exported["players"] == MATCH["players"]
    assert score_match_json(exported) == score_match_json(MATCH)


def test_export_all_then_import_moves_every_match(db, tmp_path, capsys):
    with Journal(db) as j:
        j.import_matches([MATCH, {"hands": [{"trump": "oros", "points": {"A": 60}}]}])
        before = [(m.totals, m.hands) for m in j.matches()]
    out_file = tmp_path / "all.json"
    assert cli("export", "--all", "--db", str(db), "-o", str(out_file), capsys=capsys)[0] == 0
    data = json.loads(out_file.read_text())
    assert list(data) == ["matches"] and len(data["matches"]) == 2
    other = tmp_path / "other.sqlite"
    status, out, _ = cli("import", str(out_file), "--db", str(other), capsys=capsys)
    assert status == 0 and out.count("imported match") == 2
    with Journal(other) as j:
        assert [(m.totals, m.hands) for m in j.matches()] == before


THREE = {"variant": "three", "rules": {"preset": "reglament"}, "players": ["Anna", "Pere", None],
         "hands": [{"trump": "oros", "doubling": "contro", "points": [40, 20, 12]},
                   {"misdeal": True}, {"trump": "copes", "penalty": 2}]}


def test_export_of_a_journal_holding_a_game_without_pairs(db, tmp_path, capsys):
    """A three-player match beside a pair match: ``export --all`` and ``--match`` write it as
    its own match JSON (one total per seat, negatives too), and it imports back the same."""
    with Journal(db) as j:
        j.import_matches([MATCH, THREE])
    status, out, err = cli("export", "--match", "2", "--db", str(db), capsys=capsys)
    assert (status, err) == (0, "")
    one = json.loads(out)
    assert one["variant"] == "three" and one["players"] == ["Anna", "Pere", None]
    scored = score_match_json(one)
    assert scored == score_match_json(THREE) and min(scored["totals"]) < 0
    out_file = tmp_path / "all.json"
    assert cli("export", "--db", str(db), "-o", str(out_file), capsys=capsys)[:3:2] == (0, "")
    matches = json.loads(out_file.read_text())["matches"]
    assert [m.get("variant", "pairs") for m in matches] == ["pairs", "three"] and matches[1] == one
    other = tmp_path / "other.sqlite"
    assert cli("import", str(out_file), "--db", str(other), capsys=capsys)[0] == 0
    with Journal(other) as j:
        assert j.export_match(2) == one


def test_export_without_a_choice_is_all(db, capsys):
    with Journal(db) as j:
        j.import_matches([MATCH])
    assert len(json.loads(cli("export", "--db", str(db), capsys=capsys)[1])["matches"]) == 1


BAD = {
    "invalid JSON": ("{\"hands\": [", "invalid JSON"),
    "unknown card": ({"hands": [{"trump": "oros", "piles": {"A": ["13O", "1O", "12C", "10E"]}}]}, "hand 1"),
    "not whole tricks": ({"hands": [{"trump": "oros", "piles": {"A": ["9O", "1O", "12C"]}}]}, "hand 1"),
    "card twice": ({"hands": [{"trump": "oros", "piles": {"A": ["9O", "9O", "12C", "10E"]}}]}, "hand 1"),
    "points over 72": ({"hands": [{"trump": "oros", "points": {"A": 80}}]}, "hand 1"),
    "sant vicenc on botifarra": (
        {"hands": [{"trump": "botifarra", "doubling": "sant_vicenc", "points": {"A": 40}}]}, "hand 1"),
    "hands after the end": (
        {"hands": [{"trump": "botifarra", "doubling": "recontro", "points": {"A": 72}},
                   {"trump": "oros", "points": {"A": 40}}]}, "hand 2"),
    "one bad match of two": ({"matches": [MATCH, {"hands": [{"trump": "oros", "points": {"Z": 3}}]}]},
                             "match 2"),
    "not a match": ([1, 2], "match 1"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_bad_input_exits_2_with_one_line_and_writes_nothing(db, tmp_path, case, capsys):
    content, named = BAD[case]
    bad = tmp_path / "bad.json"
    bad.write_text(content if isinstance(content, str) else json.dumps(content))
    # into a journal that does not exist yet: it must not be created
    status, out, err = cli("import", str(bad), "--db", str(db), capsys=capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err, err
    assert not db.parent.exists()
    # into an existing journal: not a byte changes
    with Journal(db) as j:
        j.import_matches([MATCH])
    files = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    status, _, err = cli("import", str(bad), "--db", str(db), capsys=capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert {p.name: p.read_bytes() for p in db.parent.iterdir()} == files


def test_an_unreadable_import_file(db, tmp_path, capsys):
    status, _, err = cli("import", str(tmp_path / "missing.json"), "--db", str(db), capsys=capsys)
    assert status == 2 and "cannot read" in err and len(err.splitlines()) == 1


def test_export_of_an_unknown_match(db, capsys):
    with Journal(db) as j:
        j.import_matches([MATCH])
    status, out, err = cli("export", "--match", "7", "--db", str(db), capsys=capsys)
    assert (status, out) == (2, "") and "no match 7" in err


def test_matches_lists_a_table_and_json(db, capsys):
    with Journal(db) as j:
        j.import_matches([MATCH, {"hands": [{"trump": "oros", "points": {"A": 72}}] * 3}])
    status, out, _ = cli("matches", "--db", str(db), capsys=capsys)
    lines = out.splitlines()
    assert status == 0 and lines[0].split() == ["ID", "STARTED", "LAST", "TEAMS", "SCORE", "HANDS", "STATE"]
    assert "Nosaltres - Vosaltres" in lines[1] and "playing" in lines[1]
    assert "A - B" in lines[2] and "108-0" in lines[2] and "won by A" in lines[2]
    status, out, _ = cli("matches", "--json", "--db", str(db), capsys=capsys)
    listed = json.loads(out)
    assert [m["id"] for m in listed] == [1, 2] and listed[1]["winner"] == "A"
    assert listed[0]["created_at"].endswith("Z")


def test_reading_commands_do_not_create_a_journal(db, capsys):
    assert cli("matches", "--db", str(db), capsys=capsys)[1].startswith("no matches")
    assert json.loads(cli("matches", "--json", "--db", str(db), capsys=capsys)[1]) == []
    assert json.loads(cli("export", "--db", str(db), capsys=capsys)[1]) == {"matches": []}
    assert not db.parent.exists()


def test_reading_commands_leave_a_damaged_journal_where_it_is(db, capsys):
    db.parent.mkdir()
    db.write_bytes(os.urandom(5000))
    before = db.read_bytes()
    for argv in (["matches"], ["export"], ["backup", str(db.parent / "b.sqlite")]):
        status, out, err = cli(*argv, "--db", str(db), capsys=capsys)
        assert status == 1 and "damaged" in err and len(err.splitlines()) == 1
    assert db.read_bytes() == before and sorted(p.name for p in db.parent.iterdir()) == ["journal.sqlite"]


def test_the_nightly_backup_leaves_a_damaged_journal_where_it_is(tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(data))
    data.mkdir()
    (data / "journal.sqlite").write_bytes(os.urandom(5000))
    status, out, err = cli("backup", "--keep-days", "14", capsys=capsys)
    assert status == 1 and "damaged" in err and len(err.splitlines()) == 1 and out == ""
    assert [p.name for p in data.iterdir()] == ["journal.sqlite"]


def test_import_into_a_damaged_journal_sets_it_aside_and_says_so(db, match_file, capsys):
    db.parent.mkdir()
    db.write_bytes(os.urandom(5000))
    status, out, err = cli("import", str(match_file), "--db", str(db), capsys=capsys)
    assert status == 0 and "damaged" in err and "imported match 1" in out
    assert any("damaged-" in p.name for p in db.parent.iterdir())


def test_backup_into_a_directory_keeps_the_newest(db, tmp_path, capsys):
    with Journal(db) as j:
        j.import_matches([MATCH])
    backups = tmp_path / "backups"
    backups.mkdir()
    for old in ("journal-20250101-000000.sqlite", "journal-20250102-000000.sqlite"):
        (backups / old).write_bytes(b"old")
    status, out, _ = cli("backup", str(backups), "--keep", "2", "--db", str(db), capsys=capsys)
    assert status == 0
    made = Path(out.splitlines()[0])
    assert out.splitlines()[1:] == [f"removed {backups / 'journal-20250101-000000.sqlite'}"]
    assert sorted(p.name for p in backups.iterdir()) == ["journal-20250102-000000.sqlite", made.name]
    conn = sqlite3.connect(made)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT count(*) FROM matches").fetchone() == (1,)


def test_through_the_console_entry_point(db, match_file):
    """One real process per command: exit codes and streams as a shell sees them."""
    def run(*argv, stdin=None):
        return subprocess.run([sys.executable, "-m", "kiosk", *argv], cwd=ROOT, input=stdin,
                              capture_output=True, text=True, timeout=60)
    imported = run("import", "-", "--db", str(db), stdin=match_file.read_text())
    assert imported.returncode == 0, imported.stderr
    exported = run("export", "--match", "1", "--db", str(db))
    assert exported.returncode == 0
    # export then score (the core's command) reproduces the totals
    scored = run("score", "-", stdin=exported.stdout)
    original = run("score", "-", stdin=json.dumps(MATCH))
    assert scored.returncode == original.returncode == 0, scored.stderr
    assert json.loads(scored.stdout) == json.loads(original.stdout)
    assert json.loads(scored.stdout)["totals"] == score_match_json(MATCH)["totals"]
    bad = run("import", "-", "--db", str(db), stdin='{"hands": [{"trump": "oros", "points": {"A": 73}}]}')
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and bad.stdout == ""
