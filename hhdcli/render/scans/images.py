"""Card images: bounded parallel downloads into an on-disk cache, then print-ready JPEGs.

A failed image never fails a run: the caller gets a reason and draws a text proxy instead.
"""

from __future__ import annotations

import io
import os
import threading
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from hhdcli.errors import DownloadError
from hhdcli.files import sha256_hex, write_cache_file
from hhdcli.http import Client, HttpSettings, Notice
from hhdcli.i18n import N_

if TYPE_CHECKING:
    from hhdcli.render.scans.aside import Aside

MAX_IMAGE_BYTES = 20 * 1024 * 1024
CHILD_SLACK = 5.0  # seconds past a request's deadline that a downloading child may be silent (decoding, writing)
CARD_MM = (63.0, 88.0)


@dataclass(frozen=True)
class ImageSettings:
    dpi: int = 300
    quality: int = 85
    bleed_mm: float = 0.0
    workers: int = 8
    offline: bool = False
    max_bytes: int | None = None  # the image cache's cap: least recently used files go past it
    small: bool = False  # --small: spend the CPU on JPEG's optimised tables for a smaller PDF


@dataclass
class ImageResult:
    url: str
    path: Path | None = None  # the print-ready JPEG
    error: str | None = None


def _key(text: str) -> str:
    return sha256_hex(text.encode())[:32]


@dataclass
class ImageStore:
    """Downloads (`raw/`) and print-ready JPEGs (`print/`) under the cache's images folder."""

    folder: Path
    settings: ImageSettings = ImageSettings()
    http: HttpSettings = HttpSettings(timeout=(5.0, 20.0), retries=2, backoff=0.3)
    notice: Notice | None = None

    def raw_path(self, url: str) -> Path:
        return self.folder / "raw" / _key(url)

    def print_path(self, url: str) -> Path:
        s = self.settings
        return self.folder / "print" / f"{_key(url)}-{s.dpi}-{s.quality}-{s.bleed_mm:g}{'-small' if s.small else ''}.jpg"

    def look_up(self, urls: list[str], progress: Callable[[], None] | None = None
                ) -> tuple[list[ImageResult], list[str]]:
        """The images already in the print cache (a file check each: no threads for them, a warm run's cost),
        and the distinct URLs still to fetch."""
        results, missing = [], []
        for url in dict.fromkeys(urls):
            cached = self._cached(url)
            if cached is None:
                missing.append(url)
                continue
            results.append(cached)
            if progress:
                progress()
        return results, missing

    def _cached(self, url: str) -> ImageResult | None:
        """The print image already in the cache, marked recently used (the last to be evicted)."""
        target = self.print_path(url)
        if not usable_print_image(target):
            return None
        _touch(target)
        return ImageResult(url, target)

    def _one(self, client: Client, url: str) -> ImageResult:
        target = self.print_path(url)
        _remove(target)  # not in the cache, or damaged or half-written (look_up checked): made again below
        raw = self.raw_path(url)
        prepared = data = None
        if raw.is_file():
            data = raw.read_bytes()
            try:
                prepared = prepare(data, self.settings)
            except ImageError:
                _remove(raw)  # a damaged download is fetched again, never kept
        if prepared is None:
            if self.settings.offline:
                return ImageResult(url, error=N_("not in the image cache (--offline)"))
            downloaded = self._download(client, url)
            if isinstance(downloaded, str):
                return ImageResult(url, error=downloaded)
            data = downloaded
            try:
                prepared = prepare(data, self.settings)  # decoded before anything is kept
            except ImageError as exc:
                return ImageResult(url, error=str(exc))
            write_cache_file(raw, data, durable=False)
        if prepared is data and _link(raw, target):  # already print-ready: the download itself, not a copy
            return ImageResult(url, target)
        write_cache_file(target, prepared, durable=False)  # a cache: lost files are made again
        return ImageResult(url, target)

    def _download(self, client: Client, url: str) -> bytes | str:
        """The image's bytes; or why there are none."""
        if urlparse(url).scheme not in ("http", "https"):
            return f"not an http(s) URL: {url[:60]}"
        try:
            return client.get(url, limit=MAX_IMAGE_BYTES).data
        except DownloadError as exc:
            return exc.reason


