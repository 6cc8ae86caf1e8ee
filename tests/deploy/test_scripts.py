"""shellcheck is clean on every shell script in deploy/ and .ci/, and install.sh
--dry-run runs on this (non-Pi, non-root) machine, prints its actions and changes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"


def shell_scripts() -> list[Path]:
    found = []
    for folder in (ROOT / "deploy", ROOT / ".ci"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file():
                continue
            head = path.read_bytes()[:64]
            if path.suffix == ".sh" or head.startswith(b"#!") and b"sh" in head.split(b"\n")[0]:
                found.append(path)
    return found


def test_shellcheck_is_clean_on_every_script():
    assert shutil.which("shellcheck"), "shellcheck is needed (Debian package shellcheck)"
    scripts = shell_scripts()
    names = {p.relative_to(ROOT).as_posix() for p in scripts}
    assert {"deploy/install.sh", "deploy/ensure-debs.sh", "deploy/botifarra-kiosk.sh", ".ci/run"} <= names
    result = subprocess.run(["shellcheck", "--severity=style", *map(str, scripts)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def run_install(*args, env=None):
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True,
                          timeout=60, env=env or dict(os.environ), cwd=ROOT)


def test_dry_run_prints_every_step_and_exits_0():
    touched = [Path(p) for p in ("/opt/botifarra-kiosk", "/var/lib/botifarra-kiosk",
                                 "/etc/systemd/system/botifarra-kiosk.service")]
    before = [p.exists() for p in touched]
    result = run_install("--dry-run", "--gpio")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for n in range(1, 10):
        assert f"==> [{n}/9]" in out
    for action in ("python3 -m venv --system-site-packages /opt/botifarra-kiosk/venv",
                   "install -d -o botifarra -g botifarra -m 2770 /var/lib/botifarra-kiosk",
                   "systemctl enable botifarra-kiosk.service botifarra-kiosk-backup.timer",
                   "systemctl restart botifarra-kiosk.service",
                   "write /var/lib/botifarra-kiosk/config/settings.ini",
                   "raspi-config nonint do_overlayfs 0"):
        assert action in out, action
    assert "Dry run complete: nothing was changed." in out
    assert [p.exists() for p in touched] == before


def test_dry_run_desktop_session_writes_the_drop_in_for_that_user():
    result = run_install("--dry-run", "--desktop-user", "root", "--no-start")
    assert result.returncode == 0, result.stderr
    assert "write /etc/systemd/system/botifarra-kiosk.service.d/desktop-session.conf" in result.stdout
    assert "[dry-run]   | User=root" in result.stdout
    assert "/run/user/0" in result.stdout
    assert "systemctl restart" not in result.stdout
    assert "getty@tty1" not in result.stdout


def test_a_failing_step_is_named(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "uname").write_text("#!/bin/sh\nexit 3\n")
    (fake / "uname").chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    result = run_install("--dry-run", env=env)
    assert result.returncode != 0
    assert 'FAILED during step "check the machine"' in result.stderr
    assert "exit status 3" in result.stderr


def test_bad_option_is_one_line_and_exit_2():
    result = run_install("--frobnicate")
    assert result.returncode == 2
    assert result.stderr.strip() == "install.sh: unknown option: --frobnicate (see --help)"


def test_the_installed_command_line_wrapper_points_at_the_kiosk_data(tmp_path):
    stub = tmp_path / "botifarra-kiosk"
    stub.write_text('#!/bin/sh\necho "$BOTIFARRA_DATA_DIR|$BOTIFARRA_CONFIG_DIR|$*"\n')
    stub.chmod(0o755)
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text((ROOT / "deploy" / "botifarra-kiosk.sh").read_text()
                       .replace("/opt/botifarra-kiosk/venv/bin/botifarra-kiosk", str(stub)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOTIFARRA_")}
    result = subprocess.run(["sh", str(wrapper), "diag", "--json"], capture_output=True,
                            text=True, env=env, timeout=10)
    assert result.stdout.strip() == (
        "/var/lib/botifarra-kiosk|/var/lib/botifarra-kiosk/config|diag --json")


def test_dry_run_installs_each_pi_package_on_its_own():
    out = run_install("--dry-run", "--no-start").stdout
    for pkg in ("python3-picamera2", "python3-libcamera", "python3-lgpio"):
        lines = [line for line in out.splitlines() if "apt-get install" in line and pkg in line]
        if f"{pkg} installed" in out:
            continue
        assert len(lines) == 1, pkg
        assert lines[0].rstrip().endswith(pkg), lines[0]


def test_the_unit_gets_only_the_groups_that_exist_here():
    out = run_install("--dry-run", "--no-start").stdout
    line = next(line for line in out.splitlines() if "| SupplementaryGroups=" in line)
    named = line.split("=", 1)[1].split()
    existing = {g.split(":")[0] for g in Path("/etc/group").read_text().splitlines()}
    assert named and set(named) <= existing
    assert set(named) <= {"video", "render", "input", "gpio", "audio"}
    for group in {"video", "render", "input", "gpio", "audio"} & existing:
        assert group in named


def test_the_polkit_rule_lets_the_service_user_mount_usb_sticks():
    rule = (ROOT / "deploy" / "polkit" / "50-botifarra-kiosk-usb.rules").read_text()
    assert 'subject.user !== "botifarra"' in rule
    # what kiosk/usb.py's udisksctl mount, unmount and power-off ask for
    for action in ("filesystem-mount", "filesystem-mount-other-seat", "power-off-drive-other-seat"):
        assert f'"org.freedesktop.udisks2.{action}"' in rule
    out = run_install("--dry-run", "--no-start").stdout
    assert "/etc/polkit-1/rules.d/50-botifarra-kiosk-usb.rules" in out
    assert "udisks2" in (ROOT / "deploy" / "install.sh").read_text()
