"""The Pi camera's darker frame (glare) against a stand-in for the libcamera sensor, which
applies new controls a few frames late as the real one does: the frame handed back must be
one that really has the darker exposure, and the automatic exposure must be back after.
(The real Picamera2 only exists on a Pi; this stand-in is a package on ``sys.path``, never
a change to the product code.)"""

from __future__ import annotations

import sys

import numpy as np

SENSOR = '''
import numpy as np

LATENCY = 3  # frames before new controls reach the sensor


class Picamera2:
    instances = []

    def __init__(self):
        self.exposure, self.gain, self.ae = 20000, 2.0, True
        self.queue = []  # (frames left, controls)
        self.calls = []
        Picamera2.instances.append(self)

    def create_video_configuration(self, main, lores):
        return {"main": main, "lores": lores}

    def create_still_configuration(self, main):
        return {"main": main}

    def configure(self, config):
        self.size = config["main"]["size"]
        self.lores = config["lores"]["size"]

    def start(self):
        pass

    def stop(self):
        pass

    def close(self):
        pass

    def set_controls(self, controls):
        self.calls.append(dict(controls))
        self.queue.append([LATENCY, dict(controls)])

    def _tick(self):
        for item in self.queue:
            item[0] -= 1
        for left, controls in [q for q in self.queue if q[0] <= 0]:
            self.ae = controls.get("AeEnable", self.ae)
            self.exposure = controls.get("ExposureTime", 20000 if self.ae else self.exposure)
        self.queue = [q for q in self.queue if q[0] > 0]

    def capture_metadata(self):
        return {"ExposureTime": self.exposure, "AnalogueGain": self.gain}

    def capture_arrays(self, names):
        self._tick()
        w, h = self.size
        level = min(255, self.exposure // 100)  # brightness follows the exposure
        main = np.full((h, w, 3), level, np.uint8)
        lores = np.full((h * 3 // 2, self.lores[0]), level, np.uint8)
        return [main, lores], self.capture_metadata()
'''


def test_the_darker_frame_waits_for_the_new_exposure_and_gives_automatic_back(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg" / "picamera2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(SENSOR)
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    from vision.sources.picamera2 import Picamera2Source

    with Picamera2Source(main=(320, 180), lores=(160, 90), on_pi=False) as src:
        first = src.latest(5)
        assert first is not None and int(first.image[0, 0, 0]) == 200
        dark = src.capture_darker(0.4)
        # the frames still at the old exposure (the sensor's latency) were skipped
        assert int(dark.image[0, 0, 0]) == 80 and dark.gray is not None and not dark.still
        cam = sys.modules["picamera2"].Picamera2.instances[-1]
        assert cam.calls[0] == {"AeEnable": False, "AnalogueGain": 2.0, "ExposureTime": 8000}
        assert cam.calls[-1] == {"AeEnable": True}
        later = first
        for _ in range(6):  # automatic again: the video comes back to its own brightness
            later = src.latest(5, after=later.number)
        assert int(later.image[0, 0, 0]) == 200
        assert np.all(later.gray == 200)
