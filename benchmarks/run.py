"""hhd benchmarks: each figure beside a baseline measured in the same run, as a table and as JSON.

    .venv/bin/python benchmarks/run.py            # all; the results also go to benchmarks/results.json
    .venv/bin/python benchmarks/run.py sync check # some (their results go to benchmarks/results-sync-check.json)

A row that stands for a command runs that command as a fresh process, as the user runs it: hhd as installed
(the README's `pip install -e .`, bytecode kept as pip compiles it), through the `hhd` script beside this
Python, against its baseline command run as a process too (`python -c pass`, the `img2pdf` command, a
downloader), the two interleaved (ABAB…) so that a slow moment of the machine falls on both. Each figure is
the median of at least 7 runs with its spread (min–max); start-up is compared in CPU time (user + system of
the child, from resource.getrusage), the rest in wall time. Rows marked "in-process" time a library call
inside this process, and say so. Memory is the peak resident size of a child process, read from the kernel.

Reads the registry files in tests/data; needs `pip install -e '.[bench]'` (img2pdf, the proxy floor).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support import CURRENT_SAMPLE as SAMPLE  # noqa: E402  the registry files the tests use (tests/data)
from support import LEGACY, PIPS  # noqa: E402

REPS = 7  # every timed figure: the median of 7 runs at least, its baseline's runs alternating with it
BIN = Path(sys.executable).parent  # where pip put the `hhd` and `img2pdf` scripts


@dataclass
class Row:
    """One figure: its runs (one value for a size or a peak), and the baseline's, measured in the same run."""

    section: str
    what: str
    samples: list[float]
    unit: str
    baseline: str = ""
    base_samples: list[float] = field(default_factory=list)
    target: str = ""
    note: str = ""  # what else the run showed (a PDF's size beside its peak memory)
    measure: str = "wall"  # "wall" time, "CPU" time (user + system), or "" for sizes and peaks
    process: bool = True  # False: a library call timed inside this process ("in-process")

    @property
    def value(self) -> float:
        return statistics.median(self.samples)

    @property
    def base_value(self) -> float | None:
        return statistics.median(self.base_samples) if self.base_samples else None

    @property
    def ratio(self) -> float | None:
        return self.value / self.base_value if self.base_value else None

    @property
    def spread(self) -> str:
        """The runs' range, min–max, or nothing for one value."""
        if len(self.samples) < 2:
            return ""
        return f"{_fmt(min(self.samples), self.unit)}–{_fmt(max(self.samples), self.unit)}"

    @property
    def met(self) -> bool | None:
        """Whether the target holds: "<= 1.2x" is on the ratio, "< 400 MB" and "< 1 s" on the value."""
        found = re.fullmatch(r"(<=?)\s*([\d.]+)\s*(x|ms|s|MB)", self.target.strip())
        if not found:
            return None
        op, number, unit = found.group(1), float(found.group(2)), found.group(3)
        if unit == "x":
            got = self.ratio
        elif unit == "MB":
            got = self.value if self.unit == "MB" else None
        else:
            got = self.value * (1000 if unit == "ms" else 1) if self.unit == "s" else None
        if got is None:
            return None
        return got <= number if op == "<=" else got < number


def repeat(fn: Callable[[], object], reps: int = REPS) -> list[float]:
    """The wall times of `reps` runs of a call in this process, in seconds."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def alternate(ours: Callable[[], object], base: Callable[[], object], reps: int = REPS
              ) -> tuple[list[float], list[float]]:
    """Two calls in this process timed `reps` times each, one after the other and the order swapped each round."""
    mine: list[float] = []
    theirs: list[float] = []
    for i in range(reps):
        pair = ((ours, mine), (base, theirs)) if i % 2 == 0 else ((base, theirs), (ours, mine))
        for fn, into in pair:
            start = time.perf_counter()
            fn()
            into.append(time.perf_counter() - start)
    return mine, theirs


@dataclass
class Runs:
    """A command's runs as processes: wall and CPU (user + system) seconds of each."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def run_process(args: list[str], env: dict[str, str] | None = None, into: Runs | None = None) -> Runs:
    """Run one command as a fresh process, its output discarded; its wall and CPU time added to `into`."""
    into = into if into is not None else Runs()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{args[:4]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    into.wall.append(wall)
    into.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return into


def interleave(ours: list[str], base: list[str], env: dict[str, str] | None = None, reps: int = REPS,
               before: Callable[[], None] | None = None) -> tuple[Runs, Runs]:
    """Two commands run as processes `reps` times each, ABAB… with the order swapped each round; `before`
    (untimed) runs ahead of each of our runs (a fresh cache for a cold run)."""
    mine, theirs = Runs(), Runs()
    for i in range(reps):
        order = ((ours, mine), (base, theirs)) if i % 2 == 0 else ((base, theirs), (ours, mine))
        for args, into in order:
            if before is not None and into is mine:
                before()
            run_process(args, env, into)
    return mine, theirs


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


PEAK = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)")


