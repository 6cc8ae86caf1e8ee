"""What the fault tests share: a healthy journal with a match in progress, the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kiosk.journal import Journal
from tests.journal.helpers import created, play_hand

ROOT = Path(__file__).resolve().parents[2]
MATCH_JSON = {"rules": {"preset": "reglament"}, "first_dealer": 0,
              "players": ["Anna", "Pere", "Marta", "Joan"],
              "hands": [{"trump": "oros", "points": {"A": 50}}]}


def healthy_journal(path: Path, hands: int = 3) -> int:
    """A journal with one match in progress (``hands`` hands played); returns its id."""
    with Journal(path) as journal:
        match_id = journal.create_match(created())
        for _ in range(hands):
            play_hand(journal, match_id, 44)
    return match_id


def files_of(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def cli(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    """``botifarra-kiosk ARGS`` in a real process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([sys.executable, "-m", "kiosk", *args], input=data, cwd=ROOT,
                          env=env, capture_output=True, timeout=60)


def one_line(proc: subprocess.CompletedProcess, status: int) -> str:
    """The one line on stderr of a failed command (asserting its exit status)."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == status, (proc.returncode, err)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def match_file(tmp_path: Path) -> Path:
    f = tmp_path / "match.json"
    f.write_text(json.dumps(MATCH_JSON))
    return f
