"""The diagnostics probes: one report to paste into a bug report (``botifarra-kiosk diag``
prints it; the settings screen's diagnostics read it). Kivy-free.

Sections: app and library versions, board, OS, display, cameras, GPIO, service, disk,
journal integrity, backups, last errors. Each section is gathered on its own and reports
its own failure; the command never crashes and exits 0. Libraries are imported in a child
process (kiosk/diagnostics/libraries.py), so a library that cannot load (or crashes:
"Illegal instruction" on an old Pi) is reported, not fatal. Nothing is written: the journal is opened read-only.
"""

from __future__ import annotations

import glob
import os
import platform
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, TypedDict

Section = Callable[[Path | None], dict[str, Any]]
"""One section: the journal to check (None: the kiosk's own) -> its ``key: value`` lines."""


class Report(TypedDict):
    """The whole report: when it was made, and each section's lines (or its error)."""

    generated: str                          # ISO 8601, UTC
    sections: dict[str, dict[str, Any]]     # section name -> key -> value (a list: one line each)

SERVICE = "botifarra-kiosk.service"
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL|Traceback|Exception|FATAL)\b|\[(ERROR|CRITICAL)")


def _run(cmd: list[str], timeout: float = 10, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def _read(path: str | Path) -> str | None:
    try:
        return Path(path).read_text(errors="replace").rstrip("\0\n ")
    except OSError:
        return None


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)  # pragma: no cover


# -- sections -----------------------------------------------------------------------------

def section_app(db: Path | None) -> dict[str, Any]:
    from kiosk import __version__

    return {"version": __version__, "python": sys.version.split()[0],
            "executable": sys.executable, "prefix": sys.prefix}


def section_libraries(db: Path | None) -> dict[str, Any]:
    from kiosk.diagnostics.libraries import probe

    return probe()


def section_board(db: Path | None) -> dict[str, Any]:
    from hardware.pins import board_model

    out: dict[str, Any] = {"model": board_model() or "not a Raspberry Pi (no device-tree model)"}
    cpuinfo = _read("/proc/cpuinfo") or ""
    match = re.search(r"^Revision\s*:\s*(\S+)", cpuinfo, re.M)
    if match:
        out["revision"] = match.group(1)
    meminfo = _read("/proc/meminfo") or ""
    match = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, re.M)
    if match:
        out["memory"] = _size(int(match.group(1)) * 1024)
    temp = _read("/sys/class/thermal/thermal_zone0/temp")
    if temp and temp.strip().lstrip("-").isdigit():
        out["cpu temperature"] = f"{int(temp) / 1000:.1f} C"
    if shutil.which("vcgencmd"):
        result = _run(["vcgencmd", "get_throttled"], timeout=5)
        text = (result.stdout or result.stderr).strip()
        if text.startswith("throttled="):
            value = int(text.split("=", 1)[1], 16)
            text += " (under-voltage now!)" if value & 0x1 else ""
            text += " (under-voltage since boot: check the power supply)" if value & 0x10000 else ""
        out["throttled"] = text
    return out


def section_os(db: Path | None) -> dict[str, Any]:
    release = _read("/etc/os-release") or ""
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', release, re.M)
    out: dict[str, Any] = {
        "system": match.group(1) if match else platform.platform(),
        "kernel": platform.release(),
        "architecture": platform.machine(),
    }
    uptime = _read("/proc/uptime")
    if uptime:
        seconds = int(float(uptime.split()[0]))
        out["uptime"] = f"{seconds // 86400}d {seconds % 86400 // 3600}h {seconds % 3600 // 60}m"
    overlay = _read("/proc/mounts") or ""
    root = next((line.split() for line in overlay.splitlines() if line.split()[1:2] == ["/"]), None)
    if root:
        out["root filesystem"] = f"{root[2]} ({'read-only overlay' if root[2] == 'overlay' else root[3].split(',')[0]})"
    return out


def section_display(db: Path | None) -> dict[str, Any]:
    names = ("KIVY_WINDOW", "SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY", "KIVY_GL_BACKEND")
    out: dict[str, Any] = {name: os.environ.get(name, "(unset)") for name in names}
    out["drm devices"] = sorted(glob.glob("/dev/dri/*")) or "none"
    out["input devices"] = len(glob.glob("/dev/input/event*"))
    return out


