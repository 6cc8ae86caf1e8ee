"""Tests that read English messages start in English, whatever ran before them.

The translation language is process-wide (``kiosk.ui.i18n``); a UI test that started the
kiosk in Catalan on the same pytest-xdist worker must not change what these tests read.
A folder's conftest imports :func:`english` to make it autouse there.
"""

from __future__ import annotations

import pytest

from kiosk.ui import i18n


@pytest.fixture(autouse=True)
def english():
    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)
