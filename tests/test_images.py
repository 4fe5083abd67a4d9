"""The image cache (hhdcli/render/scans/images.py): only images kept, damage mended, a cap kept, slow hosts skipped.

Card images as the image store decodes them (hhdcli/render/scans/images.py): what a scan may cost to decode is
bounded by its pixels and the memory they take, not only by Pillow's decompression-bomb limit."""

from __future__ import annotations

import io
import json
import os
import re
import struct
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hhdcli.render.scans.images import TOO_LARGE, ImageError, ImageSettings, prepare
from support import EXCERPT, PIPS, Hhd, Reply, cards_with_served_images, timed


def png(color: tuple[int, int, int], size: tuple[int, int] = (60, 84)) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def one_image_card(server, tmp_path):
    """A cache with one card whose image the loopback server serves at /card.png."""
    record = next(r for r in json.loads(EXCERPT.read_text())["data"] if r["set"].startswith("HLC"))
    record.pop("card_faces", None)
    record["image"] = f"{server.url}/card.png"
    source = tmp_path / "one.json"
    source.write_text(json.dumps({"data": [record]}))
    run = Hhd(tmp_path / "cache")
    assert run("sync", "--source", str(source), "--symbols", str(PIPS)).exit_code == 0
    return run, record["name"]


def image_files(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / "images").rglob("*") if p.is_file())


def test_a_trickling_image_host_is_skipped_like_a_silent_one(server, tmp_path):
    trickle = Reply(b"x" * 10_000, content_type="image/jpeg", trickle=(10, 0.5))
    run, names = cards_with_served_images(server, tmp_path / "cache", 12, trickle)
    start = time.monotonic()
    result = run("--timeout", "2", "proxies", *names, "--workers", "2", "-o", str(tmp_path / "p.pdf"))
    assert result.exit_code == 0 and "from card data" in result.output
    assert time.monotonic() - start < 2 * 2 + 5


def test_a_captive_portal_page_is_never_kept_as_an_image(server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(b"<html>Sign in to the hotel wifi</html>", content_type="text/html")
    first = run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf"))
    assert first.exit_code == 0 and "not an image" in first.output
    assert image_files(tmp_path / "cache") == []
    server.routes["/card.png"] = Reply(png((200, 0, 0)), content_type="image/png")  # back home
    second = run("proxies", "--cards", name, "-o", str(tmp_path / "b.pdf"))
    assert "1 from 1 image" in second.output


@pytest.mark.parametrize("damage", [b"", b"\xff\xd8\xff\xe0 cut short"])
def test_a_damaged_print_image_in_the_cache_is_made_again(damage, server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(png((0, 0, 200)), content_type="image/png")
    assert run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf")).exit_code == 0
    printed = next(p for p in image_files(tmp_path / "cache") if p.parent.name == "print")
    printed.write_bytes(damage)
    again = run("proxies", "--cards", name, "-o", str(tmp_path / "b.pdf"), "--offline")
    assert again.exit_code == 0 and "1 from 1 image" in again.output, again.output
    assert printed.read_bytes().startswith(b"\xff\xd8") and printed.read_bytes().endswith(b"\xff\xd9")


def test_the_image_cache_evicts_the_least_recently_used_past_its_cap(tmp_path):

    from hhdcli.render.scans.images import evict

    folder = tmp_path / "images"
    (folder / "raw").mkdir(parents=True)
    for i in range(5):
        path = folder / "raw" / f"img{i}"
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1000 + i, 1000 + i))  # img0 the least recently used
    keep = {folder / "raw" / "img1"}
    removed, freed = evict(folder, 2500, keep)
    assert (removed, freed) == (3, 3000)
    assert sorted(p.name for p in (folder / "raw").iterdir()) == ["img1", "img4"]


def test_cache_clean_empties_the_image_cache(server, tmp_path, one_image_card):
    run, name = one_image_card
    server.routes["/card.png"] = Reply(png((0, 120, 0)), content_type="image/png")
    assert run("proxies", "--cards", name, "-o", str(tmp_path / "a.pdf")).exit_code == 0
    assert image_files(tmp_path / "cache")
    result = run("cache", "clean")
    assert result.exit_code == 0 and "removed 2 images" in result.output
    assert image_files(tmp_path / "cache") == [] and (tmp_path / "cache" / "cards.json").is_file()


def test_a_silent_image_host_costs_one_timeout_not_one_per_image(server, tmp_path):
    run, names = cards_with_served_images(server, tmp_path / "cache", 74, Reply(b"", delay=60))
    elapsed, result = timed(run, "--timeout", "2", "proxies", *names, "-o", str(tmp_path / "p.pdf"))
    # 74 cards; one too long for a card continues on a second proxy
    assert result.exit_code == 0 and re.search(r"(\d+) proxies: \1 from card data \(images unreachable\)", result.output)
    assert elapsed < 2 * 2 + 5


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
from hhdcli.render.scans.images import ImageError, ImageSettings, prepare
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
    from hhdcli.render.scans.images import MAX_DECODED_BYTES, MAX_DECODED_PIXELS, decoded_bytes

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