WAKE = 0.05  # seconds: how long a stop asked for (Ctrl-C, the parent gone) can wait to be seen


def fetch_each(one: Callable[[str], ImageResult], urls: list[str], workers: int,
               stop: threading.Event | None = None, abort: Callable[[], None] | None = None) -> Iterator[ImageResult]:
    """Each image's result as soon as it is made, `workers` at a time: the one download loop, run for this
    process's half of a `Fetching`, for its child's half, and for what the child did not send. Once `stop` is
    set, or the caller stops reading (Ctrl-C; the parent gone), no download is begun, those under way are cut
    off by `abort` (the client's), and what they were writing is finished or removed."""
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    def unless_stopped(url: str) -> ImageResult | None:
        return None if stop is not None and stop.is_set() else one(url)

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    finished = False
    try:
        pending = {pool.submit(unless_stopped, url) for url in urls}
        while pending:
            # Woken every WAKE seconds, not only when an image is done: Ctrl-C or the parent's death (SIGTERM) may
            # be delivered to a download thread, and Python runs the handler in this thread only once it runs
            # again; waiting for the next image let every worker begin another download first.
            done, pending = wait(pending, timeout=WAKE, return_when=FIRST_COMPLETED)
            for future in done:
                result = future.result()
                if result is not None:
                    yield result
        finished = True
    finally:
        if not finished and abort is not None:
            abort()
        pool.shutdown(wait=True, cancel_futures=True)


