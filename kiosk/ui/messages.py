"""Find the translatable messages in the UI sources (``_("…")``, ``N_("…")``,
``tr._('…')`` in kv files): what each ``locale/<lang>.po`` must translate."""

from __future__ import annotations

import ast
import re
from pathlib import Path

UI_DIR = Path(__file__).parent
_KV_CALL = re.compile(r"""\btr\._\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*\)""")


def python_messages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return found


def kv_messages(path: Path) -> set[str]:
    return {ast.literal_eval(m.group(1)) for m in _KV_CALL.finditer(path.read_text("utf-8"))}


def all_messages(root: Path = UI_DIR) -> set[str]:
    found: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        found |= python_messages(path)
    for path in sorted(root.rglob("*.kv")):
        found |= kv_messages(path)
    return found
