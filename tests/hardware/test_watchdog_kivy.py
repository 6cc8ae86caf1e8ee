"""A frozen UI stops petting the watchdog: a real Kivy app under Xvfb, a real datagram
socket as NOTIFY_SOCKET. Pets arrive while the loop runs, none while a Clock callback
blocks it for 2 s, and they resume afterwards. The same app checks that a gpiozero button
callback reaches Kivy's main thread through hardware.bridge.call_on."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = Path(__file__).with_name("kivy_watchdog_app.py")


@pytest.mark.slow
def test_pets_stop_while_the_kivy_loop_is_blocked(tmp_path):
    assert shutil.which("xvfb-run"), "xvfb-run is needed (Debian package xvfb)"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(0.05)
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), PYTHONPATH=str(ROOT))
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(name, None)
    # NOTIFY_SOCKET goes to the app only: Xvfb itself sends READY=1 when it sees one.
    proc = subprocess.Popen(
        ["xvfb-run", "-a", "-s", "-screen 0 800x480x24",
         "env", f"NOTIFY_SOCKET={tmp_path / 'notify'}", "WATCHDOG_USEC=200000",
         sys.executable, str(APP)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    messages: list[tuple[float, str]] = []
    deadline = time.monotonic() + 14
    try:
        while time.monotonic() < deadline:
            try:
                messages.append((time.monotonic(), sock.recv(4096).decode()))
            except socket.timeout:
                if proc.poll() is not None:
                    break
                continue
            if messages[-1][1] == "STOPPING=1":
                break
        proc.wait(timeout=max(1, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
        output = proc.stdout.read().decode(errors="replace")
        sock.close()
    texts = [m for _, m in messages]
    assert proc.returncode == 0, output[-3000:]
    assert texts[0] == "READY=1\nSTATUS=ui up", texts[:3]
    blocked_at = next(t for t, m in messages if m == "STATUS=blocking")
    unblocked_at = next(t for t, m in messages if m == "STATUS=unblocked")
    pets = [t for t, m in messages if m == "WATCHDOG=1"]
    before = [t for t in pets if t < blocked_at]
    during = [t for t in pets if blocked_at < t < unblocked_at]
    after = [t for t in pets if t > unblocked_at]
    assert len(before) >= 5, f"only {len(before)} pets before the block"
    assert during == []
    assert len(after) >= 5, f"only {len(after)} pets after the block"
    assert after[0] - before[-1] >= 1.9            # the 2 s freeze shows as a gap
    assert after[0] - unblocked_at < 1.0           # and petting resumes at once
    running = [b - a for a, b in zip(before, before[1:])] + [b - a for a, b in zip(after, after[1:])]
    assert max(running) < 1.0                      # steady while the loop runs
    assert "STATUS=scan on main thread" in texts
    assert texts[-1] == "STOPPING=1"
