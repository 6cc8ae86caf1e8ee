"""Every systemd unit in deploy/ passes `systemd-analyze verify` with no warning at all
(an unknown key only warns, so the test fails on any output). ExecStart binaries must
exist for verify, so the units are checked as copies whose /opt paths point at stub
executables in a temp dir; the desktop drop-in is checked on top of the kiosk unit."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
PREFIX = "/opt/botifarra-kiosk/venv/bin/"


def stage(tmp_path: Path) -> Path:
    assert shutil.which("systemd-analyze"), "systemd-analyze is needed (Debian package systemd)"
    units = tmp_path / "units"
    units.mkdir()
    stubs = tmp_path / "venv" / "bin"
    stubs.mkdir(parents=True)
    stub = stubs / "botifarra-kiosk"      # the console script pip installs in the venv
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    for unit in UNITS.iterdir():
        if unit.suffix in (".service", ".timer"):
            text = unit.read_text().replace(PREFIX, f"{stubs}/")
            (units / unit.name).write_text(text)
    return units


def verify(units: Path, *names: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *(str(units / n) for n in names)],
        capture_output=True, text=True, timeout=60, env=env or dict(os.environ))


def test_every_unit_is_clean(tmp_path):
    units = stage(tmp_path)
    names = sorted(p.name for p in units.iterdir())
    assert names == ["botifarra-kiosk-backup.service", "botifarra-kiosk-backup.timer",
                     "botifarra-kiosk.service"]
    result = verify(units, *names)
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == ""


def test_the_desktop_session_drop_in_is_clean(tmp_path):
    units = stage(tmp_path)
    dropins = units / "botifarra-kiosk.service.d"
    dropins.mkdir()
    shutil.copy(UNITS / "desktop-session.conf", dropins)
    env = dict(os.environ, SYSTEMD_UNIT_PATH=f"{units}:")
    result = verify(units, "botifarra-kiosk.service", env=env)
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr
    # the check does read the drop-in: a bad key in it is reported
    (dropins / "zz-bad.conf").write_text("[Service]\nNotAKey=1\n")
    result = verify(units, "botifarra-kiosk.service", env=env)
    assert "NotAKey" in result.stderr


def test_the_groups_drop_in_that_install_sh_writes_is_clean(tmp_path):
    units = stage(tmp_path)
    dropins = units / "botifarra-kiosk.service.d"
    dropins.mkdir()
    (dropins / "supplementary-groups.conf").write_text("[Service]\nSupplementaryGroups=video audio\n")
    env = dict(os.environ, SYSTEMD_UNIT_PATH=f"{units}:")
    result = verify(units, "botifarra-kiosk.service", env=env)
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


def test_a_bad_key_would_be_caught(tmp_path):
    units = stage(tmp_path)
    unit = units / "botifarra-kiosk.service"
    unit.write_text(unit.read_text().replace("WatchdogSec=", "WatchDogSec="))
    result = verify(units, unit.name)
    assert "WatchDogSec" in result.stderr


@pytest.mark.parametrize("key", [
    "Type=notify", "NotifyAccess=main", "Restart=always", "WatchdogSec=",
    "Environment=KIVY_WINDOW=sdl2", "Environment=SDL_VIDEODRIVER=kmsdrm",
    "Environment=BOTIFARRA_DATA_DIR=/var/lib/botifarra-kiosk", "User=botifarra"])
def test_the_kiosk_unit_has_the_contracted_settings(key):
    lines = (UNITS / "botifarra-kiosk.service").read_text().splitlines()
    assert any(line.startswith(key) for line in lines)


def test_backup_timer_runs_the_backup_command_nightly():
    service = (UNITS / "botifarra-kiosk-backup.service").read_text()
    timer = (UNITS / "botifarra-kiosk-backup.timer").read_text()
    assert "ExecStart=/opt/botifarra-kiosk/venv/bin/botifarra-kiosk backup --keep-days 14\n" in service
    assert "Type=oneshot" in service
    assert "OnCalendar=*-*-* " in timer and "Persistent=true" in timer


def test_units_install_script_and_wrapper_agree_on_the_paths():
    script = (ROOT / "deploy" / "install.sh").read_text()
    wrapper = (ROOT / "deploy" / "botifarra-kiosk.sh").read_text()
    kiosk = (UNITS / "botifarra-kiosk.service").read_text()
    backup = (UNITS / "botifarra-kiosk-backup.service").read_text()
    assert "PREFIX=/opt/botifarra-kiosk\n" in script and "VENV=$PREFIX/venv\n" in script
    assert "DATA_DIR=/var/lib/botifarra-kiosk\n" in script and "KIOSK_USER=botifarra\n" in script
    for unit in (kiosk, backup):
        assert "ExecStart=/opt/botifarra-kiosk/venv/bin/" in unit
        assert "User=botifarra" in unit and "RequiresMountsFor=/var/lib/botifarra-kiosk" in unit
        assert "Environment=BOTIFARRA_DATA_DIR=/var/lib/botifarra-kiosk" in unit
    assert "Environment=BOTIFARRA_CONFIG_DIR=/var/lib/botifarra-kiosk/config" in kiosk
    assert "/var/lib/botifarra-kiosk}" in wrapper and "$BOTIFARRA_DATA_DIR/config}" in wrapper
    assert "exec /opt/botifarra-kiosk/venv/bin/botifarra-kiosk" in wrapper