def section_cameras(db: Path | None) -> dict[str, Any]:
    devices = []
    for dev in sorted(glob.glob("/dev/video*"), key=lambda p: (len(p), p)):
        name = _read(f"/sys/class/video4linux/{Path(dev).name}/name")
        devices.append(f"{dev}: {name or '?'}")
    out: dict[str, Any] = {"v4l2": devices or "none"}
    code = ("from picamera2 import Picamera2\n"
            "for c in Picamera2.global_camera_info(): print(c.get('Model'), c.get('Location', ''), c.get('Id', ''))")
    try:
        result = _run([sys.executable, "-c", code], timeout=20)
    except subprocess.TimeoutExpired:
        out["picamera2"] = "camera enumeration timed out (20 s)"
        return out
    if result.returncode == 0:
        out["picamera2"] = result.stdout.strip().splitlines() or "no camera found"
    else:
        last = (result.stderr.strip().splitlines() or ["?"])[-1]
        out["picamera2"] = "not available" if "No module named" in last else f"failed: {last}"
    return out


def section_camera_setup(db: Path | None) -> dict[str, Any]:
    """The set-up check (vision.setup_check) on one frame of the configured camera."""
    from kiosk.settings import Settings
    from vision.setup_check import probe_setup

    settings = Settings.load()
    return probe_setup(str(settings["camera.source"]))


def section_gpio(db: Path | None) -> dict[str, Any]:
    from hardware.pins import detect_gpio
    from kiosk.settings import Settings

    settings = Settings.load()
    requested = settings["gpio.pin_factory"]
    status = detect_gpio(requested)
    out: dict[str, Any] = {
        "enabled in settings": settings["gpio.enabled"],
        "pin factory setting": requested,
        "gpio": status.describe(),
        "gpio chips": status.chips or "none",
    }
    if not status.available or not settings["gpio.enabled"]:
        out["controls"] = "touch and keyboard only (space = scan, enter = confirm, backspace = undo)"
    pins = {k: v for k, v in settings.section("gpio").items() if k.endswith("_pin")}
    out["pins (BCM)"] = ", ".join(f"{k[:-4]}={'not fitted' if v is None else v}" for k, v in pins.items())
    if settings.problems:
        out["settings problems"] = settings.problems
    return out


def section_service(db: Path | None) -> dict[str, Any]:
    if not shutil.which("systemctl"):
        return {"systemd": "systemctl not found"}
    result = _run(["systemctl", "show", SERVICE, "--no-pager",
                   "-p", "LoadState,ActiveState,SubState,NRestarts,ExecMainStartTimestamp,WatchdogUSec,Result"],
                  timeout=10)
    if result.returncode != 0:
        return {"systemd": (result.stderr.strip() or "systemctl failed").splitlines()[-1]}
    out: dict[str, Any] = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    timer = _run(["systemctl", "is-enabled", "botifarra-kiosk-backup.timer"], timeout=10)
    out["backup timer"] = timer.stdout.strip() or timer.stderr.strip() or "?"
    return out


def section_disk(db: Path | None) -> dict[str, Any]:
    from kiosk import paths

    data = paths.data_dir()
    probe = data
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    usage = shutil.disk_usage(probe)
    out: dict[str, Any] = {
        "data dir": str(data) + ("" if data.exists() else " (does not exist yet)"),
        "free": f"{_size(usage.free)} of {_size(usage.total)} ({usage.free * 100 // max(usage.total, 1)}% free)",
        "writable": os.access(probe, os.W_OK),
    }
    if usage.free < 200 * 1024 * 1024:
        out["warning"] = "less than 200 MB free: evidence photos and backups may fail"
    return out


def _journal_path(db: Path | None) -> Path:
    from kiosk import paths

    return Path(db) if db else paths.default_db()


