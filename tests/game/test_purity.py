"""The game core imports nothing outside the standard library (and itself)."""

import ast
import sys
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "kiosk" / "game"


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_game_core_uses_only_the_standard_library():
    files = sorted(GAME.rglob("*.py"))
    assert files, "kiosk/game has no modules"
    offenders = []
    for f in files:
        for name in _imports(f):
            top = name.split(".")[0]
            if name == "kiosk.game" or name.startswith("kiosk.game."):
                continue
            if top not in sys.stdlib_module_names or top in ("sqlite3", "tkinter", "threading", "socket"):
                offenders.append(f"{f.name}: {name}")
    assert offenders == []


def test_the_checker_itself_catches_a_foreign_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import kivy\nfrom kiosk.journal import Journal\nimport json\n")
    names = list(_imports(bad))
    foreign = [n for n in names if n.split(".")[0] not in sys.stdlib_module_names
               and not n.startswith("kiosk.game")]
    assert foreign == ["kivy", "kiosk.journal"]


def test_public_api_is_exported():
    import kiosk.game as game
    for name in ("Card", "Suit", "DECK", "DECK_36", "card_points", "parse_cards", "BotifarraError",
                 "Trump", "Doubling", "Team", "team_of", "other", "Roles", "roles_for", "Rules",
                 "PRESETS", "Match", "score_match_json", "HandRecord", "validate_pile",
                 "pile_points", "trick_winner", "legal_cards"):
        assert name in game.__all__, name
    assert all(hasattr(game, n) for n in game.__all__)
