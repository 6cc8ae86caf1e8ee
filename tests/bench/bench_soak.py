"""A day at the table, shortened: the camera screen opened and left again and again.

One fresh ``botifarra-kiosk run`` process (800x480, demo camera, a new journal) starts a
match, then opens the camera screen for 2 s and goes back to the scoreboard, ``CYCLES``
times. After each cycle it notes its RSS and its thread count. A kiosk that leaked per
hand (frames, textures, threads) would grow cycle after cycle; the table says whether the
last cycles are above cycles 11-20 (the first ten grow while glibc's arenas and the GL
driver settle: a 90-cycle run here went 194 MB -> 203-210 MB by cycle 11, and stayed there
to cycle 90). Needs a display (``make bench`` runs under Xvfb).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CYCLES = 40

CHILD = r"""
import json, sys, threading
import psutil
from kivy.app import App
from kivy.clock import Clock
from kiosk.ui.navigation import Overlay

CYCLES = int(sys.argv[2])
out = {"rss": [], "threads": []}

def app():
    return App.get_running_app()

def start(dt):
    vm = app().session
    vm.new_match()
    vm.choose_trump("oros")
    vm.start_play()
    Clock.schedule_once(open_camera, 0.5)

def open_camera(dt):
    app().act(app().session.begin_score, "camera")
    Clock.schedule_once(leave_camera, 2.0)

def leave_camera(dt):
    app().open_overlay(Overlay.SCOREBOARD)  # the camera screen left, its step kept
    Clock.schedule_once(note, 0.5)

def note(dt):
    out["rss"].append(psutil.Process().memory_info().rss / 2**20)
    out["threads"].append(threading.active_count())
    if len(out["rss"]) < CYCLES:
        Clock.schedule_once(open_camera, 0.1)
    else:
        out["camera_stopped"] = app().sm.get_screen("score_camera").pile.service is None
        app().stop()

Clock.schedule_once(start, 1.5)
from kiosk.cli import main
out["rc"] = main(["run", "--db", sys.argv[1], "--windowed", "--size", "800x480", "--camera", "demo"])
print("SOAK " + json.dumps(out), flush=True)
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1",
                   BOTIFARRA_CONFIG_DIR=str(tmp / "config"), KIVY_HOME=str(tmp / "kivy"),
                   BOTIFARRA_CACHE_DIR=str(tmp / "cache"))
        proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp / "journal.sqlite"), str(CYCLES)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("SOAK ")), None)
    if line is None:
        raise RuntimeError(f"the kiosk did not report (exit {proc.returncode}): {proc.stderr[-2000:]}")
    out = json.loads(line[5:])
    rss, threads = out["rss"], out["threads"]
    early = sorted(rss[10:20])[5]  # median of cycles 11-20 (the allocator has settled by then)
    late = sorted(rss[-10:])[5]    # median of the last 10
    print(f"| camera screen opened and left {CYCLES} times | figure |")
    print("|---|---|")
    print(f"| RSS after cycle 1 (MB) | {rss[0]:.0f} |")
    print(f"| RSS, median of cycles 11-20 (MB) | {early:.0f} |")
    print(f"| RSS, median of the last 10 cycles (MB) | {late:.0f} |")
    print(f"| growth from cycles 11-20 to the last 10 (MB per cycle) | {(late - early) / (CYCLES - 15):+.2f} |")
    print(f"| highest RSS after a cycle (MB) | {max(rss):.0f} |")
    print(f"| threads after each cycle (min-max) | {min(threads)}-{max(threads)} |")
    print(f"| camera stopped when its screen was left | {'yes' if out.get('camera_stopped') else 'no'} |")
    print()


if __name__ == "__main__":
    main()