def child_peak(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run a command in a child process; its wall time (s) and peak resident memory (MB), as the kernel counts
    it. A small launcher starts it, since a process forked from this big one would count this one's pages."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{args[:4]} failed: {done.stderr[-500:]}")
    return time.perf_counter() - start, int(done.stdout.split()[-1]) / 1024  # ru_maxrss is in KB on Linux


PYTHON_PASS = [sys.executable, "-c", "pass"]  # the baseline of a command: starting this Python, doing nothing


def hhd(*args: str) -> list[str]:
    """The command line of `hhd ARGS`, through the script pip installed (the -m form when there is none)."""
    script = BIN / "hhd"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "hhdcli", *args]


def run_cli(*args: str, env: dict[str, str]) -> None:
    run_process(hhd(*args), env)


def synthetic_current(size_mb: float = 18.0) -> bytes:
    """The current sample replicated with fresh ids up to ~size_mb, shaped like the real file (~18.5 MB,
    ~8,000 entries of all cubes, 720 of them Hellscube v1.2): replicas past 720 HLC cards move to HC4."""
    records = json.loads(SAMPLE.read_text())["data"]
    out, total, i, hlc = [], 0, 0, 0
    while total < size_mb * 1024 * 1024:
        source = records[i % len(records)]
        record = dict(source, id=str(uuid.UUID(int=i)), name=f"{source['name']} {i}")
        if record["set"].startswith("HLC"):
            hlc += 1
            if hlc > 720:
                record["set"] = "HC4.0"
        out.append(record)
        total += len(json.dumps(record))
        i += 1
    return json.dumps({"data": out}).encode()


def bench_sync(rows: list[Row], work: Path) -> None:
    from hhdcli.cache import CacheMeta, write_cache
    from hhdcli.cards import parse_registry

    for label, raw, target in (("legacy 3.7 MB", LEGACY.read_bytes(), "<= 1.5x"),
                               ("current ~18 MB", synthetic_current(), "<= 2x")):
        def process(raw: bytes = raw) -> None:
            fmt, cards, *_ = parse_registry(raw)
            meta = CacheMeta("bench", fmt, None, "2026-01-01T00:00:00+00:00", "0", len(cards))
            write_cache(work / "sync-cache", meta, cards, None)

        process()  # the code's first run, as in any sync after the CLI's start
        ours, base = alternate(process, lambda raw=raw: json.loads(raw), 21)
        rows.append(Row("sync", f"parse+normalise+write, {label} (in-process)", ours, "s", "json.loads", base, target,
                        process=False))


