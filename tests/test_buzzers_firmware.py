"""The Pico firmware, run on the host with stand-ins for MicroPython's ``machine``.

It imports the host's own protocol and debounce modules, so what it sends is
checked here against the host decoder, end to end through SerialBuzzers' parts.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest

from companion.buzzers import debounce, protocol

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "firmware" / "main.py"
TICKS_PERIOD = 2**30  # the Pico's ticks_us wraps here


def ticks_diff(later: int, earlier: int) -> int:
    return (later - earlier + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2


class Pin:
    IN, OUT, PULL_UP, IRQ_FALLING, IRQ_RISING = 0, 1, 2, 4, 8

    def __init__(self, number: int = 0, *args: object, value: int = 0) -> None:
        self.number, self.level = number, value

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
        return self.level


@pytest.fixture
def firmware(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin))
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace())
    monkeypatch.setitem(sys.modules, "protocol", protocol)
    monkeypatch.setitem(sys.modules, "debounce", debounce)
    spec = importlib.util.spec_from_file_location("buzzer_box_main", FIRMWARE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decoded(lines: list[bytes]) -> list[tuple]:
    return [protocol.decode(line) for line in lines]


def test_presses_and_releases_reach_the_host_decoder(firmware: types.ModuleType) -> None:
    box = firmware.Box(6, [], now_ticks=1000, ticks_diff=ticks_diff)
    box.queue.put(3, 0, 1500)
    box.queue.put(1, 0, 1700)
    box.queue.put(3, 1, 90_000)
    assert decoded(box.step(now_ticks=100_000)) == [
        (protocol.PRESS, 3, 500),
        (protocol.PRESS, 1, 700),
        (protocol.RELEASE, 3, 89_000),
    ]


def test_bounce_is_swallowed_on_the_box_keeping_the_first_edge(firmware: types.ModuleType) -> None:
    box = firmware.Box(6, [], now_ticks=0, ticks_diff=ticks_diff)
    for i in range(20):
        box.queue.put(2, i % 2, 100 + i * 150)
    assert decoded(box.step(now_ticks=5000)) == [(protocol.PRESS, 2, 100)]


def test_ticks_wrapping_at_2_30_become_a_growing_32_bit_clock(firmware: types.ModuleType) -> None:
    start = TICKS_PERIOD - 100
    box = firmware.Box(6, [], now_ticks=start, ticks_diff=ticks_diff)
    box.queue.put(0, 0, 50)  # just after the Pico's wrap
    assert decoded(box.step(now_ticks=60)) == [(protocol.PRESS, 0, 150)]
    host_clock, elapsed, expected, times = protocol.Unwrapper(), 150, [], []
    for i in range(20):  # 20 quarter-periods: past 2**32 µs, so both clocks wrap
        elapsed += TICKS_PERIOD // 4
        edge_ticks = (start + elapsed) % TICKS_PERIOD
        box.queue.put(0, (i + 1) % 2, edge_ticks)  # release, press, release, ...
        lines = box.step(now_ticks=(edge_ticks + 10) % TICKS_PERIOD)
        times += [host_clock.unwrap(message[2]) for message in decoded(lines)]
        expected.append(elapsed)
    assert times == expected and times[-1] > 2**32


def test_lights_and_hello_answer_the_host(firmware: types.ModuleType) -> None:
    leds = [Pin(n) for n in range(6)]
    box = firmware.Box(6, leds, now_ticks=0, ticks_diff=ticks_diff)
    assert box.receive(b"garbage\xff\nL 4") == []
    assert [led.level for led in leds] == [0] * 6  # "L 4" is not a line until its newline
    assert box.receive(b"\n") == []
    assert [led.level for led in leds] == [0, 0, 1, 0, 0, 0]
    replies = box.receive(protocol.encode_lights(0b101001) + protocol.encode_query())
    assert [led.level for led in leds] == [1, 0, 0, 1, 0, 1]
    assert decoded(replies) == [(protocol.HELLO, protocol.VERSION, 6)]


def test_a_full_queue_drops_edges_instead_of_failing(firmware: types.ModuleType) -> None:
    queue = firmware.EdgeQueue(4)
    for i in range(10):
        queue.put(0, i % 2, i)
    assert queue.dropped == 7
    assert [queue.get(), queue.get(), queue.get(), queue.get()] == [(0, 0, 0), (0, 1, 1), (0, 0, 2), None]
