"""A fast camera chain at the delivered resolution: the lamp's light and its reflection, the
sensor's noise at the analogue gain, the ISP, JPEG.

The full chain (``tests.realcam.camera.develop``: 2304x1296 Bayer mosaic) costs about 0.4 s a
frame; dealing sequences need hundreds of frames, so this one works on the delivered pixels:

1. scene albedo (sRGB -> linear) x the lamp's irradiance (fall-off, lens shading, hand shadows,
   coarse grid scaled up) x the cards' shadows (full resolution), + the lamp's reflection x
   each surface's gloss;
2. lens defocus (Gaussian);
3. exposure: the automatic level x this frame's exposure and gain jitter (mains flicker, the
   camera's own control) x rolling-shutter flicker bands;
4. photons -> electrons at the gain: a white card in full light gives ``WHITE_E / gain``
   electrons per delivered pixel (fewer than the sensor's binned pixels hold: harsher than the
   real module), shot noise + read noise, independent per channel (Bayer colour noise), half
   of it in blotches of a few pixels (demosaic, scaler and denoise leave it so);
5. 12-bit clip (a reflection brighter than the clip level is flat white), white balance
   (partial: a bar keeps a warm cast), sRGB gamma;
6. the ISP's denoise (chroma hard, luma a little), unsharp mask, JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tests.realcam import camera
from tests.realcam import light as lightmod

WHITE_E = 4000.0  # electrons of a white card in full light at gain 1, per delivered pixel
BLOTCH_SHARE, BLOTCH_PX = 0.5, 1.3  # the noise's variance in blotches, their size (Gaussian sigma, px)
GRID = lightmod.GRID


@dataclass(frozen=True)
class Chain:
    """One sequence's camera settings (each frame adds its jitter)."""

    gain: float  # analogue gain (1 = base ISO)
    level: float  # auto exposure: a white card in full light at this share of the clip level
    defocus_px: float  # Gaussian sigma, delivered pixels
    sharpen: float
    jpeg_quality: int
    warmth: float  # 0 daylight, 1 tungsten
    awb: float  # share of the warm cast the white balance removes
    shutter_s: float  # exposure time (motion blur of what moves)


def draw_chain(rng: np.random.Generator, gain: float) -> Chain:
    return Chain(float(gain), float(rng.uniform(0.62, 0.85)), float(rng.uniform(0.4, 1.1)),
                 float(rng.uniform(0.3, 1.0)), int(rng.integers(70, 91)), float(rng.uniform(0.5, 1.0)),
                 float(rng.uniform(0.5, 0.85)), float(rng.uniform(0.01, 0.04)))


@dataclass(frozen=True)
class Glare:
    """The lamp's mirror image on the table at one moment: centre (table mm), spread, peak
    (linear, 1 = a white card in full light; times each surface's gloss)."""

    x_mm: float
    y_mm: float
    sigma_mm: float
    peak: float


class Light:
    """The lamp over one sequence's table, seen by one camera pose: the static irradiance
    (coarse grid) and each coarse cell's table point, to place a moving reflection fast."""

    def __init__(self, lighting: lightmod.Lighting, pose: camera.Pose, size: tuple[int, int]) -> None:
        import dataclasses

        self.lighting = dataclasses.replace(lighting, glare_peak=0.0)
        self.pose, self.size = pose, size
        self.irr, _ = lightmod.light_maps(self.lighting, pose, size)
        gh, gw = self.irr.shape
        ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
        hm = pose.table_to_image(size)
        mm = cv2.perspectiveTransform(np.stack([xs * GRID, ys * GRID], -1).reshape(1, -1, 2), np.linalg.inv(hm))[0]
        self.mm = mm.reshape(gh, gw, 2)

    def maps(self, glare: Glare | None, shadows: tuple[np.ndarray, ...] = ()) -> tuple[np.ndarray, np.ndarray | None]:
        """(irradiance, reflection) at full resolution; ``shadows``: hands' polygons (table mm)."""
        import dataclasses

        irr = self.irr
        if shadows:
            lit = dataclasses.replace(self.lighting, shadows=shadows)
            irr, _ = lightmod.light_maps(lit, self.pose, self.size)
        w, h = self.size
        big = (w + GRID * 2, h + GRID * 2)
        irr_full = cv2.resize(irr, big, interpolation=cv2.INTER_LINEAR)[:h, :w]
        if glare is None or glare.peak <= 0:
            return irr_full, None
        d2 = (self.mm[..., 0] - glare.x_mm) ** 2 + (self.mm[..., 1] - glare.y_mm) ** 2
        g = (glare.peak * np.exp(-d2 / (2 * glare.sigma_mm ** 2))).astype(np.float32)
        return irr_full, cv2.resize(g, big, interpolation=cv2.INTER_LINEAR)[:h, :w]


class NoiseField:
    """Standard normal noise for many frames of one size, drawn once: each frame takes a window
    at a random offset, maybe mirrored and negated (drawing 2.8 M normals per 720p frame costs
    more than the rest of the chain). Two frames' windows differ, so their noise is
    independent pixel for pixel."""

    PAD = 48

    def __init__(self, shape: tuple[int, int, int], rng: np.random.Generator) -> None:
        h, w, c = shape
        self.shape = shape
        white = rng.standard_normal((h + self.PAD, w + self.PAD, c), dtype=np.float32)
        # demosaicing and the ISP's scaler and denoise leave the noise in blotches of a few
        # pixels, which survive a reader's own blurring: part of it is smoothed noise
        blotch = cv2.GaussianBlur(rng.standard_normal(white.shape, dtype=np.float32), (0, 0), BLOTCH_PX)
        blotch *= np.float32(1 / blotch.std())
        self.field = white * np.float32(math.sqrt(1 - BLOTCH_SHARE)) + blotch * np.float32(math.sqrt(BLOTCH_SHARE))

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        h, w, _ = self.shape
        f = self.field
        if rng.random() < 0.5:
            f = f[::-1]
        if rng.random() < 0.5:
            f = f[:, ::-1]
        y, x = rng.integers(0, self.PAD + 1, 2)
        out = f[y:y + h, x:x + w]
        return -out if rng.random() < 0.5 else out