def warm_env(work: Path) -> dict[str, str]:
    """The environment of an installed hhd: a synced cache, and bytecode kept (pip compiles it when it installs
    a wheel; PYTHONDONTWRITEBYTECODE would make every run compile the CLI's source again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["HHD_CACHE_DIR"] = str(work / "cache")
    if not (work / "cache" / "cards.json").exists():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "hhdcli")], check=True)
        run_cli("sync", "--source", str(LEGACY), "--symbols", str(PIPS), env=env)
    return env


IMPORT_CLICK = [sys.executable, "-c", "import click"]  # the floor of any Click command


def _start_up(rows: list[Row], section: str, what: str, args: list[str], env: dict[str, str], target: str,
              command: list[str] | None = None, baseline: list[str] = PYTHON_PASS) -> None:
    """A command against starting Python (or importing Click), both as processes, in CPU time (what the command
    itself costs)."""
    ours, base = interleave(command or hhd(*args), baseline, env, reps=15)
    rows.append(Row(section, what, ours.cpu, "s", "python -c " + repr(baseline[-1]).replace("'", ""), base.cpu,
                    target, f"wall {_fmt(statistics.median(ours.wall), 's')} vs {_fmt(statistics.median(base.wall), 's')}",
                    measure="CPU"))


def bench_cli(rows: list[Row], work: Path) -> None:
    env = warm_env(work)
    # what no command built on Click can go below: starting Python and importing Click (which imports
    # inspect, typing, uuid, datetime…), before any of hhd's code runs
    _start_up(rows, "cli", "python -c 'import click' (the floor of any Click command, for reference)",
              [], env, "", command=[sys.executable, "-c", "import click"])
    _start_up(rows, "cli", "hhd --help", ["--help"], env, "<= 2x")
    _start_up(rows, "cli", 'hhd card "pickle krrik"', ["card", "pickle krrik"], env, "<= 3x")
    # issue 39's limits, against importing Click: in English (no catalog read) and in Russian (its .mo read)
    for lang in ("en", "ru"):
        in_lang = {**env, "HHD_LANG": lang}
        _start_up(rows, "cli", f"hhd --help, {lang}", ["--help"], in_lang, "<= 1.2x", baseline=IMPORT_CLICK)
        _start_up(rows, "cli", f'hhd card "Hype Train", {lang}', ["card", "Hype Train"], in_lang, "<= 1.6x",
                  baseline=IMPORT_CLICK)
    ours, base = interleave(hhd("cards"), PYTHON_PASS, env)
    rows.append(Row("cli", "hhd cards (warm cache)", ours.wall, "s", "python -c pass", base.wall, "< 0.4 s"))
    out = str(work / "lib.json")
    _start_up(rows, "generate", "hhd generate end to end", ["generate", "--seed", "b", "-o", out, "--force"], env,
              "<= 3.5x")


def bench_generate(rows: list[Row], work: Path) -> None:
    import random

    from hhdcli.library import seeded_sample

    pool = list(range(970))
    ours, base = alternate(lambda: [seeded_sample(pool, 97, str(s)) for s in range(10_000)],
                           lambda: [random.Random(s).sample(pool, 97) for s in range(10_000)])
    rows.append(Row("generate", "10,000 samples (in-process)", ours, "s", "random.sample", base, "< 1 s",
                    process=False))


def bench_check(rows: list[Row], work: Path) -> None:
    from hhdcli.cache import load_cache
    from hhdcli.mana import SymbolTable, judge_all

    env = warm_env(work)
    cache = load_cache(work / "cache")
    deck = work / "deck.txt"  # 60 lines: a land line each for two basics, 58 Hellscube cards by name
    spells = [c.name for c in cache.cards if not c.is_basic][:58]
    deck.write_text("4 Mountain\n4 Island\n" + "".join(f"1 {name}\n" for name in spells), encoding="utf-8")
    _start_up(rows, "check", "hhd check of a 60-line deck, all 720", ["check", str(deck), "--all", "--offline"], env,
              "<= 3x")
    exports = commander_exports(cache.cards, work)
    medians = {}
    for fmt, path in exports.items():  # three runs each to find the slowest format, then that one timed
        runs = Runs()
        for _ in range(3):
            run_process(hhd("check", str(path), "--all", "--offline"), env, runs)
        medians[fmt] = statistics.median(runs.wall)
    slowest = max(medians, key=medians.__getitem__)
    ours, base = interleave(hhd("check", str(exports[slowest]), "--all", "--offline"), PYTHON_PASS, env)
    rows.append(Row("check", f"hhd check 100-card commander export, slowest of {len(medians)} formats ({slowest})",
                    ours.wall, "s", "python -c pass", base.wall, "< 0.4 s"))
    table = SymbolTable.from_records(cache.symbols)
    judge_all(cache.cards, "RUG", table)  # warm the per-symbol memo, as a real run does after one card
    ours_in, base_in = alternate(lambda: judge_all(cache.cards, "RUG", table),
                                 lambda: [c.mana_cost for c in cache.cards], 20)
    rows.append(Row("check", "verdicts for 720 cards (in-process)", ours_in, "s", "read 720 costs", base_in, "< 5 ms",
                    process=False))


def commander_exports(cards: list, work: Path) -> dict[str, Path]:
    """The same 100-card commander deck (a commander, 69 Hellscube spells, 30 basics) as each tool exports it."""
    spells = [c.name for c in cards if not c.is_land][:69]
    commander, rest = spells[0], [(n, 1) for n in spells[1:]] + [("Forest", 15), ("Island", 15)]
    from xml.sax.saxutils import quoteattr

    cod_cards = "".join(f'<card number="{k}" name={quoteattr(n)}/>' for n, k in rest)
    dek_cards = "".join(f'<Cards Quantity="{k}" Sideboard="false" Name={quoteattr(n)}/>' for n, k in rest)
    texts = {
        "arena.txt": f"Commander\n1 {commander} (HLC) 1\n\nDeck\n" + "".join(f"{k} {n} (HLC) 2\n" for n, k in rest),
        "moxfield.txt": f"1 {commander} (HLC) 1 *F*\n" + "".join(f"{k} {n} (HLC) 2\n" for n, k in rest),
        "archidekt.txt": f"1x {commander} (hlc) 1 [Commander{{top}}]\n" + "".join(f"{k}x {n} (hlc) 2 [Other]\n"
                                                                                 for n, k in rest),
        "tappedout.txt": f"Commander (1)\n1x {commander} *CMDR*\n\nOther (99)\n" + "".join(f"{k}x {n}\n"
                                                                                        for n, k in rest),
        "mtgo.txt": "".join(f"{k} {n}\n" for n, k in rest) + f"\n1 {commander}\n",
        "mtggoldfish.txt": f"1 {commander}\n" + "".join(f"{k} {n}\n" for n, k in rest),
        "deckstats.txt": f"//Main\n1 {commander} # !Commander\n" + "".join(f"{k} {n}\n" for n, k in rest),
        "tcgplayer.txt": f"1 {commander} [HLC]\n" + "".join(f"{k} {n} [HLC]\n" for n, k in rest),
        "forge.dck": f"[metadata]\nName=Bench\n[Commander]\n1 {commander}|HLC\n[Main]\n" + "".join(
            f"{k} {n}|HLC|1\n" for n, k in rest),
        "xmage.dck": f"NAME:Bench\n1 [HLC:1] {commander}\n" + "".join(f"{k} [HLC:2] {n}\n" for n, k in rest),
        "deck.mwDeck": "// Deck file for Magic Workstation\n" + f"    1 [HLC] {commander}\n" + "".join(
            f"    {k} [HLC] {n}\n" for n, k in rest),
        "deck.cod": f'<cockatrice_deck version="1"><zone name="main"><card number="1" name={quoteattr(commander)}/>'
                    f"{cod_cards}</zone></cockatrice_deck>",
        "deck.dek": f'<Deck><Cards Quantity="1" Sideboard="false" Name={quoteattr(commander)}/>{dek_cards}</Deck>',
    }
    folder = work / "exports"
    folder.mkdir(exist_ok=True)
    paths = {}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
        paths[name] = folder / name
    return paths


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # eight clients connecting at once must not overflow the listen backlog (1 s SYN retry)
    daemon_threads = True


class _Files(BaseHTTPRequestHandler):
    """Files of a folder over HTTP (the scans), streamed from disk."""

    root = Path()

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        path = (self.root / self.path.lstrip("/")).resolve()
        if not path.is_file() or self.root.resolve() not in path.parents:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(path.stat().st_size))
        self.end_headers()
        with path.open("rb") as handle:
            self.wfile.write(handle.read())


def bench_proxies(rows: list[Row], work: Path) -> None:
    env = warm_env(work)
    library = work / "proxies-lib.json"
    run_cli("generate", "--seed", "bench", "-o", str(library), "--force", env=env)
    for what, args, target in (("97 text proxies (hhd proxies --text-only)", ["-l", str(library)], "< 0.6 s"),
                               ("720 text proxies (hhd proxies --all --text-only)", ["--all"], "< 1.5 s")):
        ours, base = interleave(hhd("proxies", *args, "--text-only", "-o", str(work / "text.pdf")), PYTHON_PASS,
                                env)
        rows.append(Row("proxies", what, ours.wall, "s", "python -c pass", base.wall, target))

    server = _Server(("127.0.0.1", 0), _Files)
    _Files.root = work / "served"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        _image_rows(rows, work, base_url)
        _memory_rows(rows, work, base_url)
    finally:
        server.shutdown()


DOWNLOAD = """
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from hhdcli.http import Client
from hhdcli.render.scans.images import MAX_IMAGE_BYTES, ImageStore

