"""The demo camera's loop: drawn once by a child process, kept on disk, read by later starts."""

from __future__ import annotations

import subprocess
import threading

import cv2
import numpy as np

from vision import demo
from vision.scene import make_scene
from vision.sources import RUNNING, DemoSource

LOOP = dict(cards=6, seed=2, steps=3)


def test_child_draws_the_loop_once_and_later_starts_read_it(tmp_path, monkeypatch):
    folder = demo.ensure_loop(tmp_path, **LOOP)
    assert folder == demo.loop_dir(tmp_path, **LOOP) and demo.is_complete(folder, 3)
    # the files are exactly the photos make_scene draws for the loop (the same JPEG bytes)
    for i in range(3):
        scene = make_scene(2, **demo.scene_args(i, cards=6, steps=3))
        assert demo.frame_path(folder, i).read_bytes() == scene.jpeg
    assert not list(folder.glob("*.tmp"))

    def no_child(*args, **kwargs):
        raise AssertionError("a complete loop must not be drawn again")
    monkeypatch.setattr(subprocess, "Popen", no_child)
    assert demo.ensure_loop(tmp_path, **LOOP) == folder


def test_an_interrupted_loop_is_finished_not_redrawn(tmp_path):
    folder = demo.loop_dir(tmp_path, **LOOP)
    folder.mkdir(parents=True)
    demo.frame_path(folder, 0).write_bytes(b"drawn before the power cut")
    (folder / "frame-01.jpg.tmp").write_bytes(b"half a file")
    assert not demo.is_complete(folder, 3)
    assert demo.ensure_loop(tmp_path, **LOOP) == folder
    assert demo.frame_path(folder, 0).read_bytes() == b"drawn before the power cut"
    assert cv2.imdecode(np.frombuffer(demo.frame_path(folder, 1).read_bytes(), np.uint8), cv2.IMREAD_COLOR) is not None


def test_stop_ends_the_child_and_nothing_is_marked_complete(tmp_path):
    stop = threading.Event()
    stop.set()
    assert demo.ensure_loop(tmp_path, **LOOP, stop=stop) is None
    assert not (demo.loop_dir(tmp_path, **LOOP) / demo.DONE).exists()


def test_demo_source_reads_the_cached_loop(tmp_path):
    src = DemoSource(**LOOP, fps=0, cache_dir=tmp_path)
    with src:
        frames = [src.latest(60)]
        for _ in range(3):
            frames.append(src.latest(10, after=frames[-1].number))
        assert src.status == RUNNING
    folder = demo.loop_dir(tmp_path, **LOOP)
    assert demo.is_complete(folder, 3)
    # (frame n is the loop's step (n - 1) % 3; a loaded machine may skip frames between two reads)
    cached = [cv2.imdecode(np.frombuffer(demo.frame_path(folder, i).read_bytes(), np.uint8), cv2.IMREAD_COLOR)
              for i in range(3)]
    assert all(np.array_equal(f.image, cached[(f.number - 1) % 3]) for f in frames), [f.number for f in frames]
    assert not np.array_equal(cached[0], cached[1]) and not np.array_equal(cached[1], cached[2])  # the pile moves


def test_a_cache_that_cannot_be_written_falls_back_to_drawing_here(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    with DemoSource(**LOOP, fps=0, cache_dir=blocked) as src:
        frame = src.latest(60)
        assert frame is not None and frame.image.shape == (1080, 1920, 3)
        assert src.status == RUNNING


def test_main_reports_an_unwritable_folder(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    assert demo.main([str(blocked / "loop"), "--steps", "1", "--cards", "2"]) == 1
    assert "cannot write" in capsys.readouterr().err
