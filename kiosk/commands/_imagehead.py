"""An image's size from its file header, read before anything is decoded.

``read`` refuses photos above :data:`MAX_PIXELS` this way: decoding a 20000x20000 PNG
would take 1.2 GB (3 bytes a pixel) before OpenCV could say no, and a header that merely
claims 65000x65000 makes OpenCV raise. PNG (IHDR), JPEG (the SOF segment), BMP and WebP
are read; other formats are left to OpenCV's own pixel limit (set from the same number).
"""

from __future__ import annotations

import struct
from pathlib import Path

# 50 megapixels: every camera the kiosk uses is well under it (the Pi HQ camera's full
# still is 4056x3040 = 12.3 MP; Camera Module 3 is 4608x2592 = 11.9 MP), and the decoded
# BGR image of 50 MP is 150 MB, which a Pi 4 of 2 GB can still hold next to the kiosk.
MAX_PIXELS = 50_000_000

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(path: str | Path) -> tuple[int, int] | None:
    """``(width, height)`` from the header, or None when the format is not one of those
    read here (or the header is cut short). Reads at most a few kilobytes per segment."""
    with open(path, "rb") as f:
        head = f.read(32)
        if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
            return struct.unpack(">II", head[16:24])
        if head.startswith(b"BM") and len(head) >= 26:
            w, h = struct.unpack("<ii", head[18:26])
            return abs(w), abs(h)
        if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
            return _webp(head + f.read(16))
        if head.startswith(b"\xff\xd8"):
            f.seek(2)
            return _jpeg(f)
    return None


def _webp(head: bytes) -> tuple[int, int] | None:
    kind = head[12:16]
    if kind == b"VP8X" and len(head) >= 30:
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return w, h
    if kind == b"VP8 " and len(head) >= 30:
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if kind == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _jpeg(f) -> tuple[int, int] | None:
    for _ in range(10_000):  # segments before the frame header; a loop with an end
        byte = f.read(1)
        while byte == b"\xff":  # fill bytes before a marker
            byte = f.read(1)
            if byte != b"\xff":
                break
        else:
            if not byte:
                return None
        marker = byte[0] if byte else None
        if marker is None:
            return None
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            continue  # markers without a length
        size = f.read(2)
        if len(size) < 2:
            return None
        length = struct.unpack(">H", size)[0]
        if marker in _SOF:
            data = f.read(5)
            if len(data) < 5:
                return None
            h, w = struct.unpack(">HH", data[1:5])
            return w, h
        if marker == 0xDA or length < 2:  # image data before any frame header: give up
            return None
        f.seek(length - 2, 1)
    return None