folder, urls = Path(sys.argv[1]), sys.argv[2:]
client = Client(ImageStore(folder).http, accept="image/*")  # the HTTP client and settings proxies download with

def save(job):
    (folder / str(job[0])).write_bytes(client.get(job[1], limit=MAX_IMAGE_BYTES).data)

with ThreadPoolExecutor(8) as threads:  # as many at a time as hhd proxies
    list(threads.map(save, enumerate(urls)))
"""


def _image_rows(rows: list[Row], work: Path, base: str) -> None:
    """Image proxies at 300 dpi, as processes: cold against a process that only downloads the same files, warm
    against the img2pdf command on the same JPEGs."""
    scans = make_scans(work / "served" / "300", 720, 300)
    cards = [f"Card {i}" for i in range(720)]
    synced = {}
    for count in (97, 720):
        source = work / f"registry-300-{count}.json"
        source.write_bytes(registry(scans[:count], base, work / "served"))
        synced[count] = work / f"synced-300-{count}"
        run_cli("sync", "--source", str(source), "--symbols", str(PIPS),
                env={**os.environ, "HHD_CACHE_DIR": str(synced[count])})
    urls = [f"{base}/{p.relative_to(work / 'served').as_posix()}" for p in scans]

    for count in (97, 720):
        cache = work / f"cold-{count}"
        env = {**warm_env(work), "HHD_CACHE_DIR": str(cache)}
        downloads = work / f"downloads-{count}"

        def fresh(cache: Path = cache, count: int = count, downloads: Path = downloads) -> None:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.copytree(synced[count], cache)  # the card data synced, no image yet
            shutil.rmtree(downloads, ignore_errors=True)
            downloads.mkdir()

        fresh()
        run_process([sys.executable, "-c", DOWNLOAD, str(downloads), *urls[:count]])  # the server warmed up
        ours, floor = interleave(hhd("proxies", "--all", "-o", str(work / f"cold-{count}.pdf")),
                                 [sys.executable, "-c", DOWNLOAD, str(downloads), *urls[:count]], env,
                                 reps=11 if count == 97 else 7, before=fresh)
        rows.append(Row("proxies", f"{count} image proxies, cold cache (print-size JPEGs, loopback)", ours.wall, "s",
                        f"download the {count} files, 8 at a time, to files", floor.wall, "<= 1.15x"))

    warm = {**warm_env(work), "HHD_CACHE_DIR": str(work / "warm-300")}
    shutil.copytree(synced[720], work / "warm-300")
    run_cli("proxies", "--all", "-o", str(work / "warm-fill.pdf"), env=warm)  # every image in the print cache
    from hhdcli.render.scans.images import ImageSettings, ImageStore

    store = ImageStore(work / "warm-300" / "images", ImageSettings())
    slopes = {}
    for count in (97, 720):
        jpegs = [str(store.print_path(url)) for url in urls[:count]]
        out, theirs = work / f"warm-{count}.pdf", work / f"img2pdf-{count}.pdf"
        chosen = ["--all"] if count == 720 else [a for name in cards[:count] for a in ("--cards", name)]
        mine, floor = interleave(hhd("proxies", *chosen, "-o", str(out)), [str(BIN / "img2pdf"), "-o", str(theirs),
                                                                           *jpegs], warm, reps=15)
        slopes[count] = (statistics.median(mine.wall), statistics.median(floor.wall))
        rows.append(Row("proxies", f"{count} image proxies, warm image cache (hhd proxies)", mine.wall, "s",
                        "the img2pdf command, same JPEGs", floor.wall, "<= 1.2x", f"PDF {out.stat().st_size / 1e6:.1f} MB"))
        rows.append(Row("proxies", f"PDF size, {count} image proxies", [out.stat().st_size / 1e6], "MB",
                        "sum of JPEG bytes", [sum(Path(p).stat().st_size for p in jpegs) / 1e6], "<= 1.05x", measure=""))
    extra = 720 - 97
    rows.append(Row("proxies", "each card past 97, warm (from the two rows above)",
                    [(slopes[720][0] - slopes[97][0]) / extra], "s", "img2pdf's",
                    [(slopes[720][1] - slopes[97][1]) / extra], "<= 1.2x"))


def _memory_rows(rows: list[Row], work: Path, base: str) -> None:
    """`hhd proxies --all` in a child process at 600 dpi, 97 and 720 scans: peak memory beside img2pdf's."""
    scans = make_scans(work / "served" / "600", 720, 600)
    peaks = {}
    for count in (97, 720):
        env = {**warm_env(work), "HHD_CACHE_DIR": str(work / f"cache-600-{count}")}
        source = work / f"registry-600-{count}.json"
        source.write_bytes(registry(scans[:count], base, work / "served"))
        run_cli("sync", "--source", str(source), "--symbols", str(PIPS), env=env)
        out = work / f"all-600-{count}.pdf"
        command = [*hhd("proxies", "--all", "--dpi", "600", "-o", str(out))]
        seconds, cold = child_peak(command, env)  # downloads and fills the print cache
        rows.append(Row("proxies", f"proxies --all, {count} scans at 600 dpi, cold: peak memory", [cold], "MB", "", [],
                        "< 400 MB", f"{seconds:.1f} s, PDF {out.stat().st_size / 1e6:.0f} MB", measure=""))
        seconds, warm = child_peak(command, env)
        printed = sorted((work / f"cache-600-{count}" / "images" / "print").glob("*.jpg"))
        _, theirs = child_peak([str(BIN / "img2pdf"), "-o", str(work / "img2pdf-600.pdf"), *map(str, printed)])
        rows.append(Row("proxies", f"proxies --all, {count} scans at 600 dpi, warm: peak memory", [warm], "MB",
                        "img2pdf, same JPEGs", [theirs], "< 400 MB",
                        f"{seconds:.1f} s, PDF {out.stat().st_size / 1e6:.0f} MB", measure=""))
        peaks[count] = warm
    rows.append(Row("proxies", "peak memory grows with the page, not the document: 720 scans", [peaks[720]], "MB",
                    "97 scans", [peaks[97]], "< 1.3x", measure=""))
    # --dpi is a ceiling: 300-dpi scans at --dpi 600 are embedded as they are, not enlarged
    env = {**warm_env(work), "HHD_CACHE_DIR": str(work / "cache-ceiling")}
    shutil.copytree(work / "synced-300-97", work / "cache-ceiling")
    out = work / "ceiling.pdf"
    seconds, peak = child_peak(hhd("proxies", "--all", "--dpi", "600", "-o", str(out)), env)
    scans = make_scans(work / "served" / "300", 720, 300)[:97]  # the 97 the registry of 97 cards names
    pdf = out.read_bytes()
    whole = sum(1 for scan in scans if scan.read_bytes() in pdf)
    rows.append(Row("proxies", "97 scans of 300 dpi at --dpi 600, cold: PDF size", [len(pdf) / 1e6], "MB",
                    "the scans' bytes", [sum(s.stat().st_size for s in scans) / 1e6], "<= 1.05x",
                    f"{whole} of {len(scans)} scans in it byte for byte; {seconds:.1f} s, peak {peak:.0f} MB",
                    measure=""))


