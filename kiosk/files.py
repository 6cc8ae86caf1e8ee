"""Files written whole or not at all: the one way the kiosk writes a file a power cut must
not leave half-written (settings, the hand being scored, evidence photos, exports, sounds).

``write_whole(path, data)`` writes to a temporary file in the same folder, flushes and
fsyncs it, then renames it over ``path``; on any error the temporary file is removed and
the error raised, and ``path`` is as it was. ``fsync_dir`` makes the rename itself durable.
Standard library only.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def fsync_dir(directory: Path, *, strict: bool = True) -> None:
    """Make a created or renamed directory entry durable (a power cut must not undo it).
    ``strict=False``: a file system that cannot sync a folder (a FAT stick) is not an error."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        if strict:
            raise
        return
    try:
        os.fsync(fd)
    except OSError:
        if strict:
            raise
    finally:
        os.close(fd)


def write_whole(path: Path, data: bytes | str, *, sync_dir: bool = False) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; creates the folder.
    ``sync_dir``: also make the rename durable before returning."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if sync_dir:
        fsync_dir(path.parent)
    return path
