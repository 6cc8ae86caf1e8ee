"""The house as its own imports draw it (read with ast, nothing imported): no import circle,
no arrow that runs back up the layers, the organiser a separate app beside the kiosk, no
product file longer than one sitting and none cut in two only to fit (a class whose other
half lives in another file), no test-only writer in the product.

Layers, bottom up (an area may import its own layer's files and any layer below):

    kiosk.game, clubwire             the pure core; the club's wire protocol
    kiosk.files, .paths, .messages   small helpers on the standard library and the core
    vision, hardware                 camera reading, GPIO
    kiosk.settings, .journal, .usb, .decks
    kiosk.table, kiosk.diagnostics, kiosk.backup
    kiosk.club                       the table's club mode (over the session)
    kiosk.ui                         the Kivy faces
    kiosk.commands, kiosk.cli        the commands, one of which starts the UI

The organiser (``organiser/``, ``botifarra-club``) stands beside the kiosk on the core,
the wire protocol and the gettext catalogue only.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("kiosk", "vision", "hardware", "clubwire", "organiser")
MAX_LINES = 400

RANK = {
    "kiosk": 0, "kiosk.game": 0, "clubwire": 0,
    "kiosk.files": 1, "kiosk.paths": 1, "kiosk.messages": 1,
    "vision": 2, "hardware": 2,
    "kiosk.settings": 3, "kiosk.journal": 3, "kiosk.usb": 3, "kiosk.decks": 3,
    "kiosk.table": 4, "kiosk.diagnostics": 4, "kiosk.backup": 4,
    "kiosk.club": 5,
    "kiosk.ui": 6,
    "kiosk.commands": 7, "kiosk.cli": 8, "kiosk.__main__": 9,
    "organiser": 6,
}
ORGANISER_MAY_IMPORT = {"organiser", "clubwire", "kiosk", "kiosk.game", "kiosk.messages"}
NEVER_IN_THE_ORGANISER = {"kivy", "cv2", "gpiozero", "numpy", "pyzbar", "picamera2", "lgpio"}
# Arrows back up that another change of issue 25 removes; each names the line that goes.
KNOWN_ARROWS_UP: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    found = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


# The house is read on first use, not at import: each xdist worker imports this module to
# collect it, and only the one that runs its tests needs the trees (about a second of CPU).
@cache
def _trees() -> dict[str, ast.Module]:
    return {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in MODULES.items()}  # each read once


def _imported(module: str, path: Path) -> set[str]:
    """Every name ``module`` imports, anywhere in it (a function's import is an arrow too;
    an import only for type checking too)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(_trees()[module]):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                # `from package import module` is an arrow to the module; its package's face
                # runs first in any case, as for every import of a module inside it
                sub = f"{base}.{alias.name}"
                names.add(sub if sub in MODULES else base)
    return names


def _ours(name: str) -> str | None:
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _area(module: str) -> str:
    parts = module.split(".")
    return f"kiosk.{parts[1]}" if parts[0] == "kiosk" and len(parts) > 1 else parts[0]


@cache
def _imports() -> dict[str, set[str]]:
    return {m: _imported(m, p) for m, p in MODULES.items()}


@cache
def _arrows() -> dict[str, set[str]]:
    return {m: {t for t in map(_ours, names) if t and t != m} for m, names in _imports().items()}


def _circles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    arrows = _arrows()

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for t in arrows[m]:
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in on_stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            group = []
            while True:
                t = stack.pop()
                on_stack.discard(t)
                group.append(t)
                if t == m:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for m in MODULES:
        if m not in index:
            visit(m)
    return groups


def test_the_house_is_read():
    assert len(MODULES) > 100 and "kiosk.game.match" in MODULES and "organiser.cli" in MODULES
    assert {_area(m) for m in MODULES} <= set(RANK), {_area(m) for m in MODULES} - set(RANK)
    assert {"kiosk.journal", "kiosk.table.state"} <= _arrows()["kiosk.table.session"]


def test_no_import_circles():
    assert _circles() == []


