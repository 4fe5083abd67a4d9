"""Card images as the image store decodes them (hhdcli/render/images.py): what a scan may cost to decode is
bounded by its pixels and the memory they take, not only by Pillow's decompression-bomb limit."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from hhdcli.render.images import TOO_LARGE, ImageError, ImageSettings, prepare


def blank_png(width: int, height: int) -> bytes:
    """A grey PNG of this size, compressed row by row: 88 megapixels of zeros are 85 KB, and never all in memory."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    packer, row, parts = zlib.compressobj(9), b"\0" * (width + 1), []
    for _ in range(height):
        parts.append(packer.compress(row))
    parts.append(packer.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """Just under Pillow's bomb limit (89,478,485 pixels): 9,400 x 9,400."""
    data = blank_png(9_400, 9_400)
    assert len(data) < 200_000
    return data


def test_a_small_file_of_88_megapixels_is_refused_before_it_is_decoded(bomb):
    started = time.monotonic()
    with pytest.raises(ImageError) as refused:
        prepare(bomb, ImageSettings(bleed_mm=2))
    assert str(refused.value) == TOO_LARGE
    assert time.monotonic() - started < 2


def test_sixteen_of_them_at_once_stay_within_a_quarter_of_a_gigabyte(bomb, tmp_path):
    """As many as a run's downloads bring at once, in a process that cannot grow past 1 GB of address space:
    each is refused, none decoded (they would take 16 x 440 MB)."""
    (tmp_path / "bomb.png").write_bytes(bomb)
    code = f"""
import resource, sys
from concurrent.futures import ThreadPoolExecutor
from hhdcli.render.images import ImageError, ImageSettings, prepare
data = open({str(tmp_path / "bomb.png")!r}, "rb").read()
resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
def one(_):
    try:
        prepare(data, ImageSettings(bleed_mm=2))
    except ImageError as exc:
        return str(exc)
with ThreadPoolExecutor(16) as pool:
    print(set(pool.map(one, range(16))))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MALLOC_ARENA_MAX": "2"})
    assert done.returncode == 0, done.stderr[-2000:]
    reasons, peak_mb = done.stdout.splitlines()
    assert reasons == repr({TOO_LARGE})
    assert int(peak_mb) < 256


def test_a_scan_of_a_card_at_1200_dpi_is_still_printed():
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (2976, 4157), "white").save(out, "PNG")
    prepared = prepare(out.getvalue(), ImageSettings(dpi=1200))
    with Image.open(io.BytesIO(prepared)) as printed:
        assert printed.format == "JPEG" and printed.size == (2976, 4157)


def test_the_bound_counts_the_memory_of_the_pixels_not_only_their_number():
    from hhdcli.render.images import MAX_DECODED_BYTES, MAX_DECODED_PIXELS, decoded_bytes

    side = int(MAX_DECODED_PIXELS ** 0.5)
    assert decoded_bytes(side, side, "RGB") <= MAX_DECODED_BYTES  # as many RGB pixels as allowed fit
    assert decoded_bytes(side, side, "RGBA") > MAX_DECODED_BYTES  # … with an alpha band to convert, they do not
    assert decoded_bytes(side, side, "L") < decoded_bytes(side, side, "RGBA")


def test_decoding_in_threads_refuses_each_bomb_on_its_own(bomb):
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda _: _refusal(bomb), range(4)))
    assert outcomes == [TOO_LARGE] * 4


def _refusal(data: bytes) -> str:
    try:
        prepare(data, ImageSettings())
    except ImageError as exc:
        return str(exc)
    return "printed"
