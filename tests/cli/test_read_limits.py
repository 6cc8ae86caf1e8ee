"""``botifarra-kiosk read`` refuses photos of more than 50 megapixels from their header,
before anything is decoded; a full 12 MP still of the Pi HQ camera is read."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from kiosk.commands._imagehead import MAX_PIXELS, image_size

ROOT = Path(__file__).resolve().parents[2]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(path: Path, width: int, height: int) -> Path:
    """A PNG whose header claims ``width`` x ``height`` (its data is a few bytes)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
                     + _chunk(b"IDAT", zlib.compress(b"\0" * 64)) + _chunk(b"IEND", b""))
    return path


def read(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kiosk", "read", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("width, height", [(65000, 65000), (20000, 20000), (10000, 5001)])
def test_a_header_over_the_limit_is_one_line_and_exit_2(tmp_path, width, height):
    proc = read(png_claiming(tmp_path / "big.png", width, height))
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
    assert f"{width}x{height}" in proc.stderr and "50 megapixels" in proc.stderr


def test_a_full_12_mp_still_is_read(tmp_path):
    import cv2
    import numpy as np
    still = np.full((3040, 4056, 3), 90, np.uint8)
    cv2.putText(still, "12 MP", (400, 1500), cv2.FONT_HERSHEY_SIMPLEX, 20, (255, 255, 255), 40)
    path = tmp_path / "still.jpg"
    cv2.imwrite(str(path), still)
    assert image_size(path) == (4056, 3040) and 4056 * 3040 <= MAX_PIXELS
    proc = read(path, "--json")
    assert proc.returncode == 0, proc.stderr


def test_sizes_from_the_headers_of_every_format_read_here(tmp_path):
    import cv2
    import numpy as np
    img = np.zeros((37, 53, 3), np.uint8)
    for ext in (".png", ".jpg", ".bmp", ".webp"):
        path = tmp_path / f"x{ext}"
        cv2.imwrite(str(path), img)
        assert image_size(path) == (53, 37), ext
    progressive = tmp_path / "p.jpg"
    cv2.imwrite(str(progressive), img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert image_size(progressive) == (53, 37)
    (tmp_path / "t.txt").write_text("not an image")
    assert image_size(tmp_path / "t.txt") is None
    (tmp_path / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00")
    assert image_size(tmp_path / "cut.jpg") is None


def test_the_real_20000_by_20000_png_of_the_benchmark_is_refused(tmp_path):
    """The benchmark's big PNG (its rows compressed once, repeated) is a real PNG: a small
    one decodes to its gradient with OpenCV, and ``read`` refuses the 400 MP one."""
    import cv2
    import numpy as np
    from tests.bench.bench_faults import big_png
    for width, height, block in ((300, 600, 256), (37, 5, 256), (1000, 513, 16)):
        big_png(tmp_path / "small.png", width, height, rows_per_block=block)
        img = cv2.imread(str(tmp_path / "small.png"), cv2.IMREAD_UNCHANGED)
        rgb = (np.arange(width * 3) % 256).astype(np.uint8).reshape(width, 3)
        assert img.shape == (height, width, 3) and (img == rgb[:, ::-1]).all(), (width, height)
        assert len(zlib.decompress(_idat(tmp_path / "small.png"))) == height * (1 + 3 * width)
    big_png(tmp_path / "big.png", 20000, 20000)
    proc = read(tmp_path / "big.png")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "20000x20000" in proc.stderr and len(proc.stderr.splitlines()) == 1


def _idat(path: Path) -> bytes:
    """The zlib stream of a PNG (``zlib.decompress`` checks its Adler-32; libpng may not)."""
    data, pos, out = path.read_bytes(), 8, b""
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos:pos + 4])
        if data[pos + 4:pos + 8] == b"IDAT":
            out += data[pos + 8:pos + 8 + size]
        pos += 12 + size
    return out
