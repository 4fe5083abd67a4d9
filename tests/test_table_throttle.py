"""Requests per client address (hhdcli/table/throttle.py): each kind's rules counted in a moving window per
address, a refusal saying when to come back, and no thread of its own (the gevent server runs every table's
requests on one thread)."""

from __future__ import annotations

import threading

from hhdcli.table.throttle import Throttle


class Clock:
    """Seconds the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_past_its_rule_is_told_when_to_come_back_and_let_through_when_the_window_moves():
    clock = Clock()
    throttle = Throttle({"post": "3/minute"}, clock)
    for second in (0, 10, 20):
        clock.now = 1000.0 + second
        assert throttle.wait("post", "10.0.0.1") == 0
    clock.now = 1030.0
    assert throttle.wait("post", "10.0.0.1") == 31  # the first request leaves the window at 1060
    assert throttle.wait("post", "10.0.0.2") == 0  # another address has its own count
    clock.now = 1060.5
    assert throttle.wait("post", "10.0.0.1") == 0  # the refused requests were not counted
    assert throttle.wait("post", "10.0.0.1") == 1 + int(1070 - 1060.5)  # the window holds 10, 20 and 60.5


def test_every_rule_of_a_kind_counts_and_a_refused_request_counts_for_none():
    clock = Clock()
    throttle = Throttle({"short": "2/minute;3/hour"}, clock)
    answers = []
    for minute in range(4):
        clock.now = 1000.0 + 61 * minute
        answers.append([throttle.wait("short", "10.0.0.1") for _ in range(3)])
    assert [[0 if a == 0 else "refused" for a in row] for row in answers] == [
        [0, 0, "refused"], [0, "refused", "refused"], ["refused"] * 3, ["refused"] * 3]
    assert answers[3][0] == 1 + int(1000 + 3600 - clock.now)  # the hour's first request must leave its window


def test_quiet_addresses_are_forgotten_and_no_thread_is_started():
    clock = Clock()
    throttle = Throttle({"join": "30/minute"}, clock)
    before = threading.active_count()
    for address in range(200):
        throttle.wait("join", f"10.0.0.{address}")
    assert threading.active_count() == before
    clock.now += 3600
    throttle.wait("join", "10.9.9.9")  # the next request sweeps the addresses whose requests all left the window
    assert throttle.wait("join", "10.0.0.1") == 0
    assert len(throttle._hits) == 2
