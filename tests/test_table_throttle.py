"""Requests per client address (hhdcli/table/hosting/throttle.py): each kind's rules counted in `limits`' moving window
per address, a refusal saying when to come back, a refused request counted by no rule, and no thread started to
count (the gevent server runs every table's requests on one thread)."""

from __future__ import annotations

import threading
import time

from hhdcli.table.hosting.throttle import SWEEP_EVERY, Throttle


def test_an_address_past_its_rule_is_told_when_to_come_back_and_let_through_when_the_window_moves():
    throttle = Throttle({"post": "3/second"})
    assert [throttle.wait("post", "10.0.0.1") for _ in range(3)] == [0, 0, 0]
    assert throttle.wait("post", "10.0.0.1") == 1  # at least a second: Retry-After is whole seconds
    assert throttle.wait("post", "10.0.0.2") == 0  # another address has its own count
    time.sleep(1.05)
    assert throttle.wait("post", "10.0.0.1") == 0


def test_every_rule_of_a_kind_counts_and_a_refused_request_counts_for_none():
    throttle = Throttle({"short": "2/second;3/minute"})
    first = [throttle.wait("short", "10.0.0.1") for _ in range(3)]
    time.sleep(1.05)
    second = [throttle.wait("short", "10.0.0.1") for _ in range(2)]
    assert [bool(a) for a in first] == [False, False, True]  # the second's rule
    # the refused third was counted by neither rule: the minute's rule lets one more through, then refuses
    assert second[0] == 0 and second[1] > 1


def test_no_thread_is_started_to_count_and_quiet_addresses_are_swept(monkeypatch):
    throttle = Throttle({"join": "30/second"})
    time.sleep(0.05)  # the store's own first sweep, started as it is made, is over
    started: list[threading.Thread] = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread), real_start(thread))[1])
    for address in range(200):
        throttle.wait("join", f"10.0.0.{address}")
        if address == 100:
            time.sleep(0.05)  # limits' own store would start its sweeping thread again after a quiet moment
    assert started == []
    events = throttle._limiter.storage.events  # limits' store: the counted requests by rule and address
    assert len(events) == 200
    time.sleep(max(1.05, SWEEP_EVERY))
    throttle.wait("join", "10.9.9.9")  # the next request sweeps the addresses whose requests all left the window
    assert len(events) == 1 and started == []