def make_scans(folder: Path, count: int, dpi: int) -> list[Path]:
    """`count` distinct card-like JPEG scans at the print size for `dpi` (smooth color with grain, ~150 KB at
    300 dpi like real scans), made once per run."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    size = (round(63 / 25.4 * dpi), round(88 / 25.4 * dpi))
    grain = Image.effect_noise(size, 14).convert("RGB")
    field_ = Image.linear_gradient("L").resize(size).convert("RGB")
    backdrop = Image.blend(Image.blend(field_, Image.new("RGB", size, (60, 90, 160)), 0.6), grain, 0.35)
    paths = []
    for i in range(count):
        path = folder / f"{i}.jpg"
        if not path.exists():
            image = backdrop.copy()
            box = (size[0] // 10, size[1] // 10 + i % 50 * size[1] // 80, size[0] * 9 // 10, size[1] // 2)
            image.paste((30 + i * 7 % 200, 60 + i * 13 % 180, 90), box)  # each scan its own
            image.save(path, "JPEG", quality=85)
        paths.append(path)
    return paths


def registry(scans: list[Path], base: str, root: Path) -> bytes:
    """A current-format registry of one card per scan, its image served from `base`."""
    records = [{"object": "card", "kind": "card", "id": str(uuid.UUID(int=i)), "name": f"Card {i}", "set": "HLC.0",
                "layout": "normal", "image": f"{base}/{p.relative_to(root).as_posix()}", "mana_cost": "{R}",
                "type_line": "Instant", "colors": ["R"]} for i, p in enumerate(scans)]
    return json.dumps({"data": records}).encode()


def bench_export(rows: list[Row], work: Path) -> None:
    env = warm_env(work)
    library = work / "export-lib.json"
    run_cli("generate", "--seed", "export", "-o", str(library), "--force", env=env)
    for fmt in ("tts", "cockatrice", "mpc", "csv"):
        out = work / f"export.{fmt}"
        ours, base = interleave(hhd("export", "-l", str(library), "--format", fmt, "-o", str(out), "--offline"),
                                PYTHON_PASS, env)
        rows.append(Row("export", f"hhd export --format {fmt}, 97 cards, offline", ours.wall, "s", "python -c pass",
                        base.wall, "< 1 s"))


def bench_builtin(rows: list[Row], work: Path) -> None:
    from hhdcli.cache import BUILTIN_FILE, _builtin_document, load_builtin, load_cache

    warm_env(work)

    def cold_builtin() -> None:
        _builtin_document.cache_clear()  # decompress and parse again, as a fresh process does
        load_builtin()

    ours, base = alternate(cold_builtin, lambda: load_cache(work / "cache"))
    rows.append(Row("built-in", "load the 720 built-in cards + symbols (in-process)", ours, "s",
                    "load the synced cache", base, "< 50 ms", process=False))
    size = (ROOT / "hhdcli" / BUILTIN_FILE).stat().st_size
    rows.append(Row("built-in", "built-in data in the wheel", [size / 1e6], "MB", "the registry file",
                    [LEGACY.stat().st_size / 1e6], "< 0.5 MB", measure=""))


def bench_table(rows: list[Row], work: Path) -> None:
    import logging
    import urllib.request

    from werkzeug.serving import make_server

    from hhdcli.cache import load_cache
    from hhdcli.library import build_pool, generate, resolve
    from hhdcli.table.game.rules import Action
    from hhdcli.table.hosting.opening import open_session
    from hhdcli.table.web.routes import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    warm_env(work)
    cache = load_cache(work / "cache")
    pool, _ = build_pool(cache.cards)
    library = generate(pool, 97, "table", cache.fingerprint)

    token: dict[str, str] = {}  # Anna's seat at the table being measured: every action is someone's

    def served(state: Path) -> tuple[Any, str]:
        resolved = resolve(library, cache.cards)
        session, _ = open_session(resolved, cache, {"Anna": tuple("WUBRGP")}, state)
        server = make_server("127.0.0.1", 0, create_app(session), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        token["Anna"] = session.join("Anna")
        return server, f"http://127.0.0.1:{server.server_port}"

    def post(url: str, body: dict[str, Any]) -> None:
        request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json",
                                                                         "Authorization": f"Table player={token['Anna']}"})
        try:
            urllib.request.urlopen(request).read()
        except urllib.error.HTTPError:  # the library ran out; the draw answered all the same
            pass

    server, base = served(work / "page.sqlite")
    states = repeat(lambda: urllib.request.urlopen(base + "/api/state").read(), 50)

    post(base + "/api/opening-hand", {"player": "Anna"})  # the rules: the opening hand kept before any draw
    post(base + "/api/keep", {"player": "Anna", "bottom": []})
    draws = []
    for _ in range(90):  # 90 of the 95 cards left: every draw finds one
        start = time.perf_counter()
        post(base + "/api/draw", {"player": "Anna"})
        draws.append(time.perf_counter() - start)
        post(base + "/api/decline", {"player": "Anna"})  # a choice card waiting (untimed): the next draw may go
    rows.append(Row("table", "a draw through the API, p50", [percentile(draws, 0.5)], "s", "GET /api/state p50",
                    [percentile(states, 0.5)], "< 50 ms", f"{len(draws)} draws"))
    rows.append(Row("table", "a draw through the API, p95", [percentile(draws, 0.95)], "s", "GET /api/state p95",
                    [percentile(states, 0.95)], "< 100 ms", f"{len(draws)} draws"))
    urllib.request.urlopen(base + "/").read()  # the template compiled once, as after the first phone
    rows.append(Row("table", "page load (GET /)", repeat(lambda: urllib.request.urlopen(base + "/").read()), "s",
                    "GET /api/state", states, "< 200 ms"))
    server.shutdown()

    # an action seen by another phone: from the POST's start to the pushed event reaching a listening page
    server, base = served(work / "push.sqlite")
    post(f"{base}/api/opening-hand", {})
    actions = iter(["mulligan"] * 100)  # one action at a time: two cards back to the bottom, two dealt
    pushed = push_delays(server.server_port, lambda: post(f"{base}/api/{next(actions)}", {"player": "Anna"}), 100)
    rows.append(Row("table", "an action pushed to a listening page, p50", [percentile(pushed, 0.5)], "s", "", [],
                    "< 200 ms", f"{len(pushed)} actions"))
    rows.append(Row("table", "an action pushed to a listening page, p95", [percentile(pushed, 0.95)], "s", "", [],
                    "< 200 ms", f"{len(pushed)} actions"))
    server.shutdown()

    # the state read after 10,000 actions against the same read in a fresh session, alternating
    def session_at(name: str) -> Any:
        resolved = resolve(library, cache.cards)
        return open_session(resolved, cache, {"Anna": tuple("WUBRGP")}, Path(tempfile.mkdtemp(dir=work)) / name)[0]

    # the baseline has a full log page already (30 actions) and the same cards held: what differs is history
    early, long = session_at("early.sqlite"), session_at("long.sqlite")
    for session, actions in ((early, 30), (long, 10_000)):
        session.act(Action.OPENING_HAND, "Anna")
        for _ in range(actions - 1):  # mulligans: two cards back to the bottom and two dealt
            session.act(Action.MULLIGAN, "Anna")
    ours, base = alternate(long.state, early.state, 30)
    rows.append(Row("table", "state read after 10,000 actions", ours, "s", "the same read after 30 actions", base,
                    "< 1.5x", f"state file {long.path.stat().st_size / 1e6:.1f} MB"))


def push_delays(port: int, act: Callable[[], Any], times: int) -> list[float]:
    """Seconds from the start of `act` to the first server-sent event after it, read by a page-like client."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/events")
    stream = connection.getresponse()
    arrived: list[float] = []
    lock = threading.Condition()

    def listen() -> None:
        try:
            for line in stream:
                if line.startswith(b"event: change"):
                    with lock:
                        arrived.append(time.perf_counter())
                        lock.notify_all()
        except OSError:  # the connection closed at the end of the measurement
            pass

    threading.Thread(target=listen, daemon=True).start()
    with lock:
        lock.wait_for(lambda: arrived, 5)  # the event every stream opens with
    delays = []
    for _ in range(times):
        with lock:
            seen = len(arrived)
        start = time.perf_counter()
        act()
        with lock:
            lock.wait_for(lambda seen=seen: len(arrived) > seen, 5)
            delays.append(arrived[seen] - start)
    connection.close()
    return sorted(delays)