def _gamma() -> np.ndarray:
    """Each 12-bit level's delivered grey: level / 4095 to the power 1 / 2.4, 8 bits (saturated)."""
    e = np.arange(4096, dtype=np.float32) * np.float32(1 / 4095)
    p = cv2.pow(e, 1 / 2.4)
    return cv2.addWeighted(p, 1.055 * 255, p, 0.0, -0.055 * 255, dtype=cv2.CV_8U).ravel()


_GAMMA = _gamma()


def expose(albedo: np.ndarray, gloss: np.ndarray, shade: np.ndarray | None, irr: np.ndarray,
           glare: np.ndarray | None, chain: Chain, rng: np.random.Generator, *, brightness: float = 1.0,
           gain: float | None = None, banding: float = 0.0,
           noise: NoiseField | None = None) -> tuple[np.ndarray, bytes]:
    """The delivered frame (BGR uint8 after JPEG, and its bytes) of a scene: ``albedo`` (sRGB
    BGR uint8), ``gloss`` (x100, uint8), ``shade`` (the cards' shadows, float32 0-1, or None),
    ``irr``/``glare`` from :meth:`Light.maps`. ``brightness``: this frame's exposure against
    the automatic one (jitter; a darker frame 0.4); ``gain``: this frame's gain (jitter);
    ``banding``: amplitude of the rolling-shutter flicker bands."""
    light = irr if shade is None else irr * shade
    # (the light as three equal channels: the same float32 products and sums as numpy's
    # pixel by pixel broadcast, a few times faster)
    linear = cv2.LUT(albedo, camera.LINEAR_LUT)
    cv2.multiply(linear, cv2.merge([light] * 3), dst=linear)
    if glare is not None:
        cv2.add(linear, cv2.merge([cv2.multiply(glare, gloss, scale=0.01, dtype=cv2.CV_32F)] * 3), dst=linear)
    if chain.defocus_px > 0.3:
        linear = cv2.GaussianBlur(linear, (0, 0), chain.defocus_px)
    return develop(linear, chain, rng, brightness=brightness, gain=gain, banding=banding, noise=noise)


def develop(linear: np.ndarray, chain: Chain, rng: np.random.Generator, *, brightness: float = 1.0,
            gain: float | None = None, banding: float = 0.0,
            noise: NoiseField | None = None) -> tuple[np.ndarray, bytes]:
    """Sensor and ISP on a linear BGR float32 scene under white light (1 = a white card in full
    light): see the module's doc. Works on ``linear`` in place. ``noise``: the sensor's
    normals come from this field (else drawn afresh)."""
    h, w = linear.shape[:2]
    g = chain.gain if gain is None else gain
    lamp = camera.lamp_colour(chain.warmth)
    level = chain.level * brightness
    if banding > 0:  # rows read out while the mains-driven lamp dims and brightens (100 Hz)
        rows = 1 + banding * np.sin(2 * math.pi * (np.arange(h, dtype=np.float32) / (h / rng.uniform(1.5, 2.5))
                                                    + rng.uniform(0, 1)))
        linear *= rows.astype(np.float32)[:, None, None]
    e_white = WHITE_E / g
    read_e = 2.5 + 6.0 / g
    # raw electrons per channel (the lamp's colour on the sensor), shot + read noise
    # (each channel's gain repeated along rows of w * 3: numpy's products, without its slow
    # loop over 3 values at a time)
    e = (linear.reshape(h, w * 3) * np.tile(lamp * np.float32(e_white * level), w)).reshape(h, w, 3)
    sd = np.maximum(e, 0.0)
    sd += np.float32(read_e * read_e)
    cv2.sqrt(sd, dst=sd)
    normal = noise.draw(rng) if noise is not None else rng.standard_normal(e.shape, dtype=np.float32)
    e += cv2.multiply(normal, sd)
    # back to the clip-relative level, white balance (partial), 12 bits, gamma
    wb = ((1.0 / lamp) * chain.awb + (1 - chain.awb)) / np.float32(e_white)
    flat = e.reshape(h, w * 3)
    flat *= np.tile(wb.astype(np.float32), w)
    # 12 bits then the sRGB curve (its linear toe is under one grey level: the power law alone),
    # a table over the 4096 levels
    np.clip(e, 0.0, 1.0, out=e)
    e *= 4095
    out = _GAMMA[e.astype(np.uint16)]  # (the cast truncates: the floor of a level)
    # the ISP's denoise: colour noise smoothed hard, luma a little; sharpening; JPEG
    ycc = cv2.cvtColor(out, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = cv2.split(ycc)
    y = cv2.GaussianBlur(y, (0, 0), 0.3 + 0.03 * g)
    out = cv2.cvtColor(cv2.merge([y, cv2.GaussianBlur(cr, (0, 0), 1.5), cv2.GaussianBlur(cb, (0, 0), 1.5)]),
                       cv2.COLOR_YCrCb2BGR)
    if chain.sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + chain.sharpen, soft, -chain.sharpen, 0)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, chain.jpeg_quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), enc.tobytes()