def test_no_arrow_runs_back_up():
    up = set()
    for source, targets in _arrows().items():
        for target in targets:
            a, b = _area(source), _area(target)
            if a != b and (RANK[a] < RANK[b] or (RANK[a] == RANK[b] and "organiser" not in (a, b))):
                up.add((source, target))
    assert up - KNOWN_ARROWS_UP == set(), sorted(up - KNOWN_ARROWS_UP)
    assert KNOWN_ARROWS_UP <= up, "an arrow listed as known is gone: take it off the list"


def test_the_organiser_stands_beside_the_kiosk():
    assert not (ROOT / "kiosk" / "organiser").exists()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["botifarra-club"] == "organiser.cli:main"
    for module, targets in _arrows().items():
        if _area(module) == "organiser":
            assert {_area(t) for t in targets} <= ORGANISER_MAY_IMPORT, (module, targets)
            assert not {n.split(".")[0] for n in _imports()[module]} & NEVER_IN_THE_ORGANISER, module
        else:
            assert not any(_area(t) == "organiser" for t in targets), module


def test_the_wire_protocol_is_the_standard_library_only():
    for module, names in _imports().items():
        if _area(module) == "clubwire":
            outside = {n.split(".")[0] for n in names} - set(sys.stdlib_module_names) - {"clubwire", ""}
            assert not outside, (module, outside)


def test_vision_and_hardware_never_import_kivy():
    for module, names in _imports().items():
        if _area(module) in ("vision", "hardware"):
            assert not any(n.split(".")[0] == "kivy" for n in names), module


def test_no_product_file_is_longer_than_one_sitting():
    long = {}
    for top in PRODUCT:
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".kv"):
                lines = len(path.read_text(encoding="utf-8").splitlines())
                if lines > MAX_LINES:
                    long[str(path.relative_to(ROOT))] = lines
    assert long == {}


def _cut_in_two(tree: ast.Module) -> list[tuple[str, list[str]]]:
    """The classes of a module built only on classes of their own module that read private
    state (``self._x``) which neither they nor those bases ever set or define: the other
    half of the class is somewhere else (a mixin reading its host's ``_conn``)."""
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}

    def defined(cls: ast.ClassDef) -> set[str]:
        names = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        for node in ast.walk(cls):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for e in ast.walk(target):
                        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                            names.add(e.attr)
                        elif isinstance(e, ast.Name) and node in cls.body:
                            names.add(e.id)
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in classes and base.id != cls.name:
                names |= defined(classes[base.id])
        return names

    cut = []
    for cls in classes.values():
        if any(not (isinstance(b, ast.Name) and (b.id in classes or b.id == "object")) for b in cls.bases):
            continue  # built on a class of another module (Kivy's, the standard library's): not judged here
        private = {e.attr for e in ast.walk(cls) if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
                   and e.value.id == "self" and e.attr.startswith("_") and not e.attr.startswith("__")}
        missing = sorted(private - defined(cls))
        if missing:
            cut.append((cls.name, missing))
    return cut


def test_no_class_is_cut_in_two_files_to_fit():
    """A file split to meet the line count leaves a class in two halves, one reading the
    private state the other sets (``Journal(Reading, Maintenance)`` reading ``_conn``,
    ``TableSession(TournamentClock)``'s ``_commit``, ``KioskApp(TableHardware, App)``'s
    ``_save_failed``: all four found here in the tree before commit 1b64649). A split by
    responsibility gives objects that own their state."""
    cut = {module: found for module, tree in _trees().items() if (found := _cut_in_two(tree))}
    assert cut == {}


def test_no_test_only_writer_in_the_product():
    word = re.compile(r"\bClubRound\b")
    assert [str(p.relative_to(ROOT)) for p in MODULES.values() if word.search(p.read_text(encoding="utf-8"))] == []


def test_one_class_per_name_across_the_seams():
    """The table's state and the wire's report are two things, with two names."""
    defined = defaultdict(list)
    for module, tree in _trees().items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == "TableState":
                defined[node.name].append(module)
    assert defined["TableState"] == ["kiosk.table.state"]
