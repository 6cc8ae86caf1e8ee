"""Real faulty places for the journal: a full disk, a read-only directory, a read-only file.

As root (CI) these are real: a small tmpfs filled up, a tmpfs remounted read-only, a file
made immutable with ``chattr +i`` (root ignores permission bits, not these). Where mounting
is not possible (not root) the fallbacks are SQLite's ``max_page_count`` (full) and
permission bits; every test id says which one ran (``tmpfs``/``remount_ro``/``chattr`` or
``max_page_count``/``chmod``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import uuid
from pathlib import Path


def _run(*cmd: str) -> bool:
    return subprocess.run(cmd, capture_output=True).returncode == 0


@functools.lru_cache(maxsize=None)
def can_mount() -> bool:
    """Can this process mount a tmpfs (root with CAP_SYS_ADMIN)?"""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    probe = Path("/tmp") / f"botifarra-mount-probe-{uuid.uuid4().hex}"
    probe.mkdir()
    try:
        if not _run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)):
            return False
        _run("umount", str(probe))
        return True
    finally:
        probe.rmdir()


FULL_MODE = "tmpfs" if can_mount() else "max_page_count"
READ_ONLY_DIR_MODE = "remount_ro" if can_mount() else ("chmod" if os.geteuid() else "none")
READ_ONLY_FILE_MODE = "chattr" if can_mount() else ("chmod" if os.geteuid() else "none")


@contextlib.contextmanager
def small_disk(where: Path, size_kb: int = 512):
    """A tmpfs of ``size_kb`` KiB mounted at ``where`` (unmounted afterwards)."""
    where.mkdir(parents=True, exist_ok=True)
    assert _run("mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where))
    try:
        yield where
    finally:
        for f in where.rglob("*"):
            _run("chattr", "-i", str(f))
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(directory: Path) -> Path:
    """Write a filler file until the disk is full; returns it (delete it to free space)."""
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == 28, exc  # ENOSPC: the disk is really full
    with contextlib.suppress(OSError):  # the last bytes: no room left even for a page
        with open(filler, "ab", buffering=0) as f:
            while True:
                f.write(b"\0" * 512)
    return filler


def set_read_only(directory: Path, read_only: bool) -> None:
    """Remount the tmpfs at ``directory`` read-only (or back to read-write)."""
    if READ_ONLY_DIR_MODE == "remount_ro":
        assert _run("mount", "-o", f"remount,{'ro' if read_only else 'rw'}", str(directory))
    else:
        directory.chmod(0o555 if read_only else 0o755)


def set_immutable(path: Path, immutable: bool) -> None:
    """``chattr +i`` (or ``-i``) on ``path``; permission bits where chattr is not possible."""
    if READ_ONLY_FILE_MODE == "chattr":
        assert _run("chattr", "+i" if immutable else "-i", str(path))
    else:
        path.chmod(0o444 if immutable else 0o644)
