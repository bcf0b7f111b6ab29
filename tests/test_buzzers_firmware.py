"""The Pico firmware, run on the host with stand-ins for MicroPython's ``machine``.

It imports the host's own protocol and debounce modules, so what it sends is
checked here against the host decoder, and through a real pty against
SerialBuzzers itself.
"""

from __future__ import annotations

import importlib.util
import io
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from buzzers_fixtures import PtyPair, Recorder
from companion.buzzers import SerialBuzzers, debounce, protocol
from companion.buzzers.arbiter import Arbiter

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "firmware" / "main.py"
TICKS_PERIOD = 2**30  # the Pico's ticks_us wraps here
MS = 1000  # ticks_us per millisecond


def ticks_diff(later: int, earlier: int) -> int:
    return (later - earlier + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2


class Pin:
    IN, OUT, PULL_UP, IRQ_FALLING, IRQ_RISING = 0, 1, 2, 4, 8

    def __init__(self, number: int = 0, *args: object, value: int = 0) -> None:
        self.number, self.level, self.handler = number, value, None

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
        return self.level

    def irq(self, handler, trigger: int, hard: bool) -> None:
        self.handler = handler


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


def levels(*down: int, pins: tuple[int, ...] = (2, 3, 4, 5, 6, 7)) -> int:
    """A GPIO_IN snapshot: every button pin high (pull-up) but those of the seats held down."""
    return 0xFFFF & ~sum(1 << pins[seat] for seat in down)


def new_box(firmware: types.ModuleType, now: int = 0, leds: list | None = None, held: tuple[int, ...] = ()):
    return firmware.Box(firmware.BUTTON_PINS, leds or [], now, ticks_diff, levels(*held))


def presses_and_releases(lines: list[bytes]) -> list[tuple]:
    return [m for m in map(protocol.decode, lines) if m[0] in (protocol.PRESS, protocol.RELEASE)]


def test_presses_and_releases_reach_the_host_decoder(firmware: types.ModuleType) -> None:
    box = new_box(firmware, now=1000)
    box.queue.put(levels(3), 1500)
    box.queue.put(levels(3, 1), 1700)
    box.queue.put(levels(1), 90_000)
    lines = presses_and_releases(box.step(100_000, levels(1)))
    assert sorted(lines, key=lambda line: line[2]) == [
        (protocol.PRESS, 3, 500),
        (protocol.PRESS, 1, 700),
        (protocol.RELEASE, 3, 89_000),
    ]


def test_bounce_is_swallowed_on_the_box_keeping_the_first_edge(firmware: types.ModuleType) -> None:
    box = new_box(firmware)
    for i in range(21):  # down, up, down, ... ending down
        box.queue.put(levels(2) if i % 2 == 0 else levels(), 100 + i * 150)
    assert presses_and_releases(box.step(5 * MS, levels(2))) == [(protocol.PRESS, 2, 100)]


def test_a_glitch_is_not_sent_and_a_short_tap_is_released(firmware: types.ModuleType) -> None:
    box = new_box(firmware)
    box.queue.put(levels(4), 1000)  # 2 µs of crosstalk on seat 4
    box.queue.put(levels(), 1002)
    box.queue.put(levels(5), 3000)  # a 4 ms tap on seat 5
    box.queue.put(levels(), 7000)
    assert presses_and_releases(box.step(8 * MS, levels())) == [(protocol.PRESS, 5, 3000)]
    assert presses_and_releases(box.step(20 * MS, levels())) == [(protocol.RELEASE, 5, 7000)]


def test_two_seats_in_one_interrupt_get_one_time_and_are_a_tie(firmware: types.ModuleType) -> None:
    box = new_box(firmware)
    box.queue.put(levels(0, 5), 2000)  # one snapshot: seat 5's pin fired first, seat 0's handler ran first
    lines = presses_and_releases(box.step(5 * MS, levels(0, 5)))
    assert lines == [(protocol.PRESS, 0, 2000), (protocol.PRESS, 5, 2000)]
    arbiter = Arbiter(range(6), settle=0.030)
    for _, seat, micros in lines:
        arbiter.press(seat, micros / 1e6)
    decision = arbiter.poll(1.0)
    assert decision is not None and (decision.winner, decision.tie) == (None, (0, 5))


def test_ticks_wrapping_at_2_30_become_a_growing_32_bit_clock(firmware: types.ModuleType) -> None:
    start = TICKS_PERIOD - 100
    box = new_box(firmware, now=start)
    box.queue.put(levels(0), 50)  # just after the Pico's wrap
    assert presses_and_releases(box.step(5 * MS, levels(0))) == [(protocol.PRESS, 0, 150)]
    host_clock, elapsed, expected, times = protocol.Unwrapper(), 150, [], []
    host_clock.unwrap(150)
    for i in range(20):  # 20 quarter-periods: past 2**32 µs, so both clocks wrap
        elapsed += TICKS_PERIOD // 4
        edge_ticks = (start + elapsed) % TICKS_PERIOD
        now = levels() if i % 2 == 0 else levels(0)  # release, press, release, ...
        box.queue.put(now, edge_ticks)
        lines = box.step((edge_ticks + 5 * MS) % TICKS_PERIOD, now)
        times += [host_clock.unwrap(message[2]) for message in presses_and_releases(lines)]
        expected.append(elapsed)
    assert times == expected and times[-1] > 2**32


def test_hello_answers_with_the_held_buttons_and_the_box_time(firmware: types.ModuleType) -> None:
    leds = [Pin(n) for n in range(6)]
    box = new_box(firmware, now=0, leds=leds, held=(1,))
    box.step(0, levels(1))
    assert box.receive(b"garbage\xff\nL 4", 0) == []
    assert [led.level for led in leds] == [0] * 6  # "L 4" is not a line until its newline
    assert box.receive(b"\n", 0) == []
    assert [led.level for led in leds] == [0, 0, 1, 0, 0, 0]
    replies = box.receive(protocol.encode_lights(0b101001) + protocol.encode_query(), 12_345)
    assert [led.level for led in leds] == [1, 0, 0, 1, 0, 1]
    assert list(map(protocol.decode, replies)) == [(protocol.HELLO, protocol.VERSION, 6, 0b10, 12_345)]


def test_arm_lights_the_seats_and_answers_with_the_box_time(firmware: types.ModuleType) -> None:
    leds = [Pin(n) for n in range(6)]
    box = new_box(firmware, leds=leds)
    replies = box.receive(protocol.encode_arm(0b000110), 40_000)
    assert [led.level for led in leds] == [0, 1, 1, 0, 0, 0]
    assert list(map(protocol.decode, replies)) == [(protocol.OPENED, 40_000)]


def test_heartbeat_every_half_second_with_the_dropped_count(firmware: types.ModuleType) -> None:
    box = new_box(firmware)

    def heartbeats(now: int) -> list[tuple]:
        return [m for m in map(protocol.decode, box.step(now, levels())) if m[0] == protocol.HEARTBEAT]

    assert heartbeats(0) == [(protocol.HEARTBEAT, 0, 0)]
    assert heartbeats(400 * MS) == []
    for i in range(firmware.QUEUE_SIZE + 9):  # a storm of edges with no loop to drain them
        box.queue.put(levels() if i % 2 else levels(3), 450 * MS + i)
    assert heartbeats(500 * MS) == [(protocol.HEARTBEAT, 500 * MS, 10)]


@pytest.fixture
def host() -> Iterator[tuple[PtyPair, SerialBuzzers]]:
    pair = PtyPair()
    buzzers = SerialBuzzers([pair.path], reconnect_ms=20)
    yield pair, buzzers
    buzzers.close()
    pair.close()


def test_the_host_ignores_what_the_box_sent_before_it_asked(firmware: types.ModuleType, host) -> None:
    pair, buzzers = host
    presses = Recorder()
    buzzers.on_press = presses
    box = new_box(firmware)
    box.queue.put(levels(2), 1000)  # pressed while the host was away; sent as the port opens
    pair.read_until(b"?\n")
    pair.write(b"".join(box.step(5 * MS, levels(2))))
    pair.write(b"".join(box.step(30 * MS, levels())))  # released
    pair.write(b"".join(box.receive(protocol.encode_query(), 31 * MS)))
    box.queue.put(levels(4), 40 * MS)
    pair.write(b"".join(box.step(45 * MS, levels(4))))
    assert presses.next() == (4, 0.040)  # the HELLO reset the host's clock to the box's
    assert presses.empty_after(0.05)
    assert buzzers.stats["stale"] == 3  # heartbeat, press and release from before the question


def test_a_dropped_edge_count_reaches_the_host(firmware: types.ModuleType, host) -> None:
    pair, buzzers = host
    box = new_box(firmware)
    pair.read_until(b"?\n")
    pair.write(b"".join(box.receive(protocol.encode_query(), 0)))
    assert buzzers.wait_connected(20)
    for i in range(firmware.QUEUE_SIZE + 4):
        box.queue.put(levels() if i % 2 else levels(3), 100 + i)
    pair.write(b"".join(box.step(600 * MS, levels())))
    deadline = Recorder()
    while buzzers.stats["dropped"] != 5:
        assert deadline.empty_after(0.01)
    assert buzzers.notice == "the buzzer box had no room for 5 edges: presses may be missing"


def test_main_turns_off_ctrl_c_and_stamps_all_buttons_at_once(
    firmware: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One pass of the real main loop with stand-ins for the board; ``sleep_ms`` ends it."""
    ctrl_c: list[int] = []
    gpio = {firmware.GPIO_IN: levels()}
    pins: list[Pin] = []
    boxes: list = []
    out = io.BytesIO()

    class Stop(Exception):
        pass

    def sleep_ms(ms: int) -> None:
        raise Stop

    class BoardPin(Pin):
        def __init__(self, *args: object, **kwargs: int) -> None:
            super().__init__(*args, **kwargs)
            pins.append(self)

    class WatchedBox(firmware.Box):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)
            boxes.append(self)

    board_time = types.SimpleNamespace(ticks_us=lambda: 7000, ticks_diff=ticks_diff, sleep_ms=sleep_ms)
    no_input = types.SimpleNamespace(register=lambda *args: None, poll=lambda timeout: [])
    monkeypatch.setattr(firmware, "Pin", BoardPin)
    monkeypatch.setattr(firmware, "Box", WatchedBox)
    monkeypatch.setattr(firmware, "machine", types.SimpleNamespace(mem16=gpio))
    monkeypatch.setattr(firmware, "micropython", types.SimpleNamespace(
        kbd_intr=ctrl_c.append, alloc_emergency_exception_buf=lambda size: None))
    monkeypatch.setattr(firmware, "time", board_time)
    monkeypatch.setattr(firmware, "select", types.SimpleNamespace(poll=lambda: no_input, POLLIN=1))
    monkeypatch.setattr(firmware, "sys", types.SimpleNamespace(stdin=None, stdout=types.SimpleNamespace(buffer=out)))
    with pytest.raises(Stop):
        firmware.main()
    assert ctrl_c == [-1]
    assert [protocol.decode(line)[0] for line in out.getvalue().splitlines()] == [protocol.HEARTBEAT]  # no HELLO
    buttons = [pin for pin in pins if pin.number in firmware.BUTTON_PINS]
    gpio[firmware.GPIO_IN] = levels(1, 4)  # seats 1 and 4 slapped together
    buttons[1].handler(buttons[1])  # the rp2 port runs handlers in pin order
    buttons[4].handler(buttons[4])
    queue = boxes[0].queue
    assert queue.get() == queue.get() == (levels(1, 4), 7000)


BOOT = FIRMWARE.with_name("boot.py")
RULE = FIRMWARE.parent.parent.parent / "systemd" / "99-spicy-buzzers.rules"


class USBDevice:
    """MicroPython's ``machine.USBDevice`` (1.23+), as far as boot.py uses it: what it was told, in order."""

    BUILTIN_DEFAULT = types.SimpleNamespace(desc_dev=b"device descriptor", desc_cfg=b"config descriptor")
    calls: list[tuple] = []

    def __init__(self) -> None:
        self.builtin_driver = None

    def active(self, value: bool) -> None:
        self.calls.append(("active", value, self.builtin_driver))

    def config(self, desc_dev: bytes, desc_cfg: bytes, desc_strs: dict[int, str]) -> None:
        self.calls.append(("config", desc_dev, desc_cfg, desc_strs))


def run_boot(monkeypatch: pytest.MonkeyPatch, machine: object) -> None:
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "protocol", protocol)
    spec = importlib.util.spec_from_file_location("buzzer_box_boot", BOOT)
    assert spec and spec.loader
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def test_boot_names_the_usb_device_with_the_product_the_udev_rule_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    USBDevice.calls = []
    run_boot(monkeypatch, types.SimpleNamespace(USBDevice=USBDevice))
    builtin = USBDevice.BUILTIN_DEFAULT
    assert USBDevice.calls == [
        ("active", False, None),
        ("config", builtin.desc_dev, builtin.desc_cfg, {2: protocol.USB_PRODUCT}),  # MicroPython's iProduct is 2
        ("active", True, builtin),  # the REPL's own serial port stays: the protocol runs over it
    ]
    rules = [line for line in RULE.read_text().splitlines() if line and not line.startswith("#")]
    assert rules and all(
        'ATTRS{idVendor}=="2e8a"' in rule and f'ATTRS{{product}}=="{protocol.USB_PRODUCT}"' in rule for rule in rules
    ), rules  # any other Pico, an Uno or a CH340 adapter gets no /dev/spicy-buzzers


def test_boot_on_a_micropython_without_usb_device_leaves_usb_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    run_boot(monkeypatch, types.SimpleNamespace())  # MicroPython before 1.23: nothing to call, nothing raised
