"""The USB buzzer box over a real pty: bad bytes, split lines, unplug and replug."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from buzzers_fixtures import PtyPair, Recorder, point
from companion.buzzers import SerialBuzzers
from companion.buzzers.protocol import WRAP, encode_hello, encode_press, encode_release


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "spicy-buzzers"


@pytest.fixture
def box(link: Path) -> Iterator[PtyPair]:
    pair = PtyPair()
    point(link, pair.path)
    yield pair
    pair.close()


@pytest.fixture
def buzzers(link: Path, box: PtyPair) -> Iterator[SerialBuzzers]:
    buzzers = SerialBuzzers([str(link)], reconnect_ms=20)
    assert buzzers.wait_connected(5)
    box.read_until(b"?\n")  # the host asks who is there as soon as it opens the port
    yield buzzers
    buzzers.close()


def micros(seconds: float) -> int:
    return round(seconds * 1e6)


def test_presses_arrive_with_the_box_time(box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    box.write(encode_hello(6) + encode_press(2, micros(1.5)) + encode_press(4, micros(1.5123)))
    assert presses.next() == (2, 1.5)
    assert presses.next() == (4, 1.5123)
    assert (buzzers.version, buzzers.seats, buzzers.notice) == (1, 6, "")


def test_garbage_overlong_bad_numbers_and_split_lines_never_lose_a_press(
    box: PtyPair, buzzers: SerialBuzzers
) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    rng = random.Random(7)
    expected = []
    for i in range(40):
        expected.append((i % 6, micros(10 + i * 0.01)))
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).replace(b"\n", b"")
        chunks = [
            noise + b"\n",  # random bytes
            b"X" * 500 + b"\n",  # overlong
            b"P 1 12x45\nP 99 5\nP 2 -4\nP 3 99999999999\n",  # bad numbers
            encode_press(*expected[-1]),
        ]
        stream = b"".join(chunks)
        cut = rng.randrange(1, len(stream))
        box.write(stream[:cut])  # a line split across reads
        box.write(stream[cut:])
    got = [presses.next() for _ in expected]
    assert got == [(seat, us / 1e6) for seat, us in expected]
    assert buzzers.stats["overlong"] >= 40
    assert buzzers.stats["garbage"] >= 4 * 40
    assert buzzers.held() == {seat for seat, _ in expected}


def test_microsecond_clock_wraparound_is_unwrapped(box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    box.write(encode_press(0, WRAP - 1000) + encode_press(1, 500))
    (_, before), (_, after) = presses.next(), presses.next()
    assert round((after - before) * 1e6) == 1500


def test_port_vanishing_mid_read_then_coming_back(link: Path, box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses, releases = Recorder(), Recorder()
    buzzers.on_press, buzzers.on_release = presses, releases
    buzzers.arm({1, 3})
    assert box.read_until(b"L 10\n").endswith(b"L 10\n")
    box.write(encode_press(1, 100) + b"P 2 12")  # unplugged mid-line
    assert presses.next() == (1, 0.0001)
    box.close()
    second = PtyPair()  # plugged back in: a new device node, the udev link follows it
    try:
        point(link, second.path)
        assert buzzers.wait_connected(5)
        assert second.read_until(b"L 10\n").endswith(b"?\nL 10\n")  # asks, then restores the lights
        second.write(encode_hello(6) + encode_press(3, 200) + encode_release(3, 900))
        assert presses.next() == (3, 0.0002)
        assert releases.next() == (3, 0.0009)
        assert buzzers.stats["reconnects"] == 1 and buzzers.stats["partial"] == 1
        assert presses.empty_after(0.05)  # the cut-off "P 2 12" never became a press
    finally:
        buzzers.close()
        second.close()


def test_waits_with_a_notice_when_no_port_opens(tmp_path: Path) -> None:
    buzzers = SerialBuzzers([str(tmp_path / "missing")], reconnect_ms=10)
    try:
        assert not buzzers.wait_connected(0.1)
        assert "waiting for the buzzer box" in buzzers.notice
    finally:
        buzzers.close()


def test_an_old_box_gets_a_notice(box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    box.write(b"HELLO spicy-buzzers 7 4\n" + encode_press(0, 1))
    presses.next()
    assert "protocol 7" in buzzers.notice and buzzers.seats == 4
