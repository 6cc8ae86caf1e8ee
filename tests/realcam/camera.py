"""A Raspberry Pi Camera Module 3 above a bar table, modelled step by step.

Geometry: a pinhole with the module's 66 degree horizontal field of view over its 4608x2592
sensor. Video modes read the sensor 2x2-binned (2304x1296) and the ISP scales that to
1920x1080 or 1280x720; a still is the whole sensor. The camera hangs ``height_mm`` above
the table, tilted ``tilt_deg`` and turned ``yaw_deg``; the table plane maps to the image by
one homography (``Pose.table_to_image``).

Light and sensor, in this order (``develop``): scene reflectance (sRGB albedo -> linear) x
warm lamp light with fall-off (lamp gradient, lens vignette) x hand shadows, + specular
glare on glossy objects; lens defocus (disk PSF) and motion blur; the Bayer mosaic
(RGGB, demosaiced with OpenCV's ``COLOR_BayerBG2BGR``); shot noise and read noise at the
analogue gain; demosaic; white balance and gamma; ISP denoise (chroma hard, luma with
the gain); ISP scaling (video); unsharp-mask sharpening (its halos); JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SENSOR = (4608, 2592)
HFOV_DEG = 66.0
FX_SENSOR = (SENSOR[0] / 2) / math.tan(math.radians(HFOV_DEG / 2))  # ~3548 px
# mode -> (size the optics and Bayer mosaic are rendered at, size delivered)
MODES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "720p": ((2304, 1296), (1280, 720)),
    "1080p": ((2304, 1296), (1920, 1080)),
    "still": (SENSOR, SENSOR),
}
BAND = 256  # rows per band for the float passes: small temporaries on a 12 MP frame


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown camera mode {mode!r}: use one of {tuple(MODES)}")
    return mode


@dataclass(frozen=True)
class Pose:
    """Where the camera is: height above the table, tilt, turn, and the table point at the
    image centre (mm, table coordinates: x right, y down the mat)."""

    height_mm: float
    tilt_deg: float
    tilt_dir_deg: float
    yaw_deg: float
    target_mm: tuple[float, float]

    def table_to_image(self, size: tuple[int, int]) -> np.ndarray:
        """3x3 homography from table mm to pixels of an image ``size`` (w, h) of this camera."""
        w, h = size
        f = FX_SENSOR * w / SENSOR[0]
        k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        # world: x right, y down the table, z into the table; camera looks along +z
        t = math.radians(self.tilt_deg)
        d = math.radians(self.tilt_dir_deg)
        axis = np.array([math.cos(d), math.sin(d), 0.0])
        r_tilt = cv2.Rodrigues(axis * t)[0]
        r_yaw = cv2.Rodrigues(np.array([0, 0, math.radians(self.yaw_deg)]))[0]
        r = r_tilt @ r_yaw  # camera -> world
        forward = r[:, 2]
        centre = np.array([*self.target_mm, 0.0]) - forward * (self.height_mm / forward[2])
        rt = r.T
        tvec = -rt @ centre
        return k @ np.column_stack([rt[:, 0], rt[:, 1], tvec])

    def px_per_mm(self, size: tuple[int, int]) -> float:
        """Scale at the image centre."""
        hm = self.table_to_image(size)
        inv = np.linalg.inv(hm)
        c = cv2.perspectiveTransform(np.float32([[[size[0] / 2, size[1] / 2]]]), inv)[0, 0]
        p = cv2.perspectiveTransform(np.float32([[c, c + (10, 0), c + (0, 10)]]), hm)[0]
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20)


@dataclass(frozen=True)
class Exposure:
    """The camera chain's settings for one frame (all drawn from the seed by ``render``)."""

    defocus_px: float  # disk PSF radius, in render pixels
    motion_px: float  # motion blur length, render pixels
    motion_deg: float
    gain: float  # analogue gain: 1 = base ISO; the noise grows with it
    warmth: float  # 0 = daylight, 1 = tungsten 2700 K
    awb: float  # how much of the warm cast the white balance takes out (0-1)
    sharpen: float  # unsharp mask amount
    sharpen_sigma: float
    jpeg_quality: int


def srgb_to_linear_lut() -> np.ndarray:
    x = np.arange(256, dtype=np.float32) / 255
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(np.float32)


LINEAR_LUT = srgb_to_linear_lut()


def disk_kernel(radius: float) -> np.ndarray:
    """A lens's defocus PSF: a uniform disk, anti-aliased by supersampling."""
    r = max(radius, 0.01)
    n = int(math.ceil(r)) * 2 + 1
    ss = 8
    yy, xx = np.mgrid[0:n * ss, 0:n * ss].astype(np.float32)
    c = (n * ss - 1) / 2
    inside = ((xx - c) ** 2 + (yy - c) ** 2) <= (r * ss) ** 2
    k = inside.reshape(n, ss, n, ss).mean(axis=(1, 3)).astype(np.float32)
    return k / k.sum()


