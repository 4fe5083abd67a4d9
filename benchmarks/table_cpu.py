"""The server's CPU per action, in one process through a table's WSGI app (no sockets, no faces): each action,
then every page of its table reading the state as the page does, the descriptions each page lacks asked once.
"now" is the page of issue 48 (the acting page takes the state from its action's answer, X-Want-State, and every
read sends its ETag: a 304 when unchanged); "before" the page before it (a read after its own action and one at
the push, no ETag, the drawn card's description asked again). Only the time inside the app is counted, not the
test client's; `--profile` prints cProfile's heaviest calls. Works on an older checkout too (`--server-root`).
Both read the state at each push as pages did before the push carried it (2026-12-05); the page as it is now, with
its event streams, is measured by table_browserlike.py.

    .venv/bin/python benchmarks/table_cpu.py                  # now, 400 actions on 4 tables of 5
    .venv/bin/python benchmarks/table_cpu.py --before --server-root /tmp/hhd-main
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--before", action="store_true", help="the page as it was before issue 48")
    parser.add_argument("--server-root", type=Path, default=ROOT)
    parser.add_argument("--profile", action="store_true", help="print cProfile's heaviest calls")
    args = parser.parse_args()
    sys.path[:0] = [str(args.server_root), str(ROOT / "tests")]
    from support import LEGACY, PIPS

    with tempfile.TemporaryDirectory(prefix="hhd-cpu-") as work_dir:
        work = Path(work_dir)
        env = {**os.environ, "HHD_CACHE_DIR": str(work / "cache"), "PYTHONPATH": str(args.server_root)}
        subprocess.run([sys.executable, "-m", "hhdcli", "sync", "--source", str(LEGACY), "--symbols", str(PIPS)],
                       env=env, check=True, capture_output=True, cwd=args.server_root)
        print(json.dumps(measure(args, work)))


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:  # noqa: C901 (the pages' script, in one place)
    from hhdcli.cache import load_cache
    from hhdcli.table.game.changes import Changes
    from hhdcli.table.hosting.community import Community, Seat
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.throttle import Throttle

    now, spent = not args.before, [0.0]
    community = Community(work / "tables", load_cache(work / "cache"), Public(), Throttle(), Changes)
    random.seed(1)
    tables = []
    for t in range(args.tables):
        code = community.open([Seat(f"P{i}", "WUBRG"[i] + "WUBRG"[(i + 2) % 5]) for i in range(5)], f"cpu-{t}",
                              None).code
        if hasattr(community, "table_for"):  # one app for every table (its guards on it), told which by the request
            from hhdcli.table.web.context import SERVED

            app: Any = community.app
            environ = {SERVED: community.table_for(code)}
        else:  # an app per table (an older checkout)
            app, environ = community.app_for(code), {}
        client = app.test_client()
        client.environ_base.update(environ)
        if not getattr(app, "timed", False):
            inner = app.wsgi_app

            def timed(environ: Any, start_response: Any, inner: Any = inner) -> Any:
                began = time.process_time()
                try:
                    return inner(environ, start_response)
                finally:
                    spent[0] += time.process_time() - began

            app.wsgi_app, app.timed = timed, True
        pages = []
        for i in range(5):
            joined = client.post("/api/join", json={"player": f"P{i}"}, headers={"Authorization": f"Table code={code}"})
            pages.append({"headers": {"Authorization": f"Table code={code}, player={joined.json['token']}"}, "etag": "",
                          "described": set(), "state": None})
        tables.append((client, pages))

    def shown(client: Any, page: dict[str, Any], state: dict[str, Any], tag: str) -> None:
        refs = [*state["sideboard"], *(c for p in state["players"] for c in [*p["cards"], *p["played"]])]
        missing = sorted({c["id"] for c in refs if c["hell"] and c["id"] not in page["described"]})
        if missing:
            page["described"].update(client.get("/api/cards?ids=" + ",".join(missing), headers=page["headers"]).json)
        page["state"], page["etag"] = state, tag

    def read(client: Any, page: dict[str, Any]) -> None:
        sent = {**page["headers"], **({"If-None-Match": page["etag"]} if now and page["etag"] else {})}
        answer = client.get("/api/state", headers=sent)
        if answer.status_code == 200:
            shown(client, page, answer.json, answer.headers.get("ETag", ""))

    def act(client: Any, pages: list[dict[str, Any]], i: int, action: str, body: dict[str, Any]) -> None:
        page = pages[i]
        answer = client.post(f"/api/{action}", json=body,
                             headers={**page["headers"], **({"X-Want-State": "1"} if now else {})})
        said = answer.json
        if now and answer.status_code == 200 and said.get("state"):
            page["described"].update(c["id"] for c in [said, *(said.get("cards") or [])] if c.get("hell"))
            shown(client, page, said["state"], said["state_etag"])
        else:
            read(client, page)
        for other in pages:  # the push: every page of the table reads
            read(client, other)

    def turn(client: Any, pages: list[dict[str, Any]], i: int) -> None:
        state = pages[i]["state"]
        me = next(p for p in state["players"] if p["name"] == f"P{i}")
        roll = random.random()
        if me["opening"] is None:
            act(client, pages, i, "opening-hand", {})
        elif me["opening"] == "dealt":
            act(client, pages, i, "keep", {"bottom": []})
        elif me["pending"]:
            act(client, pages, i, random.choice(("take", "decline")), {})
        elif i == 0 and state["library_count"] < 30:
            act(client, pages, i, "end-game", {"confirm": True, "game": state["game"]})
        elif roll < 0.15 and me["cards"]:
            act(client, pages, i, "play", {"position": random.choice(me["cards"])["position"]})
        elif roll < 0.25:
            act(client, pages, i, "life", {"whose": f"P{random.randrange(5)}", "delta": -1})
        elif roll < 0.30:
            act(client, pages, i, "undo", {})
        else:
            act(client, pages, i, "draw", {})

    for client, pages in tables:
        for page in pages:
            read(client, page)
    for _ in range(60):  # the opening hands and the first descriptions
        client, pages = random.choice(tables)
        turn(client, pages, random.randrange(5))
    gc.collect()
    profile = None
    if args.profile:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    spent[0], began = 0.0, time.perf_counter()
    for _ in range(args.actions):
        client, pages = random.choice(tables)
        turn(client, pages, random.randrange(5))
    if profile is not None:
        import pstats

        profile.disable()
        pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(r"hhdcli|flask|werkzeug", 40)
    return {"page": "before" if args.before else "now", "actions": args.actions,
            "server_cpu_ms_per_action": round(spent[0] * 1000 / args.actions, 2),
            "wall_ms_per_action": round((time.perf_counter() - began) * 1000 / args.actions, 2),
            "load_average_1min": round(os.getloadavg()[0], 1)}


if __name__ == "__main__":
    main()
