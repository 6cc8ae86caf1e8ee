"""Generated frames of a pile slid under the camera: ships with the project, needs no files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import BadFrameError
from vision.sources.base import FrameSource, release_freed_memory


class DemoSource(FrameSource):
    """A pile of marked cards slid under the camera, generated (vision.scene): no camera
    and no files needed. ``steps`` frames take the pile from off-screen to the middle of
    the mat; the loop then starts again. Frames are kept as their JPEG bytes (about 0.4 MB
    each instead of 6 MB of raw BGR); each grab decodes one.

    ``cache_dir``: where the loop is kept on disk (see :mod:`vision.demo`): the first start
    draws it there in a child process, later starts only read it, so this process never
    carries the drawing's memory. Without it (or when the child fails) the frames are drawn
    here, one per grab on the first loop."""

    name = "demo"

    def __init__(self, *, cards: int = 16, seed: int = 4, steps: int = 10, fps: float = 5,
                 cache_dir: str | Path | None = None, on_status=None):
        super().__init__(on_status=on_status)
        self.cards, self.seed, self.steps = cards, seed, steps
        self.interval = 1.0 / fps if fps else 0.0
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self._cache: dict[int, np.ndarray] = {}  # step -> the frame's JPEG bytes (1-D uint8)
        self._i = 0

    def _open(self) -> None:
        if self.cache_dir is None or len(self._cache) == self.steps:
            return
        from vision.demo import ensure_loop, frame_path

        folder = ensure_loop(self.cache_dir, cards=self.cards, seed=self.seed, steps=self.steps,
                             stop=self._stop)
        if folder is None:
            return  # drawn here instead, by _grab
        try:
            for i in range(self.steps):
                self._cache[i] = np.frombuffer(frame_path(folder, i).read_bytes(), np.uint8)
        except OSError:
            self._cache.clear()

    def _grab(self):
        i = self._i % self.steps
        self._i += 1
        if i not in self._cache:
            from vision.demo import scene_args
            from vision.scene import clear_caches, make_scene

            scene = make_scene(self.seed, **scene_args(i, cards=self.cards, steps=self.steps))
            self._cache[i] = np.frombuffer(scene.jpeg, np.uint8)
            del scene
            if len(self._cache) == self.steps:  # the loop is complete: the textures are not needed
                clear_caches()
            release_freed_memory()  # the drawing's full-frame temporaries
        img = cv2.imdecode(self._cache[i], cv2.IMREAD_COLOR)  # the same pixels as scene.image
        if img is None:
            raise BadFrameError("demo frame could not be decoded")
        return img
