from __future__ import annotations

import pytest


@pytest.fixture
def db(tmp_path):
    return tmp_path / "journal.sqlite"
