"""botifarra-kiosk diag: one plain report (or JSON) that never crashes; every section says
what it found or what went wrong, including a damaged journal."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.diagnostics import probes as diag

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    data = tmp_path / "data"
    (data / "logs").mkdir(parents=True)
    monkeypatch.setenv("BOTIFARRA_DATA_DIR", str(data))
    monkeypatch.setenv("BOTIFARRA_CONFIG_DIR", str(tmp_path / "config"))
    return data


def journal(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)")
    con.executemany("INSERT INTO events (body) VALUES (?)", [("x" * 500,)] * 300)
    con.commit()
    con.close()
    return path


def cli(*args, env):
    return subprocess.run([sys.executable, "-m", "kiosk", "diag", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_text_and_json_reports(data_dir):
    db = journal(data_dir / "journal.sqlite")
    (data_dir / "logs" / "kiosk.log").write_text(
        "04:00 [INFO   ] started\n04:01 [ERROR  ] camera lost: /dev/video0 gone\n04:02 [INFO   ] ok\n")
    env = dict(os.environ)
    text = cli("--db", str(db), env=env)
    assert text.returncode == 0, text.stderr
    for heading in ("== app ==", "== libraries ==", "== board ==", "== cameras ==",
                    "== gpio ==", "== disk ==", "== journal ==", "== errors =="):
        assert heading in text.stdout
    assert "integrity: ok" in text.stdout and "events rows: 300" in text.stdout
    assert "camera lost: /dev/video0 gone" in text.stdout
    assert "gpiozero: 2." in text.stdout
    assert "Traceback" not in text.stdout + text.stderr

    as_json = cli("--json", env=env)
    report = json.loads(as_json.stdout)
    sections = report["sections"]
    assert sections["journal"]["integrity"] == "ok"
    assert sections["app"]["version"]
    assert set(diag.SECTIONS) == set(sections)


def test_no_gpio_is_said_plainly(data_dir):
    gpio = diag.section_gpio(None)
    assert gpio["pin factory setting"] == "auto"
    if not gpio["gpio chips"] or gpio["gpio chips"] == "none":
        assert gpio["gpio"].startswith("no GPIO")
        assert "touch and keyboard" in gpio["controls"]


def test_a_damaged_journal_is_reported_not_raised(data_dir):
    db = journal(data_dir / "journal.sqlite")
    con = sqlite3.connect(db)   # fold the WAL back so the damage is in the main file
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db.read_bytes())
    for page in range(4096, len(data), 4096):   # scribble over the cell pointers of every page
        data[page + 8:page + 40] = b"\xff" * 32
    db.write_bytes(bytes(data))
    section = diag.section_journal(db)
    assert section["integrity"].startswith("NOT OK")

    db.write_bytes(b"this is not a database at all" * 100)
    section = diag.section_journal(db)
    assert section["integrity"].startswith("NOT OK")


def test_a_failing_section_does_not_stop_the_report():
    def broken(db):
        raise OSError("device tree unreadable")

    report = diag.collect(None, {"board": broken, "app": diag.section_app})
    assert report["sections"]["board"] == {"error": "OSError: device tree unreadable"}
    assert report["sections"]["app"]["version"]
    assert "error: OSError: device tree unreadable" in diag.render(report)


def test_a_missing_db_argument_is_bad_input(data_dir, tmp_path):
    result = cli("--db", str(tmp_path / "nope.sqlite"), env=dict(os.environ))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"botifarra-kiosk diag: --db {tmp_path / 'nope.sqlite'}: no such file"]


def test_a_library_that_crashes_hangs_or_fails_is_named_and_the_others_still_probed(tmp_path):
    """The libraries are imported in one child; a library that kills it (an "Illegal
    instruction" on an old Pi), hangs or fails is reported as such, and those after it are
    probed in a new child. What a library prints does not garble the report."""
    from kiosk.diagnostics.libraries import Library, probe
    modules = {
        "chatty": "import os\nprint('hello', flush=True)\nos.write(1, b'from C\\n')\n__version__ = '1.2'\n",
        "broken": "raise ImportError('needs libfoo.so.3')\n",
        "crashes": "import os, signal\nos.kill(os.getpid(), signal.SIGILL)\n",
        "after_crash": "__version__ = '3.0'\n",
        "exits": "import os, sys\nprint('fatal: no display', file=sys.stderr, flush=True)\nos._exit(3)\n",
        "hangs": "import time\ntime.sleep(60)\n",
        "after_hang": "__version__ = '4.0'\n",
    }
    for name, source in modules.items():
        (tmp_path / f"{name}.py").write_text(source)
    libraries = tuple(Library(name, name, name) for name in modules) + (Library("json", "json", "json"),)
    found = probe(libraries, timeout=3, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert list(found) == [lib.label for lib in libraries]
    assert found == {
        "chatty": "1.2",
        "broken": "not importable: ImportError: needs libfoo.so.3",
        "crashes": "import crashed (signal 4)",
        "after_crash": "3.0",
        "exits": "not importable: fatal: no display",
        "hangs": "import timed out (3 s)",
        "after_hang": "4.0",
        "json": found["json"],
    }
    assert found["json"][0].isdigit(), found["json"]
