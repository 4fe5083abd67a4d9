"""The one HTTP client (hhdcli/http.py): every wait inside --timeout, Retry-After said or waited."""

from __future__ import annotations

import time
from datetime import UTC

import pytest

from support import LEGACY, PIPS, Hhd, Reply, one_line_error, timed


def test_a_server_trickling_its_headers_is_cut_off_within_three_timeouts(server, tmp_path):
    for path in ("/catalog-manifest.json", "/catalog.json", "/Hellscube-Database.json", "/pips.json"):
        server.routes[path] = Reply(b"{}", slow_headers=1.0)
    start = time.monotonic()
    result = Hhd(tmp_path / "cache", server.url)("--timeout", "2", "sync")
    elapsed = time.monotonic() - start
    assert result.exit_code == 4 and "timed out" in one_line_error(result)
    assert elapsed < 3 * 2, elapsed


def test_a_retry_after_date_far_ahead_says_when_to_try_again(server, tmp_path):
    from datetime import datetime, timedelta
    from email.utils import format_datetime

    later = format_datetime(datetime.now(UTC) + timedelta(hours=2), usegmt=True)
    server.routes["/db.json"] = Reply(b"busy", 503, "text/plain", headers={"Retry-After": later})
    result = Hhd(tmp_path / "cache")("--timeout", "2", "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "try again after" in result.output


def test_a_silent_registry_ends_within_three_timeouts(server, tmp_path):
    for path in ("/catalog-manifest.json", "/catalog.json", "/Hellscube-Database.json", "/pips.json"):
        server.routes[path] = Reply(b"{}", delay=60)  # accepts the connection, never answers
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "--timeout", "1", "sync")
    assert result.exit_code == 4 and "timed out" in result.output
    assert elapsed < 3 * 1 + 2


def test_two_unreachable_hosts_in_a_row_are_one_line(tmp_path):
    """Offline, the catalog's host and the repository's both fail: the second failure happens while the
    first is being handled, and must still be said in one line."""
    from hhdcli.errors import NetworkError
    from hhdcli.registry import RegistryUrls, Syncer

    urls = RegistryUrls(manifest="http://127.0.0.1:9/m.json", catalog="http://127.0.0.1:9/c.json",
                        database="http://127.0.0.2:9/db.json", symbols="http://127.0.0.2:9/pips.json")
    with pytest.raises(NetworkError) as failed:
        Syncer(tmp_path / "cache", urls=urls).run()
    assert "127.0.0.2 refused the connection" in failed.value.message


def test_a_trickling_body_ends_at_the_deadline(server, tmp_path):
    server.routes["/db.json"] = Reply(LEGACY.read_bytes(), trickle=(1024, 0.5))
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "--timeout", "2", "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "timed out" in result.output
    assert elapsed < 2 * 2 + 2


def test_a_long_retry_after_is_not_waited_but_said(server, tmp_path):
    server.routes["/db.json"] = Reply(b"busy", 503, "text/plain", headers={"Retry-After": "3600"})
    run = Hhd(tmp_path / "cache", server.url)
    elapsed, result = timed(run, "sync", "--source", server.url + "/db.json")
    assert result.exit_code == 4 and "asks to wait until" in result.output and "try again after" in result.output
    assert elapsed < 2


def test_a_short_retry_after_is_waited_and_said(server, tmp_path):
    answers = iter([Reply(b"slow down", 429, "text/plain", headers={"Retry-After": "3"})])
    server.routes["/db.json"] = lambda handler: next(answers, Reply(LEGACY.read_bytes()))
    result = Hhd(tmp_path / "cache", server.url)("--timeout", "10", "sync", "--source", server.url + "/db.json",
                                                  "--symbols", str(PIPS))  # 3 s of waiting fits in 10
    assert result.exit_code == 0 and "waiting 3 s: the server asked to (Retry-After)" in result.output


@pytest.mark.parametrize("after", [0.0, 0.001, 0.005, 0.02])
def test_abort_ends_requests_to_a_silent_host_at_once_whatever_they_were_doing(server, after):
    """Ctrl-C's abort, however it falls against requests still connecting, sending or waiting for an answer:
    every one ends now, none waits for the silent host until its deadline."""
    import threading

    from hhdcli.errors import DownloadError
    from hhdcli.http import Client, HttpSettings

    server.routes["/silent.jpg"] = Reply(b"", content_type="image/jpeg", delay=60)
    client = Client(HttpSettings.for_timeout(20))
    client.session  # noqa: B018  (made before the threads, as Fetching does)
    ended: list[float] = []

    def one(index: int) -> None:
        try:
            client.get(f"{server.url}/silent.jpg?{index}", limit=1000)
        except DownloadError:
            ended.append(time.monotonic())

    threads = [threading.Thread(target=one, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(after)
    aborted = time.monotonic()
    client.abort()
    for thread in threads:
        thread.join(timeout=25)
    assert len(ended) == 8
    assert max(ended) - aborted < 2.0, f"{max(ended) - aborted:.1f} s"
