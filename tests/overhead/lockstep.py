"""A rendered overhead sequence played back in lockstep: each frame waits until the reader
took the one before (a camera delivers 10 frames a second whatever the machine's load; a
busy test machine must not make the reader skip frames the kiosk's own camera would give
it). The frames' pace is otherwise the camera's."""

from __future__ import annotations

from vision.sources import FileSource


class LockstepSource(FileSource):
    """:class:`vision.sources.FileSource` over a folder of frames, once through, never
    replacing a frame the reader has not taken yet."""

    def __init__(self, folder, *, fps: float = 10.0) -> None:
        super().__init__(folder, loop=False, fps=fps)
        self._taken = 0

    def latest(self, timeout=None, *, after: int = 0):
        frame = super().latest(timeout, after=after)
        if frame is not None:
            with self._cond:
                self._taken = max(self._taken, frame.number)
                self._cond.notify_all()
        return frame

    def _grab(self):
        with self._cond:
            while self._taken < self._number and not self._stop.is_set():
                self._cond.wait(0.2)
        return super()._grab()