def section_journal(db: Path | None) -> dict[str, Any]:
    path = _journal_path(db)
    if not path.exists():
        return {"path": str(path), "state": "no journal yet (no match has been played here)"}
    out: dict[str, Any] = {"path": str(path), "size": _size(path.stat().st_size)}
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        out["wal"] = _size(wal.stat().st_size)
    mode = "ro"
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        if "not a database" in str(exc) or "malformed" in str(exc):
            out["integrity"] = f"NOT OK: {exc}"
            return out
        mode = "immutable"  # read-only directory without the -shm file: read the main file as is
        con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        rows = [r[0] for r in con.execute("PRAGMA integrity_check").fetchall()]
        out["integrity"] = "ok" if rows == ["ok"] else "NOT OK: " + "; ".join(rows[:10])
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        out["tables"] = ", ".join(tables) or "none"
        for table in tables:
            if table in ("matches", "events"):
                (count,) = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()
                out[f"{table} rows"] = count
        out["journal_mode"] = con.execute("PRAGMA journal_mode").fetchone()[0]
    except sqlite3.Error as exc:
        out["integrity"] = f"NOT OK: {exc}"
    finally:
        con.close()
    if mode != "ro":
        out["note"] = "opened immutable (no write access to its folder); WAL content not checked"
    return out


def section_backups(db: Path | None) -> dict[str, Any]:
    from kiosk import paths

    folder = paths.data_dir() / "backups"
    files = sorted(folder.glob("journal-*.sqlite"))
    if not files:
        return {"folder": str(folder), "backups": "none yet"}
    newest = files[-1]
    age_h = (time.time() - newest.stat().st_mtime) / 3600
    out = {"folder": str(folder), "count": len(files), "newest": f"{newest.name} ({age_h:.0f} h old)"}
    if age_h > 48:
        out["warning"] = "the newest backup is more than 2 days old: is the backup timer running?"
    return out


def section_errors(db: Path | None) -> dict[str, Any]:
    from kiosk import paths

    folder = paths.log_dir()
    logs = [p for p in folder.glob("*") if p.is_file()] if folder.is_dir() else []
    out: dict[str, Any] = {"log dir": str(folder)}
    if not logs:
        out["log"] = "no log files"
    else:
        newest = max(logs, key=lambda p: p.stat().st_mtime)
        lines = newest.read_text(errors="replace").splitlines()
        errors = [line for line in lines if ERROR_LINE.search(line)]
        out["log"] = f"{newest.name} ({len(lines)} lines)"
        out["last errors"] = errors[-20:] if errors else "none"
        if not errors:
            out["last lines"] = lines[-10:]
    if shutil.which("journalctl"):
        try:
            result = _run(["journalctl", "-u", SERVICE, "-p", "warning", "-n", "20", "--no-pager",
                           "-o", "short-iso"], timeout=10)
            text = (result.stdout.strip() or result.stderr.strip()).splitlines()
            out["systemd journal (warnings)"] = text or "none"
        except subprocess.TimeoutExpired:
            out["systemd journal (warnings)"] = "journalctl timed out"
    return out


SECTIONS: dict[str, Section] = {
    "app": section_app,
    "libraries": section_libraries,
    "board": section_board,
    "os": section_os,
    "display": section_display,
    "cameras": section_cameras,
    "camera set-up": section_camera_setup,
    "gpio": section_gpio,
    "service": section_service,
    "disk": section_disk,
    "journal": section_journal,
    "backups": section_backups,
    "errors": section_errors,
}


def collect(db: Path | None, sections: dict[str, Section] | None = None) -> Report:
    """Every section (or those given) about the journal at ``db`` (None: the kiosk's own).
    Never raises: a section's failure is its part of the report."""
    report: Report = {"generated": datetime.now(timezone.utc).isoformat(timespec="seconds"), "sections": {}}
    for name, gather in (sections or SECTIONS).items():
        try:
            report["sections"][name] = gather(db)
        except Exception as exc:  # a section's failure is part of the report
            report["sections"][name] = {"error": f"{exc.__class__.__name__}: {exc}"}
    return report


def section_lines(values: dict[str, Any]) -> list[str]:
    """One section's ``key: value`` lines (a list value: one indented line per item)."""
    lines: list[str] = []
    for key, value in values.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines.extend(f"    {item}" for item in value)
        else:
            lines.append(f"{key}: {value}")
    return lines


def render(report: Report) -> str:
    lines = [f"botifarra-kiosk diag, {report['generated']}"]
    for name, values in report["sections"].items():
        lines += ["", f"== {name} ==", *section_lines(values)]
    return "\n".join(lines) + "\n"
