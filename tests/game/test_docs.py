"""The first example of docs/game-core.md runs and prints what it says."""

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-core.md"


def test_the_documented_example_runs_as_written():
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    printed = out.getvalue().splitlines()
    promised = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    assert printed == promised


def test_the_variant_example_runs_as_written():
    text = DOC.read_text(encoding="utf-8")
    code = re.search(r"```python\n(from kiosk.game import VariantMatch.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    printed = out.getvalue().splitlines()
    promised = [line.split("# ", 1)[1].strip() for line in code.splitlines() if "print(" in line]
    assert printed == promised