BENCHES = {"sync": bench_sync, "table": bench_table, "builtin": bench_builtin, "export": bench_export, "cli": bench_cli,
           "generate": bench_generate, "check": bench_check, "proxies": bench_proxies}
IN_PROCESS_SECTIONS = {"table"}  # the table's figures time its API from this process (a server in a thread here)


def main(names: list[str]) -> None:
    rows: list[Row] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name in names or list(BENCHES):
            BENCHES[name](rows, Path(tmp))
    for row in rows:
        if row.section in IN_PROCESS_SECTIONS:
            row.process = False
    headers = ["section", "what", "measure", "median", "min–max", "baseline", "ratio", "target", "met", "note"]
    table = [[r.section, _label(r), r.measure, _fmt(r.value, r.unit), r.spread,
              f"{r.baseline} {_fmt(r.base_value, r.unit)}".strip() if r.baseline else "",
              f"{r.ratio:.2f}x" if r.ratio else "", r.target, {True: "yes", False: "NO", None: ""}[r.met], r.note]
             for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *table, strict=True)]
    for line in [headers, ["-" * w for w in widths], *table]:
        print("  ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)).rstrip())
    took = time.perf_counter() - started
    # a full run's results, or a part's beside them (a part never overwrites the whole)
    results = ROOT / "benchmarks" / ("results.json" if not names else f"results-{'-'.join(names)}.json")
    machine = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "load_average": os.getloadavg(),
               "hhd": " ".join(hhd()), "took_s": round(took, 1)}
    results.write_text(json.dumps({"machine": machine, "rows": [_json(r) for r in rows]}, indent=1,
                                  ensure_ascii=False) + "\n")
    met = [r.met for r in rows if r.met is not None]
    print(f"\n{sum(met)} of {len(met)} targets met in {took:.0f} s; written to {results.relative_to(ROOT)}")


def _label(row: Row) -> str:
    return row.what if row.process or "in-process" in row.what else f"{row.what} (in-process)"


def _json(row: Row) -> dict[str, Any]:
    spread = [min(row.samples), max(row.samples)] if row.samples else None
    base_spread = [min(row.base_samples), max(row.base_samples)] if row.base_samples else None
    return {"section": row.section, "what": _label(row), "as": "process" if row.process else "in-process",
            "measure": row.measure, "unit": row.unit, "median": row.value, "min_max": spread, "runs": row.samples,
            "baseline": row.baseline, "baseline_median": row.base_value, "baseline_min_max": base_spread,
            "baseline_runs": row.base_samples, "ratio": row.ratio, "target": row.target, "met": row.met,
            "note": row.note}


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return ""
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    return f"{value:.2f} {unit}" if value < 100 else f"{value:.0f} {unit}"


if __name__ == "__main__":
    main(sys.argv[1:])
