"""hardware/ may use gpiozero and kiosk.game, never Kivy nor the rest of the kiosk; and
importing it loads no Kivy (checked in a fresh interpreter)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
ALLOWED = {"gpiozero", "hardware"}


def imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_hardware_imports_only_stdlib_gpiozero_and_kiosk_game():
    offenders = []
    files = sorted(HARDWARE.rglob("*.py"))
    assert len(files) >= 5
    for f in files:
        for name in imports(f):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top in ALLOWED or name.startswith("kiosk.game"):
                continue
            offenders.append(f"{f.name}: {name}")
    assert offenders == []


def test_importing_hardware_loads_no_kivy():
    code = ("import sys, hardware, hardware.controls, hardware.bridge, hardware.watchdog, "
            "hardware.pins; print(sorted(m for m in sys.modules if m.split('.')[0] in ('kivy', 'cv2')))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
