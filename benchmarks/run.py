"""hhd benchmarks: each figure beside a baseline measured in the same run, as a table.

    .venv/bin/python benchmarks/run.py            # all
    .venv/bin/python benchmarks/run.py sync check # some

Reads the registry files in tests/data; needs `pip install -e '.[bench]'` (img2pdf, the proxy floor).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support import CURRENT_SAMPLE as SAMPLE  # noqa: E402  the registry files the tests use (tests/data)
from support import LEGACY, PIPS  # noqa: E402


@dataclass
class Row:
    section: str
    what: str
    value: float
    unit: str
    baseline: str = ""
    base_value: float | None = None
    target: str = ""

    @property
    def ratio(self) -> str:
        return f"{self.value / self.base_value:.2f}x" if self.base_value else ""


def timings(fn: Callable[[], object], repeat: int) -> list[float]:
    """The wall times of `repeat` runs, in seconds, sorted."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)


def best(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best wall time of `repeat` runs, in seconds (the least disturbed by the machine)."""
    return timings(fn, repeat)[0]


def run_cli(*args: str, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "-m", "hhdcli", *args], check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


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

    for label, raw in (("legacy 3.7 MB", LEGACY.read_bytes()), ("current ~18 MB", synthetic_current())):
        floor = best(lambda raw=raw: json.loads(raw), 3)

        def process(raw: bytes = raw) -> None:
            fmt, cards, *_ = parse_registry(raw)
            meta = CacheMeta("bench", fmt, None, "2026-01-01T00:00:00+00:00", "0", len(cards))
            write_cache(work / "sync-cache", meta, cards, None)

        rows.append(Row("sync", f"parse+normalise+write, {label}", best(process, 3), "s", "json.loads", floor, "<= 2x"))


def warm_env(work: Path) -> dict[str, str]:
    env = {**os.environ, "HHD_CACHE_DIR": str(work / "cache")}
    if not (work / "cache" / "cards.json").exists():
        run_cli("sync", "--source", str(LEGACY), "--symbols", str(PIPS), env=env)
    return env


def bench_cli(rows: list[Row], work: Path) -> None:
    env = warm_env(work)
    python = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    rows.append(Row("cli", "hhd --help", best(lambda: run_cli("--help", env=env)), "s", "python -c pass", python, "< 3x"))
    rows.append(Row("cli", "hhd cards (warm cache)", best(lambda: run_cli("cards", env=env)), "s", "python -c pass",
                    python, "< 0.4 s"))
    out = str(work / "lib.json")
    rows.append(Row("generate", "hhd generate end to end", best(lambda: run_cli("generate", "--seed", "b", "-o", out, env=env)),
                    "s", "python -c pass", python, "< 0.4 s"))


def bench_generate(rows: list[Row], work: Path) -> None:
    import random

    from hhdcli.library import seeded_sample

    pool = list(range(970))
    floor = best(lambda: [random.Random(s).sample(pool, 97) for s in range(10_000)], 1)
    ours = best(lambda: [seeded_sample(pool, 97, str(s)) for s in range(10_000)], 1)
    rows.append(Row("generate", "10,000 samples in-process", ours, "s", "random.sample", floor, "< 1 s"))


def bench_check(rows: list[Row], work: Path) -> None:
    from hhdcli.cache import load_cache
    from hhdcli.mana import SymbolTable, judge_all

    env = warm_env(work)
    deck = work / "deck.txt"
    deck.write_text("4 Mountain\n4 Island\n4 Forest\n8 Nebula\n" + "".join(f"4 Spell {i}\n" for i in range(10)))
    python = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    rows.append(Row("check", "hhd check 60-card deck, all 720", best(lambda: run_cli("check", str(deck), "--all", "--offline",
                                                                                  env=env)), "s", "python -c pass", python,
                    "< 0.4 s"))
    cache = load_cache(work / "cache")
    timings = {fmt: best(lambda path=path: run_cli("check", str(path), "--all", "--offline", env=env), 3)
               for fmt, path in commander_exports(cache.cards, work).items()}
    slowest = max(timings, key=timings.__getitem__)
    rows.append(Row("check", f"hhd check 100-card commander export, slowest of {len(timings)} formats ({slowest})",
                    timings[slowest], "s", "python -c pass", python, "< 0.4 s"))
    table = SymbolTable.from_records(cache.symbols)
    judge_all(cache.cards, "RUG", table)  # warm the per-symbol memo, as a real run does after one card
    floor = best(lambda: [c.mana_cost for c in cache.cards], 20)
    rows.append(Row("check", "verdicts for 720 cards", best(lambda: judge_all(cache.cards, "RUG", table), 20), "s",
                    "read 720 costs", floor, "< 5 ms"))


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


class _Images(BaseHTTPRequestHandler):
    blobs: dict[str, bytes] = {}

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        body = self.blobs.get(self.path, b"")
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def bench_proxies(rows: list[Row], work: Path) -> None:
    import img2pdf
    from PIL import Image

    from hhdcli.cache import load_cache
    from hhdcli.cards import parse_registry
    from hhdcli.library import build_pool, generate, resolve
    from hhdcli.mana import SymbolTable
    from hhdcli.render.images import ImageSettings, ImageStore
    from hhdcli.render.proxies import ProxyOptions, render_proxies

    warm_env(work)
    cache = load_cache(work / "cache")
    table = SymbolTable.from_records(cache.symbols)
    pool, _ = build_pool(cache.cards)
    library = generate(pool, 97, "bench", cache.fingerprint)
    cards = resolve(library, cache.cards).cards
    rows.append(Row("proxies", "97 text proxies", best(lambda: render_proxies(cards, table, ProxyOptions(text_only=True)), 3),
                    "s", "", None, "< 3 s"))
    every = sorted(cache.cards, key=lambda c: c.name.lower())
    rows.append(Row("proxies", "720 text proxies (proxies --all)", best(
        lambda: render_proxies(every, table, ProxyOptions(text_only=True)), 2), "s", "", None, "< 5 s"))

    # 97 distinct card-sized JPEG scans served from loopback
    server = _Server(("127.0.0.1", 0), _Images)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    records = []
    for i in range(97):
        # card-like scans: smooth colour fields with grain, ~150 KB at quality 85 like real 300 dpi scans
        grain = Image.effect_noise((744, 1039), 12 + i % 8).convert("RGB")
        field = Image.linear_gradient("L").resize((744, 1039)).convert("RGB")
        image = Image.blend(Image.blend(field, Image.new("RGB", (744, 1039), (30 + 2 * i, 90, 160)), 0.6), grain, 0.35)
        out = io.BytesIO()
        image.save(out, "JPEG", quality=85)
        _Images.blobs[f"/{i}.jpg"] = out.getvalue()
        records.append({"object": "card", "kind": "card", "id": str(uuid.UUID(int=i)), "name": f"Card {i}",
                        "set": "HLC.0", "layout": "normal", "image": f"{base}/{i}.jpg", "mana_cost": "{R}",
                        "type_line": "Instant", "colors": ["R"]})
    _, image_cards, *_ = parse_registry(json.dumps({"data": records}).encode())
    options = ProxyOptions()

    def cold() -> None:
        folder = Path(tempfile.mkdtemp(dir=work))
        render_proxies(image_cards, table, options, ImageStore(folder, ImageSettings()))

    warm_store = ImageStore(work / "warm-images", ImageSettings())
    render_proxies(image_cards, table, options, warm_store)
    prepared = [warm_store.print_path(c.image).read_bytes() for c in image_cards]
    floor = best(lambda: img2pdf.convert(prepared), 3)
    def download_only() -> None:
        """The floor: fetch the 97 images, 8 at a time, and save each to a file (what any downloader does)."""
        from concurrent.futures import ThreadPoolExecutor

        from hhdcli.http import Client

        client = Client(ImageStore(work).http, accept="image/*")  # the settings proxies download with
        folder = Path(tempfile.mkdtemp(dir=work))

        def save(card) -> None:  # noqa: ANN001
            (folder / card.id).write_bytes(client.get(card.image, limit=20 * 2**20).data)

        with ThreadPoolExecutor(8) as threads:
            list(threads.map(save, image_cards))

    download_only()  # connections and threads warmed up, as they are for the proxies below
    rows.append(Row("proxies", "97 image proxies, cold cache (print-size JPEGs, loopback)", best(cold, 3), "s",
                    "download them to files alone", best(download_only, 3), "<= 1.5x"))
    warm = best(lambda: render_proxies(image_cards, table, options, warm_store), 3)
    rows.append(Row("proxies", "97 image proxies, warm image cache", warm, "s", "img2pdf same JPEGs", floor, "<= 3x"))
    pdf, _ = render_proxies(image_cards, table, options, warm_store)
    jpeg_bytes = sum(len(b) for b in prepared)
    rows.append(Row("proxies", "PDF size, 97 image proxies", len(pdf) / 1e6, "MB", "sum of JPEG bytes", jpeg_bytes / 1e6,
                    "<= 1.2x"))
    server.shutdown()


def bench_export(rows: list[Row], work: Path) -> None:
    env = warm_env(work)
    library = work / "export-lib.json"
    run_cli("generate", "--seed", "export", "-o", str(library), "--force", env=env)
    python = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    for fmt in ("tts", "cockatrice", "mpc", "csv"):
        out = work / f"export.{fmt}"
        rows.append(Row("export", f"hhd export --format {fmt}, 97 cards, offline", best(
            lambda fmt=fmt, out=out: run_cli("export", "-l", str(library), "--format", fmt, "-o", str(out),
                                             "--offline", env=env), 3), "s", "python -c pass", python, "< 1 s"))


def bench_builtin(rows: list[Row], work: Path) -> None:
    from hhdcli.cache import BUILTIN_FILE, _builtin_document, load_builtin, load_cache

    warm_env(work)

    def cold_builtin() -> None:
        _builtin_document.cache_clear()  # decompress and parse again, as a fresh process does
        load_builtin()

    floor = best(lambda: load_cache(work / "cache"), 5)
    rows.append(Row("built-in", "load the 720 built-in cards + symbols", best(cold_builtin, 5), "s",
                    "load the synced cache", floor, "< 50 ms"))
    size = (ROOT / "hhdcli" / BUILTIN_FILE).stat().st_size
    rows.append(Row("built-in", "built-in data in the wheel", size / 1e6, "MB", "the registry file",
                    LEGACY.stat().st_size / 1e6, "< 0.5 MB"))


def bench_table(rows: list[Row], work: Path) -> None:
    import logging
    import urllib.request

    from werkzeug.serving import make_server

    from hhdcli.cache import load_cache
    from hhdcli.library import build_pool, generate, resolve
    from hhdcli.table.app import create_app
    from hhdcli.table.serve import open_session

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    warm_env(work)
    cache = load_cache(work / "cache")
    pool, _ = build_pool(cache.cards)
    library = generate(pool, 97, "table", cache.fingerprint)

    def served(state: Path) -> tuple[Any, str]:
        resolved = resolve(library, cache.cards)
        session, _ = open_session(resolved, cache, {"Anna": tuple("WUBRGP")}, state)
        server = make_server("127.0.0.1", 0, create_app(session), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server, f"http://127.0.0.1:{server.server_port}"

    def post(url: str, body: dict[str, Any]) -> None:
        request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request).read()
        except urllib.error.HTTPError:  # the library ran out; the draw answered all the same
            pass

    def percentile(sorted_times: list[float], share: float) -> float:
        return sorted_times[min(len(sorted_times) - 1, int(share * len(sorted_times)))]

    server, base = served(work / "page.sqlite")
    states = timings(lambda: urllib.request.urlopen(base + "/api/state").read(), 50)
    ping = percentile(states, 0.5)

    def draw_and_decline() -> None:
        post(base + "/api/draw", {"player": "Anna"})
        post(base + "/api/decline", {"player": "Anna"})

    draws = timings(draw_and_decline, 90)  # 90 of the 97 cards: every draw finds one
    rows.append(Row("table", "a draw and a decline through the API, p50", percentile(draws, 0.5), "s",
                    "GET /api/state p50", ping, "< 50 ms"))
    rows.append(Row("table", "a draw and a decline through the API, p95", percentile(draws, 0.95), "s",
                    "GET /api/state p50", ping, "< 100 ms"))
    rows.append(Row("table", "page load (GET /)", best(lambda: urllib.request.urlopen(base + "/").read(), 10), "s",
                    "GET /api/state p50", ping, "< 200 ms"))
    server.shutdown()

    # an action seen by another phone: from the POST's start to the pushed event reaching a listening page
    server, base = served(work / "push.sqlite")
    actions = iter(["opening-hand", "mulligan"] * 50)  # one action at a time, the library as it was
    pushed = push_delays(server.server_port, lambda: post(f"{base}/api/{next(actions)}", {"player": "Anna"}), 100)
    rows.append(Row("table", "an action pushed to a listening page, p50", percentile(pushed, 0.5), "s",
                    "GET /api/state p50", ping, "< 200 ms"))
    rows.append(Row("table", "an action pushed to a listening page, p95", percentile(pushed, 0.95), "s",
                    "GET /api/state p50", ping, "< 200 ms"))
    server.shutdown()

    # the state read after 10,000 actions against the same read at the start of a session
    resolved = resolve(library, cache.cards)
    session, _ = open_session(resolved, cache, {"Anna": tuple("WUBRGP")}, Path(tempfile.mkdtemp(dir=work)) / "long.sqlite")
    fresh = percentile(timings(session.state, 30), 0.5)
    for _ in range(5_000):  # an opening hand and a mulligan: two actions, the library as it was
        session.opening_hand("Anna")
        session.mulligan("Anna")
    rows.append(Row("table", "state read after 10,000 actions, p50", percentile(timings(session.state, 30), 0.5), "s",
                    "the same read at the start", fresh, "< 1.5x"))


def push_delays(port: int, act: Callable[[], Any], times: int) -> list[float]:
    """Seconds from the start of `act` to the first server-sent event after it, read by a page-like client."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/events")
    stream = connection.getresponse()
    arrived: list[float] = []
    lock = threading.Condition()

    def listen() -> None:
        for line in stream:
            if line.startswith(b"event: change"):
                with lock:
                    arrived.append(time.perf_counter())
                    lock.notify_all()

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


BENCHES = {"sync": bench_sync, "table": bench_table, "builtin": bench_builtin, "export": bench_export, "cli": bench_cli, "generate": bench_generate, "check": bench_check,
           "proxies": bench_proxies}


def main(names: list[str]) -> None:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names or list(BENCHES):
            BENCHES[name](rows, Path(tmp))
    headers = ["section", "what", "value", "baseline", "ratio", "target"]
    table = [[r.section, r.what, _fmt(r.value, r.unit), f"{r.baseline} {_fmt(r.base_value, r.unit)}".strip()
              if r.baseline else "", r.ratio, r.target] for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *table, strict=True)]
    for line in [headers, ["-" * w for w in widths], *table]:
        print("  ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)).rstrip())


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return ""
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    return f"{value:.2f} {unit}"


if __name__ == "__main__":
    main(sys.argv[1:])