class Fetching:
    """Downloads under way of the images `ImageStore.look_up` found missing, at most `workers` at a time (a host
    that failed or timed out once is not asked again in the run); none when every image was in the cache. Half of
    them are fetched in a child process (aside.py says why), the other half by a thread here, both with
    `fetch_each`; each result, from either half, is counted by `_count` as it is made, so progress moves on both."""

    def __init__(self, store: ImageStore, results: list[ImageResult], missing: list[str],
                 progress: Callable[[], None] | None) -> None:
        self.store, self.missing, self.progress = store, missing, progress
        self._results = {r.url: r for r in results}
        self._stop = threading.Event()  # set: no download begun here any more
        self._failed: list[BaseException] = []  # raised by wait() in the caller's thread, as without threads
        self._mine: threading.Thread | None = None
        self._reader: threading.Thread | None = None  # counts the child's results as they come
        self._helper: Aside[ImageResult] | None = None
        self._theirs: list[str] = []  # the child's half
        self._client = client = Client(store.http, accept="image/*", notice=store.notice)
        self._one = partial(store._one, client)
        try:
            self._begin(missing)
        except BaseException:  # Ctrl-C while starting: the caller holds no Fetching to cancel yet, so what
            self.cancel()  # began is stopped here (a download thread left running held the exit until --timeout)
            raise

    def _begin(self, missing: list[str]) -> None:
        """The child's half forked and read, this process's half begun."""
        from hhdcli.render.scans.aside import Aside

        store, client = self.store, self._client
        _import_for_workers(client)  # before the fork too: the child needs them, and so is spared the wait
        workers = max(1, store.settings.workers)
        mine = missing
        if workers > 1 and len(missing) > 1:  # every other image, so that both halves come in page order
            theirs = missing[1::2]
            helper = Aside(lambda: fetch_each(self._one, theirs, workers // 2, abort=client.abort))
            if helper.forked:  # forked before any thread starts here (aside.py says why)
                self._helper, self._theirs, mine = helper, theirs, missing[0::2]
                # each of its requests ends by its deadline, so a child silent for longer is stopped or stuck
                self._reader = self._start(helper.items(idle=store.http.timeout[1] + CHILD_SLACK))
                workers -= workers // 2
        self._mine = self._start(fetch_each(self._one, mine, workers, self._stop, client.abort))

    def _start(self, results: Iterator[ImageResult]) -> threading.Thread:
        def run() -> None:
            try:
                self._count(results)
            except BaseException as exc:  # noqa: BLE001  (raised again by wait())
                self._failed.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def _count(self, results: Iterable[ImageResult]) -> None:
        """Each result kept and counted as it comes: the one place progress moves for a download."""
        for result in results:
            self._results[result.url] = result
            if self.progress:
                self.progress()

    def wait(self) -> dict[str, ImageResult]:
        """Every image's result, once all the downloads have ended."""
        try:
            for thread in (self._mine, self._reader):  # this process's half first: its error ends the run
                if thread is not None:
                    joined(thread)
                if self._failed:
                    raise self._failed[0]
            # what the child did not send (it failed: a cache it could not write, say; or it was stopped) is
            # fetched here once it has ended, where any error it meets is raised as it would have been without one
            if self._helper is not None:
                self._helper.close()
                self._helper = None
            left = [url for url in self._theirs if url not in self._results]
            if left:
                self._count(fetch_each(self._one, left, self.store.settings.workers, self._stop, self._client.abort))
        finally:
            self.cancel()
        if self.store.settings.max_bytes is not None:
            results = self._results.values()
            used = {r.path for r in results if r.path} | {self.store.raw_path(r.url) for r in results}
            evict(self.store.folder, self.store.settings.max_bytes, used)
        return dict(self._results)

    def cancel(self) -> None:
        """No more downloads begun; those under way end, here and in the child (the caller failed, or has
        every result)."""
        self._stop.set()  # none begun here while the child stops
        self._client.abort()  # those under way end now, not at a silent host's deadline
        if self._helper is not None:
            self._helper.close()
            self._helper = None
        for thread in (self._mine, self._reader):
            if thread is not None:
                joined(thread)
        self._mine = self._reader = None


def joined(thread: threading.Thread) -> None:
    """`thread.join()`, woken every WAKE seconds: Ctrl-C delivered to another thread is acted on by this one only
    once it runs again, and a join with no timeout waited for a silent host's whole --timeout."""
    while thread.is_alive():
        thread.join(WAKE)


def _import_for_workers(client: Client) -> None:
    """Import here, before any download thread starts, what the threads would import on their first image
    (requests, urllib3 and certifi through the session; Pillow): the caller lays pages out meanwhile (ReportLab,
    importlib.resources), and two threads importing modules that import each other in opposite orders make
    Python raise _DeadlockError (seen in `hhd proxies` offline, images unreachable)."""
    client.session  # noqa: B018  (made once; its imports with it)
    from PIL import Image, ImageOps  # noqa: F401


def usable_print_image(path: Path) -> bool:
    """A whole JPEG: its start and end markers where they belong (a truncated or emptied file has not)."""
    try:
        with path.open("rb") as handle:
            start = handle.read(3)
            handle.seek(-2, os.SEEK_END)
            return start == b"\xff\xd8\xff" and handle.read(2) == b"\xff\xd9"
    except OSError:
        return False


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:  # not ours to remove, or the folder is not a folder: writing it will say so
        pass


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def image_files(folder: Path) -> list[os.DirEntry[str]]:
    """Every file of the image cache (downloads and print-ready images)."""
    out = []
    for part in ("raw", "print"):
        try:
            out += [e for e in os.scandir(folder / part) if e.is_file(follow_symlinks=False)]
        except OSError:
            pass
    return out


def evict(folder: Path, max_bytes: int, keep: Collection[Path] = ()) -> tuple[int, int]:
    """Least recently used files out until the image cache holds at most `max_bytes` (files used by this
    run are kept); how many files and bytes went."""
    return evict_files(image_files(folder), max_bytes, keep)


def evict_files(files: list[os.DirEntry[str]], max_bytes: int, keep: Collection[Path] = ()) -> tuple[int, int]:
    """The oldest of `files` (by their time) out until they hold at most `max_bytes`, those in `keep` kept; how
    many files and bytes went. The image cache's bound, and the table server's faces folder's."""
    entries = sorted(files, key=lambda e: e.stat().st_mtime)
    total = sum(e.stat().st_size for e in entries)
    removed = freed = 0
    for entry in entries:
        if total <= max_bytes:
            break
        if Path(entry.path) in keep:
            continue
        size = entry.stat().st_size
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        total -= size
        removed, freed = removed + 1, freed + size
    return removed, freed


def _link(source: Path, target: Path) -> bool:
    """A second name for a cached file (no bytes written twice); False where links are not possible."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, target)
    except FileExistsError:
        return True
    except OSError:
        return False
    return True


class ImageError(Exception):
    pass


NOT_AN_IMAGE = N_("not an image")  # (a captive portal's page, an error page): never kept in the cache
BOMB = N_("refused: decompression bomb")
TOO_LARGE = N_("refused: more pixels than a card scan needs")
# A card at the highest --dpi (1200) is 2976 x 4157, 12.4 megapixels: no scan needs more than twice that. Pillow's
# own guard lets 89 megapixels through, which a PNG of 85 KB can claim (a third of a gigabyte decoded, as RGB).
MAX_DECODED_PIXELS = 25_000_000
MAX_DECODED_BYTES = 128 * 2**20  # the image as decoded plus its RGB copy
_DECODING = threading.BoundedSemaphore(2)  # decoding is CPU work: more at once than cores only adds memory


@lru_cache(maxsize=1)
def _quiet_bomb_warnings() -> None:
    """prepare() refuses such images itself; the warning would only print to the player's terminal.
    Set once a process, by the first prepare() (not at import: a warm run never loads Pillow);
    warnings.catch_warnings() around each image is not safe across the download threads."""
    from PIL import Image

    warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)


SAME_SIZE = 0.03  # a JPEG up to 3 % over the print size is embedded as it is, not decoded and encoded again


def prepare(data: bytes, settings: ImageSettings) -> bytes:
    """Decode (with Pillow's decompression-bomb guard as an error), fit to the card, add bleed, JPEG.
    `--dpi` is a ceiling, never a magnifier: a scan of the card's shape at or below it (a JPEG, no bleed
    asked) is kept byte for byte, as img2pdf does, and only a larger one is reduced to it; a scan that must be
    decoded (another format, shape or orientation, or bleed) keeps its own resolution when that is lower."""
    if settings.bleed_mm <= 0 and _embeddable(data, settings):
        return data
    from PIL import Image, ImageOps, UnidentifiedImageError

    _quiet_bomb_warnings()

    try:
        with Image.open(io.BytesIO(data)) as opened, _DECODING:  # opening reads the header only
            # refuse at Pillow's warning limit, before decoding; above twice that Pillow raises itself
            if opened.width * opened.height > (Image.MAX_IMAGE_PIXELS or float("inf")):
                raise ImageError(BOMB)
            if decoded_bytes(opened.width, opened.height, opened.mode) > MAX_DECODED_BYTES or \
                    opened.width * opened.height > MAX_DECODED_PIXELS:
                raise ImageError(TOO_LARGE)
            opened.load()
            image = opened.convert("RGB")
    except Image.DecompressionBombError as exc:
        raise ImageError(BOMB) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ImageError(NOT_AN_IMAGE) from exc
    if image.width > image.height:  # split cards are stored sideways: keep their rotated art upright
        image = image.rotate(90, expand=True)
    dpi = min(settings.dpi, own_dpi(image.size))  # more pixels than the scan has would print no sharper
    wanted = card_pixels(dpi)
    if not _near(image.size, wanted, RESAMPLE_WITHIN):  # within 2 %: the PDF scales it
        image = ImageOps.fit(image, wanted, Image.Resampling.LANCZOS)
    if settings.bleed_mm > 0:
        image = fill_scan_corners(image, round(CORNER_MM / 25.4 * dpi))
        image = extend_edges(image, round(settings.bleed_mm / 25.4 * dpi))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=settings.quality, optimize=settings.small, progressive=False,
               dpi=(round(dpi),) * 2)
    return out.getvalue()


def decoded_bytes(width: int, height: int, mode: str) -> int:
    """The memory an image takes decoded and converted to RGB: Pillow keeps RGB (and RGBA, CMYK, 32-bit modes) at
    4 bytes a pixel, the one-band modes at 1 or 2; an image not in RGB has its RGB copy beside it."""
    from PIL import Image

    per_pixel = 4 if Image.getmodebands(mode) > 1 or mode in ("I", "F") else 2 if mode.startswith("I;16") else 1
    return width * height * (per_pixel + (4 if mode != "RGB" else 0))


RESAMPLE_WITHIN = 0.02  # a scan this close to the print size is not resampled (745x1040 for 744x1039 was a third
#                         of a cold run's CPU): the PDF draws it at the card's size


def card_pixels(dpi: float) -> tuple[int, int]:
    """The card's size in pixels at `dpi`."""
    return round(CARD_MM[0] / 25.4 * dpi), round(CARD_MM[1] / 25.4 * dpi)


def own_dpi(size: tuple[int, int]) -> float:
    """The resolution an upright scan prints the card at, fitted to its shape (the side that limits it)."""
    return min(size[0] / (CARD_MM[0] / 25.4), size[1] / (CARD_MM[1] / 25.4))


def _near(size: tuple[int, int], wanted: tuple[int, int], within: float) -> bool:
    return all(abs(got - want) <= want * within for got, want in zip(size, wanted, strict=True))


CORNER_MM = 3.0  # a scanned card's rounded corner, which scans show as white outside the curve


def fill_scan_corners(image: Any, radius: int) -> Any:
    """Paint the near-white outside of each rounded corner with the card's border color there (taken on
    the edge just past the curve), so the bleed grown from the edges has no white notches."""
    w, h = image.size
    if radius < 2 or w < 4 * radius or h < 4 * radius:
        return image
    pixels = image.load()
    corners = ((0, 0, 1, 1), (w - 1, 0, -1, 1), (0, h - 1, 1, -1), (w - 1, h - 1, -1, -1))
    for cx, cy, dx, dy in corners:
        border = pixels[cx + dx * radius, cy]  # on the top/bottom edge, past the curve
        for i in range(radius):
            for j in range(radius):
                outside = (radius - i - 0.5) ** 2 + (radius - j - 0.5) ** 2 > radius ** 2
                x, y = cx + dx * i, cy + dy * j
                if outside and min(pixels[x, y]) > 200:
                    pixels[x, y] = border
    return image


def extend_edges(image, pad: int):
    """Bleed: repeat the outermost pixels outward, so a slightly off cut shows art, not white."""
    from PIL import Image

    w, h = image.size
    out = Image.new("RGB", (w + 2 * pad, h + 2 * pad))
    out.paste(image.crop((0, 0, w, 1)).resize((w, pad)), (pad, 0))
    out.paste(image.crop((0, h - 1, w, h)).resize((w, pad)), (pad, h + pad))
    out.paste(image.crop((0, 0, 1, h)).resize((pad, h)), (0, pad))
    out.paste(image.crop((w - 1, 0, w, h)).resize((pad, h)), (w + pad, pad))
    for x, y, px in ((0, 0, (0, 0)), (w + pad, 0, (w - 1, 0)), (0, h + pad, (0, h - 1)), (w + pad, h + pad, (w - 1, h - 1))):
        out.paste(image.getpixel(px), (x, y, x + pad, y + pad))
    out.paste(image, (pad, pad))
    return out


def _embeddable(data: bytes, settings: ImageSettings) -> bool:
    """A JPEG (baseline or progressive) in RGB or grey, upright and of the card's shape (within 2 %), at or below
    `dpi` (3 % over is kept too): what the PDF can hold as it is. Read from the frame header alone (no decoder)."""
    from hhdcli.render.scans.splice import EMBEDDABLE, jpeg_frame

    frame = jpeg_frame(data)
    if frame is None:
        return False
    width, height, components, marker = frame
    if components not in (1, 3) or marker not in EMBEDDABLE or width > height or not width:
        return False
    dpi = own_dpi((width, height))
    return dpi <= settings.dpi * (1 + SAME_SIZE) and _near((width, height), card_pixels(dpi), RESAMPLE_WITHIN)
