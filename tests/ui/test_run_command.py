"""``botifarra-kiosk run --db PATH`` under Xvfb: stays up, creates the journal, shows the
scoreboard; a journal with a hand half bid reopens on the bidding screen; a kiosk killed with
SIGKILL mid-hand in trick mode reopens on the trick screen with every card saved."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ui.harness import ROOT

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ, BOTIFARRA_CONFIG_DIR=str(tmp_path / "config"),
               BOTIFARRA_DATA_DIR=str(tmp_path / "data"), KIVY_NO_FILELOG="1",
               KIVY_HOME=str(tmp_path / "kivy"))
    env.pop("KIVY_LOG_MODE", None)  # the kiosk's own logging, as in production
    return subprocess.Popen([sys.executable, "-m", "kiosk", "run", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(proc: subprocess.Popen, text: str, timeout: float = 20.0) -> str:
    import selectors
    out = ""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    while time.monotonic() < end and text not in out:
        if sel.select(timeout=0.2):
            line = proc.stdout.readline()
            if not line:
                break
            out += line
    return out


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_run_stays_up_creates_the_journal_and_shows_the_scoreboard(tmp_path):
    db = tmp_path / "j" / "journal.sqlite"
    proc = start(tmp_path, "--db", str(db), "--size", "800x480")
    try:
        out = wait_for(proc, "Start application main loop")
        assert re.search(r"kiosk\W+screen scoreboard", out), out[-3000:]
        time.sleep(2.0)
        assert proc.poll() is None, "the kiosk exited"
        assert db.exists()
    finally:
        stop(proc)
    assert proc.returncode == 0  # SIGTERM (systemctl stop) ends the kiosk cleanly


def test_run_reopens_a_half_bid_hand_on_the_bidding_screen(tmp_path):
    from kiosk.journal import Journal
    db = tmp_path / "journal.sqlite"
    with Journal(db) as j:
        mid = j.create_match({"type": "match_created", "rules": {"preset": "reglament"},
                              "first_dealer": 0, "players": None,
                              "team_names": {"A": "Nosaltres", "B": "Vosaltres"}})
        j.append(mid, {"type": "trump", "seat": 0, "trump": "oros"})
        j.append(mid, {"type": "double", "seat": 1, "level": "contro"})
    proc = start(tmp_path, "--db", str(db), "--windowed", "--size", "800x480")
    try:
        out = wait_for(proc, "Start application main loop")
        assert re.search(r"kiosk\W+screen bidding", out), out[-3000:]
        assert proc.poll() is None
    finally:
        stop(proc)


def test_bad_size_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kiosk", "run", "--size", "big"], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--size" in proc.stderr


def test_a_kiosk_killed_mid_hand_in_trick_mode_reopens_at_the_same_trick(tmp_path):
    """Trick mode, a real kiosk process: a hand played card by card through the table session
    (tests.table.trick_child) is killed with SIGKILL mid-trick; ``run`` on that journal opens on
    the trick screen, is itself killed with SIGKILL there, and opens on it again, with every card
    saved before the first kill still the hand's, in order, and nothing added by the restarts."""
    import signal

    from kiosk.journal import Journal
    from kiosk.settings import Settings

    child = subprocess.Popen([sys.executable, "-m", "tests.table.trick_child", str(tmp_path)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    acked = 0
    for line in child.stdout:
        acked = int(line.split()[1])
        if acked >= 22:  # trick 6, two cards on the table
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait()
    assert child.returncode == -signal.SIGKILL

    def cards() -> list[tuple[int, int, str]]:
        with Journal(tmp_path / "j.sqlite") as j:
            (match,) = j.matches()
            return [(e["trick"], e["seat"], e["card"]) for e in j.events(match.id) if e["type"] == "card_played"]

    before = cards()
    assert len(before) >= acked and len(before) % 4  # mid-trick
    settings = Settings()
    settings.set("camera.mode", "tricks")
    settings.save(tmp_path / "config" / "settings.ini")
    for _ in range(2):
        proc = start(tmp_path, "--db", str(tmp_path / "j.sqlite"), "--size", "800x480")
        try:
            out = wait_for(proc, "Start application main loop", timeout=60.0)
            assert re.search(r"kiosk\W+screen tricks", out), out[-3000:]
            assert proc.poll() is None
        finally:
            os.kill(proc.pid, signal.SIGKILL)  # the plug pulled on the trick screen
            proc.wait()
        assert cards() == before
