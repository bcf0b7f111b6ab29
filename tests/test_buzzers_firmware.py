"""The Pico firmware, run on the host with stand-ins for MicroPython's ``machine``.

It imports the host's own protocol and debounce modules, so what it sends is
checked here against the host decoder, and through a real pty against
SerialBuzzers itself.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import select
import sys
import threading
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


class PWM:
    """``machine.PWM`` as far as the firmware uses it: the duty it was last given, of 65535."""

    def __init__(self, pin: Pin) -> None:
        self.pin, self.hz, self.duty = pin, 0, -1

    def freq(self, hz: int) -> None:
        self.hz = hz

    def duty_u16(self, duty: int) -> None:
        assert 0 <= duty <= 65535
        self.duty = duty


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


def on_off_lights(firmware: types.ModuleType) -> list:
    """Six LEDs on pins without PWM."""
    return [firmware.Light(Pin(n)) for n in range(6)]


def lit(lights: list) -> list[int]:
    return [light.pin.level for light in lights]


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
    leds = on_off_lights(firmware)
    box = new_box(firmware, now=0, leds=leds, held=(1,))
    box.step(0, levels(1))
    assert box.receive(b"garbage\xff\nL 4", 0) == []
    assert lit(leds) == [0] * 6  # "L 4" is not a line until its newline
    assert box.receive(b"\n", 0) == []
    assert lit(leds) == [0, 0, 1, 0, 0, 0]
    replies = box.receive(protocol.encode_lights(0b101001) + protocol.encode_query(), 12_345)
    assert lit(leds) == [1, 0, 0, 1, 0, 1]
    assert list(map(protocol.decode, replies)) == [(protocol.HELLO, protocol.VERSION, 6, 0b10, 12_345)]


def test_arm_lights_the_seats_and_answers_with_the_box_time(firmware: types.ModuleType) -> None:
    leds = on_off_lights(firmware)
    box = new_box(firmware, leds=leds)
    replies = box.receive(protocol.encode_arm(0b000110), 40_000)
    assert lit(leds) == [0, 1, 1, 0, 0, 0]
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


def pwm_lights(firmware: types.ModuleType) -> list:
    """Six LEDs on PWM pins."""
    return [firmware.Light(pin, PWM(pin)) for pin in map(Pin, range(6))]


def duties(lights: list) -> list[int]:
    return [light.pwm.duty for light in lights]


def test_the_seat_to_play_brightens_and_dims_by_pwm_beside_steady_lights(firmware: types.ModuleType) -> None:
    lights = pwm_lights(firmware)
    box = new_box(firmware, leds=lights)
    full, period = firmware.FULL, firmware.PULSE_US
    box.receive(protocol.encode_lights(0b000011) + protocol.encode_turn(0b000100), 0)
    assert duties(lights) == [full, full, 0, 0, 0, 0]  # the pulse starts dark
    seen = []
    for ms in range(0, 2 * period // MS + 1, 50):  # two periods
        box.step(ms * MS, levels())
        seen.append(lights[2].pwm.duty)
        assert duties(lights)[:2] == [full, full] and duties(lights)[3:] == [0, 0, 0]
    half = len(seen) // 4  # samples in half a period
    rising, falling = seen[: half + 1], seen[half : 2 * half + 1]
    assert rising == sorted(rising) and falling == sorted(falling, reverse=True)
    assert rising[0] == 0 and rising[-1] > 0.95 * full and falling[-1] == 0
    assert len(set(rising)) == len(rising)  # every step brighter than the last: a pulse, not a blink
    assert seen[2 * half :] == seen[: 2 * half + 1]  # and again, the same


def test_a_pulse_follows_the_turn_keeps_through_lights_and_stops(firmware: types.ModuleType) -> None:
    lights = pwm_lights(firmware)
    box = new_box(firmware, leds=lights)
    full, quarter = firmware.FULL, firmware.PULSE_US // 4
    box.receive(protocol.encode_turn(0b000100), 0)
    box.step(quarter, levels())
    assert 0 < lights[2].pwm.duty < full
    box.receive(protocol.encode_arm(0b000110), quarter)  # seats 1 and 2 armed: 2 is to play, and pulses on
    assert duties(lights)[:3] == [0, full, duties_at(firmware, quarter)]  # no flash of 2's steady light
    box.step(2 * quarter, levels())
    assert duties(lights)[:2] == [0, full] and lights[2].pwm.duty > duties_at(firmware, quarter)
    box.receive(protocol.encode_turn(0b001000), 2 * quarter)  # seat 3's turn: 2 goes back to its light
    box.step(3 * quarter, levels())
    assert duties(lights)[:3] == [0, full, full] and 0 < lights[3].pwm.duty < full
    box.receive(protocol.encode_turn(0), 3 * quarter)  # a winner shown: nothing pulses
    assert duties(lights) == [0, full, full, 0, 0, 0]
    for step in range(4, 12):
        box.step(step * quarter, levels())
        assert duties(lights) == [0, full, full, 0, 0, 0]


def duties_at(firmware: types.ModuleType, phase: int) -> int:
    light = firmware.Light(Pin(), PWM(Pin()))
    light.pulse(phase)
    return light.pwm.duty


def test_without_pwm_the_seat_to_play_blinks_slowly(firmware: types.ModuleType) -> None:
    lights = on_off_lights(firmware)
    box = new_box(firmware, leds=lights)
    box.receive(protocol.encode_lights(0b100000) + protocol.encode_turn(0b000001), 0)
    seen = []
    for ms in range(0, 3200, 100):
        box.step(ms * MS, levels())
        seen.append(lights[0].pin.level)
        assert lit(lights)[1:] == [0, 0, 0, 0, 1]
    assert seen == ([1] * 8 + [0] * 8) * 2  # 0.8 s on, 0.8 s off, as the Pi's LEDs blink
    box.receive(protocol.encode_turn(0), 3200 * MS)
    box.step(3500 * MS, levels())
    assert lit(lights) == [0, 0, 0, 0, 0, 1]


def test_lights_use_pwm_where_the_board_has_it_and_plain_pins_where_not(
    firmware: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(firmware, "Pin", Pin)
    monkeypatch.setattr(firmware, "machine", types.SimpleNamespace(PWM=PWM))
    light = firmware.light(8)
    assert light.pwm is not None and (light.pwm.hz, light.pwm.duty) == (firmware.PWM_HZ, 0)

    def no_pwm_here(pin: Pin) -> None:
        raise ValueError("pin doesn't have PWM")  # what a MicroPython port says for such a pin

    monkeypatch.setattr(firmware, "machine", types.SimpleNamespace(PWM=no_pwm_here))
    assert firmware.light(8).pwm is None
    monkeypatch.setattr(firmware, "machine", types.SimpleNamespace())  # a port with no machine.PWM at all
    plain = firmware.light(8)
    assert plain.pwm is None and plain.pin.number == 8
    plain.steady(1)
    assert plain.pin.level == 1


class BoxOnPty:
    """The firmware's Box on the far end of a real pty: what the host writes reaches ``receive``, and its
    replies go back, on a thread of its own; ``wait_for`` waits until the box has taken a line."""

    def __init__(self, box, pair: PtyPair) -> None:
        self.box, self.pair = box, pair
        self.heard = b""
        self.now = 0  # the box's ticks_us: where the test last stepped it
        self._changed = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        while not self._stop:
            if not select.select([self.pair.master], [], [], 0.02)[0]:
                continue
            data = os.read(self.pair.master, 4096)
            with self._changed:
                replies = self.box.receive(data, self.now)
                self.heard += data
                self._changed.notify_all()
            self.pair.write(b"".join(replies))

    def wait_for(self, line: bytes) -> None:
        """Until the box has taken ``line`` (after all it took before)."""
        with self._changed:
            assert self._changed.wait_for(lambda: self.heard.endswith(line), timeout=5), self.heard

    def step(self, now: int) -> None:
        with self._changed:
            self.box.step(now, levels())
            self.now = now

    def close(self) -> None:
        self._stop = True
        self._thread.join()


def test_the_host_pulses_the_seat_to_play_on_the_box_and_stops_it_for_a_winner(
    firmware: types.ModuleType, host
) -> None:
    pair, buzzers = host
    lights = pwm_lights(firmware)
    box = BoxOnPty(new_box(firmware, leds=lights), pair)
    full, quarter = firmware.FULL, firmware.PULSE_US // 4
    try:
        assert buzzers.wait_connected(20)
        buzzers.show_turn(2)
        box.wait_for(protocol.encode_turn(0b000100))
        box.step(quarter)
        assert duties(lights)[:2] == [0, 0] and 0 < lights[2].pwm.duty < full
        buzzers.arm({0, 1})  # Cy played: Ana and Ben may challenge, steady; Cy's turn pulses on
        box.wait_for(protocol.encode_arm(0b000011))
        box.step(2 * quarter)
        assert duties(lights)[:2] == [full, full] and 0 < lights[2].pwm.duty <= full
        buzzers.show_winner({1})  # Ben challenges: his light alone
        box.wait_for(protocol.encode_lights(0b000010) + protocol.encode_turn(0))
        box.step(3 * quarter)
        assert duties(lights) == [0, full, 0, 0, 0, 0]
        buzzers.disarm()  # the challenge is settled: Cy's turn pulses again
        box.wait_for(protocol.encode_lights(0) + protocol.encode_turn(0b000100))
        box.step(4 * quarter)
        assert duties(lights)[:2] == [0, 0] and lights[2].pwm.duty > 0
        buzzers.show_turn(None)
        box.wait_for(protocol.encode_turn(0))
        box.step(5 * quarter)
        assert duties(lights) == [0] * 6
        # The box's pulse after its HELLO, then an N only when the pulse changes: not again with every L or A.
        assert box.heard == b"?\nL 0\nN 0\nN 4\nA 3\nL 2\nN 0\nL 0\nN 4\nN 0\n"
    finally:
        box.close()


MICROPYTHON_HAS = {"array", "machine", "micropython", "select", "sys", "time"}
"""The modules of MicroPython's rp2 port that the box may import, beside the two files copied to it."""


def test_the_box_imports_only_what_micropython_has() -> None:
    box_files = [FIRMWARE, BOOT, Path(protocol.__file__), Path(debounce.__file__)]
    imported = set()
    for path in box_files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module or "")
    assert imported <= MICROPYTHON_HAS | {"protocol", "debounce"}, imported
