"""The demo camera's loop of photos, drawn once by a child process and kept on disk.

Drawing a 1920x1080 table photo (``vision.scene``) needs about 90 MB of temporaries and
leaves the allocator's arenas fragmented; a kiosk that did it in its own process would
carry that for the rest of the day. So the kiosk asks :func:`ensure_loop` for the loop: the
first time, ``python -m vision.demo DIR`` draws the photos in a short-lived child process
and writes them as JPEG files (each one whole or not at all); later starts read the files.
The kiosk itself only decodes one JPEG per frame.

Run by hand::

    python -m vision.demo ~/.cache/botifarra-kiosk/demo-loop   # writes the loop there
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)

LOOP_VERSION = 1  # bump when the drawing changes: a new folder, the old one is left alone
DONE = "complete"  # written last: the folder holds the whole loop


def scene_args(i: int, *, cards: int, steps: int) -> dict:
    """``make_scene`` keyword arguments for step ``i`` of the loop: the pile slides in from
    the left edge to the middle of the mat."""
    x = -720.0 + 720.0 * i / max(steps - 1, 1)
    return dict(cards=cards, mat="A3", px_per_mm=2.4, rotation=2.0, perspective=0.04, blur=0.5,
                motion=0.6, glare=0.4, noise=3, jpeg_quality=88, offset_mm=(0.0, 0.0),
                pile_offset_mm=(x, 0.0))


def loop_dir(cache_root: Path, *, cards: int, seed: int, steps: int) -> Path:
    """The folder of one loop under ``cache_root`` (named by what it shows)."""
    key = hashlib.sha1(f"{LOOP_VERSION}:{cards}:{seed}:{steps}".encode()).hexdigest()[:10]
    return Path(cache_root) / f"demo-loop-{key}"


def frame_path(folder: Path, i: int) -> Path:
    return Path(folder) / f"frame-{i:02d}.jpg"


def is_complete(folder: Path, steps: int) -> bool:
    folder = Path(folder)
    return (folder / DONE).exists() and all(frame_path(folder, i).exists() for i in range(steps))


def write_loop(folder: Path, *, cards: int, seed: int, steps: int) -> Path:
    """Draw the loop into ``folder`` (in this process). Each file is written to a temporary
    name and renamed, and ``complete`` is written last, so a power cut leaves whole frames
    only; a later run draws just the frames that are missing."""
    from vision.scene import make_scene

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(steps):
        if frame_path(folder, i).exists():  # drawn by an earlier, interrupted run
            continue
        scene = make_scene(seed, **scene_args(i, cards=cards, steps=steps))
        _write_whole(frame_path(folder, i), scene.jpeg)
        del scene
    _write_whole(folder / DONE, f"{cards} {seed} {steps}\n".encode())
    return folder


def _write_whole(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def ensure_loop(cache_root: Path, *, cards: int, seed: int, steps: int, timeout: float = 300.0,
                stop: threading.Event | None = None) -> Path | None:
    """The folder holding the whole loop, drawing it first in a child process if needed.

    Returns None when it could not be drawn there (no room on the disk, the child failed or
    took longer than ``timeout`` seconds) or ``stop`` was set meanwhile (the child is then
    ended; the frames it finished are kept for next time)."""
    folder = loop_dir(cache_root, cards=cards, seed=seed, steps=steps)
    if is_complete(folder, steps):
        return folder
    cmd = [sys.executable, "-m", "vision.demo", str(folder), "--cards", str(cards), "--seed", str(seed),
           "--steps", str(steps)]
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[1])  # this checkout, first (not an older install)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        errors = tempfile.TemporaryFile("w+")  # a file, not a pipe: the child never blocks on it
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    except OSError as exc:
        log.warning("the demo loop could not be drawn in a child process: %s", exc)
        return None
    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        if (stop is not None and stop.is_set()) or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            errors.close()
            if stop is None or not stop.is_set():
                log.warning("the demo loop took longer than %.0f s to draw", timeout)
            return None
        if stop is not None:
            stop.wait(0.1)
        else:
            time.sleep(0.1)
    errors.seek(0)
    err = errors.read()
    errors.close()
    if proc.returncode != 0 or not is_complete(folder, steps):
        log.warning("the demo loop could not be drawn in a child process (exit %s): %s",
                    proc.returncode, err.strip()[-500:])
        return None
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.demo",
                                     description="Draw the demo camera's loop of photos into a folder.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--cards", type=int, default=16)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args(argv)
    try:
        write_loop(args.folder, cards=args.cards, seed=args.seed, steps=args.steps)
    except OSError as exc:
        print(f"python -m vision.demo: cannot write {args.folder}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
