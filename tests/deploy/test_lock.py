"""The lock files pin every dependency with hashes, keep the test and bench tools out of the
run-time sets, keep each app's dependencies out of the other's (the kiosk has no web server,
the organiser no Kivy, OpenCV or GPIO), and hold numpy and OpenCV where Debian's numpy-1.x C
extensions keep importing."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQ = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def pins(name: str) -> dict[str, str]:
    found = {}
    blocks = re.split(r"\n(?=[A-Za-z0-9])", (REQ / name).read_text())
    for block in blocks:
        match = PIN.match(block)
        if match is None:
            continue
        assert "--hash=sha256:" in block, f"{name}: {match.group(1)} has no hash"
        found[match.group(1).lower()] = match.group(2)
    return found


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[ ;]", r, maxsplit=1)[0].lower() for r in requirements}


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_each_set_pins_its_pyproject_dependencies():
    deps = project()
    extras = deps["optional-dependencies"]
    run, organiser = pins("run.txt"), pins("organiser.txt")
    test, bench = pins("test.txt"), pins("bench.txt")
    assert deps["dependencies"] == []  # the core and the wire protocol: standard library only
    assert names(extras["kiosk"]) <= set(run)
    assert names(extras["organiser"]) <= set(organiser)
    assert names(extras["kiosk"]) | names(extras["organiser"]) | names(extras["test"]) <= set(test)
    assert names(extras["bench"]) <= set(bench)
    assert set(run) | set(organiser) <= set(test) <= set(bench)
    for name in ("run.txt", "organiser.txt", "test.txt", "bench.txt"):
        assert "setuptools" in pins(name), name  # builds the project itself, no build isolation


def test_the_run_time_sets_have_no_test_or_bench_tools():
    for name in ("run.txt", "organiser.txt"):
        locked = pins(name)
        for tool in ("pytest", "pytest-xdist", "hypothesis", "ruff", "zxing-cpp", "psutil"):
            assert tool not in locked, (name, tool)


def test_the_kiosk_has_no_web_server_and_the_organiser_no_kivy_opencv_or_gpio():
    run, organiser = pins("run.txt"), pins("organiser.txt")
    for server in ("starlette", "uvicorn", "anyio", "h11"):
        assert server not in run, server
    for device in ("kivy", "opencv-python-headless", "numpy", "gpiozero", "pyzbar", "colorzero"):
        assert device not in organiser, device


def test_numpy_is_debians_and_opencv_does_not_need_numpy_2():
    debian = re.search(r"^numpy==(\S+)", (REQ / "pi-numpy.txt").read_text(), re.M).group(1)
    for name in ("run.txt", "test.txt", "bench.txt"):
        locked = pins(name)
        assert locked["numpy"] == debian
        major, minor = (int(part) for part in locked["opencv-python-headless"].split(".")[:2])
        assert (major, minor) < (4, 12)


def test_installs_use_the_lock_with_hashes_and_never_upgrade():
    for script in ("Makefile", "deploy/install.sh", "deploy/install-organiser.sh", "deploy/pi-check/run.sh"):
        text = (ROOT / script).read_text()
        assert "--require-hashes" in text, script
        assert "--upgrade" not in text, script
