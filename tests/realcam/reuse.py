"""Photos that differ in a few items only (one enrolment photo a card: the same mat, camera,
light and sensor noise, another card on it), developed again only round those items.

Every step of the chain works on a pixel and its neighbours within a few pixels (the light,
the optics' direct filter, the sensor, demosaic and denoise; the scaler, sharpening and JPEG
run on the whole frame): the base scene (the static items alone) is developed once, whole,
with the sensor's normals kept; a photo is the base's frame with a window round its own items
developed again from its own scene and the same normals. The same pixels as developing it
whole (``shoot`` without ``reuse``), as long as the optics filter directly (``optics_local``)
and the random generator is where the base's was (else it is developed whole).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tests.realcam import camera


KEPT = 2  # base scenes kept (each about 40 MB at the video modes' render size)
_seen: dict[tuple, "Reuse | None"] = {}


def reuse_for(key: tuple) -> "Reuse | None":
    """The :class:`Reuse` for photos made with the same arguments but their items (``key``):
    None the first time (a scene photographed once is developed whole: developing its base
    as well would only cost), then one kept for the next ones (the ``KEPT`` latest)."""
    if key not in _seen:
        _seen[key] = None
        return None
    if _seen[key] is None:
        kept = [k for k, r in _seen.items() if r is not None]
        for k in kept[:max(len(kept) - KEPT + 1, 0)]:
            del _seen[k]
        _seen[key] = Reuse()
    _seen[key] = _seen.pop(key)  # (the latest used last)
    return _seen[key]


class Reuse:
    """One base scene's developed frame, for the photos of ``shoot(..., reuse=)``; pass
    ``canvas`` as shoot's ``cache`` (the static items' canvas)."""

    def __init__(self) -> None:
        self.canvas: dict = {}
        self._key: tuple | None = None
        self._noise: np.ndarray | None = None
        self._after: dict | None = None
        self._isp: np.ndarray | None = None

    def develop(self, cv, items, irr: np.ndarray, glare_up: np.ndarray, glare_full: np.ndarray,
                ex: camera.Exposure, exposure_scale: float, out_size: tuple[int, int], rng: np.random.Generator,
                lamp: np.ndarray) -> tuple[np.ndarray, bytes]:
        """``camera.develop`` of the scene ``cv`` (the base's canvas with ``items`` pasted on)."""
        reach = camera.optics_local(ex)
        state = rng.bit_generator.state
        box = _footprint(cv, items)
        if reach is None or len(self.canvas) != 1 or box is None:
            linear = camera.blur_optics(camera.linear_light(cv.albedo, irr, glare_full, exposure_scale), ex)
            return camera.develop(linear, ex, out_size, rng, lamp=lamp)
        key = (repr(state), ex, exposure_scale, out_size, tuple(lamp.tolist()), cv.size)
        h, w = cv.label.shape
        if key != self._key:
            base = next(iter(self.canvas.values()))
            drawn = np.random.default_rng()
            drawn.bit_generator.state = state
            self._noise = camera.normals(drawn, (h, w))
            self._after = drawn.bit_generator.state
            glare0 = cv2.multiply(glare_up, base.gloss, scale=0.01, dtype=cv2.CV_32F)
            linear = camera.blur_optics(camera.linear_light(base.albedo, irr, glare0, exposure_scale), ex)
            self._isp = camera.isp(camera.sense(linear, ex, None, lamp=lamp, noise=self._noise), ex, lamp=lamp)
            self._key = key
        # what the items changed reaches ``margin`` px past them; a window as much wider
        # again gives those pixels their whole neighbourhood
        margin = reach + camera.ISP_REACH
        x0, y0, x1, y1 = box
        ix0, iy0, ix1, iy1 = max(x0 - margin, 0), max(y0 - margin, 0), min(x1 + margin, w), min(y1 + margin, h)
        wx0, wy0 = max(ix0 - margin, 0) & ~1, max(iy0 - margin, 0) & ~1  # (even: the Bayer mosaic's phase)
        wx1, wy1 = min(ix1 + margin, w), min(iy1 + margin, h)
        if ix1 <= ix0 or iy1 <= iy0:  # (the items out of the frame)
            rng.bit_generator.state = self._after
            return camera.deliver(self._isp.copy(), ex, out_size)
        win = (slice(wy0, wy1), slice(wx0, wx1))
        linear = camera.blur_optics(camera.linear_light(cv.albedo[win], irr[win], glare_full[win], exposure_scale), ex)
        part = camera.isp(camera.sense(linear, ex, None, lamp=lamp, noise=self._noise[win]), ex, lamp=lamp)
        out = self._isp.copy()
        out[iy0:iy1, ix0:ix1] = part[iy0 - wy0:iy1 - wy0, ix0 - wx0:ix1 - wx0]
        rng.bit_generator.state = self._after  # (drawn as developing it whole would)
        return camera.deliver(out, ex, out_size)


def _footprint(cv, items) -> tuple[int, int, int, int] | None:
    """The pixels ``Canvas.paste`` may change for ``items``: x0, y0, x1, y1 (None: no items)."""
    box = None
    for it in items:
        th, tw = it.texture.shape[:2]
        hm = cv.hm @ it.place @ np.diag([1 / it.ppm, 1 / it.ppm, 1.0])
        pts = cv2.perspectiveTransform(np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), hm)[0]
        x0, y0 = (math.floor(v) - 2 for v in pts.min(0))
        x1, y1 = (math.ceil(v) + 2 for v in pts.max(0))
        box = (x0, y0, x1, y1) if box is None else (min(box[0], x0), min(box[1], y0), max(box[2], x1),
                                                     max(box[3], y1))
    return box
