from __future__ import annotations

import pytest

import kiosk.game


@pytest.fixture(autouse=True)
def _core_match(monkeypatch):
    if not hasattr(kiosk.game, "Match"):  # TEMPORARY until the core branch lands
        from tests.journal import _stand_in
        monkeypatch.setattr(kiosk.game, "Match", _stand_in.Match, raising=False)
    yield


@pytest.fixture
def db(tmp_path):
    return tmp_path / "journal.sqlite"
