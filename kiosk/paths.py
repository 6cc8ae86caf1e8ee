"""Where the kiosk keeps its files (XDG base directories; overridable by environment)."""

from __future__ import annotations

import os
from pathlib import Path

from kiosk import APP_NAME


def _xdg(var: str, fallback: str) -> Path:
    base = os.environ.get(var)
    return Path(base) if base else Path.home() / fallback


def data_dir() -> Path:
    """Journal, evidence photos, backups: ``$BOTIFARRA_DATA_DIR`` or ``~/.local/share/botifarra-kiosk``."""
    env = os.environ.get("BOTIFARRA_DATA_DIR")
    return Path(env) if env else _xdg("XDG_DATA_HOME", ".local/share") / APP_NAME


def config_dir() -> Path:
    env = os.environ.get("BOTIFARRA_CONFIG_DIR")
    return Path(env) if env else _xdg("XDG_CONFIG_HOME", ".config") / APP_NAME


def cache_dir() -> Path:
    """Files the kiosk can draw again (the demo camera's photos): ``$BOTIFARRA_CACHE_DIR``
    or ``~/.cache/botifarra-kiosk``."""
    env = os.environ.get("BOTIFARRA_CACHE_DIR")
    return Path(env) if env else _xdg("XDG_CACHE_HOME", ".cache") / APP_NAME


def default_db() -> Path:
    return data_dir() / "journal.sqlite"


def decks_dir() -> Path:
    """Ordinary decks learnt for the camera (``NAME.npz``)."""
    return data_dir() / "decks"


def evidence_dir() -> Path:
    return data_dir() / "evidence"


def log_dir() -> Path:
    return data_dir() / "logs"