def line_kernel(length: float, angle_deg: float) -> np.ndarray:
    n = int(math.ceil(length)) * 2 + 3
    k = np.zeros((n * 8, n * 8), np.float32)
    c = n * 4
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * length * 4, math.sin(a) * length * 4
    cv2.line(k, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 8)
    k = cv2.resize(k, (n, n), interpolation=cv2.INTER_AREA)
    return k / k.sum()


def optics_kernel(ex: Exposure) -> np.ndarray | None:
    """Defocus then motion: the two kernels combined (None: neither is there)."""
    k = None
    if ex.defocus_px > 0.3:
        k = disk_kernel(ex.defocus_px)
    if ex.motion_px > 0.3:
        m = line_kernel(ex.motion_px, ex.motion_deg)
        if k is None:
            k = m
        else:
            pad = m.shape[0] // 2
            k = cv2.filter2D(cv2.copyMakeBorder(k, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0), -1, m,
                             borderType=cv2.BORDER_CONSTANT)
            k /= k.sum()
    return k


def blur_optics(img: np.ndarray, ex: Exposure) -> np.ndarray:
    """Defocus then motion, on a linear float image: one pass with the two kernels combined."""
    k = optics_kernel(ex)
    return img if k is None else cv2.filter2D(img, -1, k, dst=img, borderType=cv2.BORDER_REFLECT)


def optics_local(ex: Exposure) -> int | None:
    """How far (px) ``blur_optics`` reaches from a pixel, when it filters each pixel from its
    neighbours alone (a window of the frame then gives the same values away from its edges);
    None when OpenCV filters through a DFT of the whole image (kernels from 11 x 11 on x86,
    from 50 values elsewhere), whose rounding depends on the image's size."""
    k = optics_kernel(ex)
    if k is None:
        return 0
    limit = 130 if cv2.checkHardwareSupport(3) else 50  # (3: CV_CPU_SSE3)
    return k.shape[0] // 2 if k.size < limit else None


ROWS = 128  # a band of rows of ``linear_light``


def linear_light(albedo: np.ndarray, irr: np.ndarray, glare: np.ndarray, exposure_scale: float = 1.0) -> np.ndarray:
    """The scene's linear light: sRGB ``albedo`` (BGR uint8) through the sRGB table, times the
    lamp's irradiance, plus the glare (both full resolution, float32), times ``exposure_scale``.
    A band of rows at a time, the light as three equal channels: the same float32 products
    and sums as numpy's pixel by pixel broadcast, in the cache (each pixel on its own: a
    window of the scene gives the same values as the whole)."""
    h, w = albedo.shape[:2]
    linear = np.empty((h, w, 3), np.float32)
    for y0 in range(0, h, ROWS):
        rows = slice(y0, y0 + ROWS)
        band = cv2.LUT(albedo[rows], LINEAR_LUT, dst=linear[rows])
        cv2.multiply(band, cv2.merge([irr[rows]] * 3), dst=band)
        cv2.add(band, cv2.merge([glare[rows]] * 3), dst=band)
        if exposure_scale != 1.0:
            # the light gathered scales with the exposure time; glare is light like any other,
            # so it is added BEFORE the sensor clips (``sense``)
            band *= np.float32(exposure_scale)
    return linear


def lamp_colour(warmth: float) -> np.ndarray:
    """BGR gains of the light: warm bulbs are weak in blue."""
    return np.array([1.0 - 0.55 * warmth, 1.0 - 0.22 * warmth, 1.0], np.float32)


def develop(linear: np.ndarray, ex: Exposure, out_size: tuple[int, int],
            rng: np.random.Generator, *, lamp: np.ndarray | None = None) -> tuple[np.ndarray, bytes]:
    """The sensor and the ISP: linear BGR float32 radiance (1.0 = a white card in full light,
    more where glare is) under white light, ``lamp`` the light's BGR gains -> (the delivered
    BGR uint8 frame after JPEG, the JPEG bytes).

    Works on ``linear`` in place to keep a 12 MP still's memory low."""
    return deliver(isp(sense(linear, ex, rng, lamp=lamp), ex, lamp=lamp), ex, out_size)


