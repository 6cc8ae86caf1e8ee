"""``botifarra-kiosk run --db PATH`` under Xvfb: stays up, creates the journal, shows the
scoreboard; a journal with a hand half bid reopens on the bidding screen."""

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
