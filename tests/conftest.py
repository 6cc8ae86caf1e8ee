"""Every test run keeps the kiosk's redrawable files (the demo camera's loop) in its own
temporary folder, never in the home directory of whoever runs the tests."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def kiosk_cache_dir(tmp_path_factory):
    before = os.environ.get("BOTIFARRA_CACHE_DIR")
    os.environ["BOTIFARRA_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop("BOTIFARRA_CACHE_DIR", None)
    else:
        os.environ["BOTIFARRA_CACHE_DIR"] = before