def normals(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """The sensor noise's standard normals ``sense`` draws from ``rng`` for a frame of
    ``shape`` (h, w): the same draws, band by band, in one array."""
    h, w = shape
    return np.concatenate([rng.standard_normal((min(BAND, h - y0), w), dtype=np.float32)
                           for y0 in range(0, h, BAND)])


def sense(linear: np.ndarray, ex: Exposure, rng: np.random.Generator | None, *, lamp: np.ndarray | None = None,
          noise: np.ndarray | None = None) -> np.ndarray:
    """The sensor: linear light -> the 12-bit Bayer mosaic (uint16), in place. ``noise``: the
    frame's normals drawn already (``normals``; a window of them for a window of the frame
    starting on an even row and column), else drawn from ``rng``."""
    h, w = linear.shape[:2]
    g = np.ones(3, np.float32) if lamp is None else np.asarray(lamp, np.float32)
    # photons -> electrons: a white card in full light fills this many electrons at this gain
    # (about 9000 e- full well at gain 1); read noise 2.5 e- at high gain, more at low gain
    white_e = 9000.0 / ex.gain
    read_e = 2.5 + 6.0 / ex.gain
    # 12-bit ADC: white card at about 70 % of full scale, glare clips at 4095
    scale = 0.7 * 4095 / white_e
    raw16 = np.empty((h, w), np.uint16)
    # a band of rows at a time (BAND is even: each band starts on an R G row), in place: the
    # same float32 operations in the same order as on the whole frame, in the cache
    for y0 in range(0, h, BAND):
        lin = linear[y0:y0 + BAND]
        # the Bayer mosaic, RGGB from the top-left (what COLOR_BayerBG2BGR expects)
        e = np.empty(lin.shape[:2], np.float32)
        np.multiply(lin[0::2, 0::2, 2], g[2], out=e[0::2, 0::2])
        np.multiply(lin[0::2, 1::2, 1], g[1], out=e[0::2, 1::2])
        np.multiply(lin[1::2, 0::2, 1], g[1], out=e[1::2, 0::2])
        np.multiply(lin[1::2, 1::2, 0], g[0], out=e[1::2, 1::2])
        e *= white_e
        sd = np.maximum(e, 0)
        sd += read_e * read_e
        np.sqrt(sd, out=sd)
        if noise is None:
            noise_ = rng.standard_normal(e.shape, dtype=np.float32)
        else:
            noise_ = noise[y0:y0 + BAND].copy()
        noise_ *= sd
        noise_ += e
        noise_ *= scale
        noise_ += 64  # the black level
        np.clip(noise_, 0, 4095, out=noise_)
        raw16[y0:y0 + BAND] = noise_
    return raw16


def isp(raw16: np.ndarray, ex: Exposure, *, lamp: np.ndarray | None = None) -> np.ndarray:
    """The ISP at the sensor's size: demosaic, white balance and gamma, denoise (BGR uint8)."""
    h, w = raw16.shape
    g = np.ones(3, np.float32) if lamp is None else np.asarray(lamp, np.float32)
    rgb = cv2.cvtColor(raw16, cv2.COLOR_BayerBG2BGR)
    del raw16
    # white balance (partial: bars keep some of the warm cast) and the gamma curve, one LUT per
    # channel over the 12-bit values
    wb = (1.0 / g) * ex.awb + (1 - ex.awb)
    codes = np.arange(4096, dtype=np.float32)
    lin = np.clip((codes - 64) / (0.7 * 4095 * 1.08), 0, None)  # a white card just under 1
    out = np.empty((h, w, 3), np.uint8)
    for ch in range(3):
        v = np.clip(lin * wb[ch], 0, 1)
        curve = np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(v, 1 / 2.4) - 0.055)
        lut = np.clip(curve * 255 + 0.5, 0, 255).astype(np.uint8)
        out[..., ch] = lut[rgb[..., ch]]
    del rgb
    # the ISP's denoise, stronger at high gain: colour noise smoothed hard, luma a little
    # (this smear, not only the lens, is what softens small cells in a dim bar)
    ycc = cv2.cvtColor(out, cv2.COLOR_BGR2YCrCb)
    y, cr, cb = cv2.split(ycc)
    y = cv2.GaussianBlur(y, (0, 0), 0.15 + 0.04 * ex.gain)
    cr = cv2.GaussianBlur(cr, (0, 0), 1.5)
    cb = cv2.GaussianBlur(cb, (0, 0), 1.5)
    return cv2.cvtColor(cv2.merge([y, cr, cb]), cv2.COLOR_YCrCb2BGR)


ISP_REACH = 12  # px: how far a pixel's raw value reaches into ``isp``'s output (demosaic, denoise)


def deliver(out: np.ndarray, ex: Exposure, out_size: tuple[int, int]) -> tuple[np.ndarray, bytes]:
    """The ISP's scaler and unsharp mask, then JPEG: (the decoded frame, the JPEG bytes)."""
    h, w = out.shape[:2]
    if out_size != (w, h):  # the ISP's scaler
        out = cv2.resize(out, out_size, interpolation=cv2.INTER_AREA if out_size[0] < w * 0.75
                         else cv2.INTER_LINEAR)
    if ex.sharpen > 0:  # the ISP's unsharp mask: crisper edges with bright/dark halos
        soft = cv2.GaussianBlur(out, (0, 0), ex.sharpen_sigma)
        out = cv2.addWeighted(out, 1 + ex.sharpen, soft, -ex.sharpen, 0)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, ex.jpeg_quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), enc.tobytes()
