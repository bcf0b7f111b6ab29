"""The USB buzzer box over a real pty: bad bytes, split lines, unplug and replug."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from buzzers_fixtures import HandOver, PtyPair, Recorder, point
from gpiozero.pins.mock import MockFactory

from companion.buzzers import GpioBuzzers, Referee, SerialBuzzers, open_buzzers, serialbox
from companion.buzzers.arbiter import Decision, Ignored
from companion.buzzers.protocol import (
    WRAP,
    encode_heartbeat,
    encode_hello,
    encode_opened,
    encode_press,
    encode_release,
)
from companion.config import BuzzerConfig


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "spicy-buzzers"


@pytest.fixture
def box(link: Path) -> Iterator[PtyPair]:
    pair = PtyPair()
    point(link, pair.path)
    yield pair
    pair.close()


def greet(box: PtyPair, buzzers: SerialBuzzers, held: int = 0, micros: int = 0) -> None:
    """Answer the host's question as the box does; the host believes the box from then on."""
    box.read_until(b"?\n")  # the host asks who is there as soon as it opens the port
    box.write(encode_hello(6, held, micros))
    assert buzzers.wait_connected(20)


@pytest.fixture
def buzzers(link: Path, box: PtyPair) -> Iterator[SerialBuzzers]:
    buzzers = SerialBuzzers([str(link)], reconnect_ms=20)
    greet(box, buzzers)
    yield buzzers
    buzzers.close()


def answer_arm(box: PtyPair, buzzers: SerialBuzzers, seats: set[int], micros: int) -> None:
    """Arm as the UI does, while the box answers ``A`` with its own time of arming."""
    mask = sum(1 << seat for seat in seats)
    replier = threading.Thread(target=lambda: (box.read_until(b"A %d\n" % mask), box.write(encode_opened(micros))))
    replier.start()
    buzzers.arm(seats)
    replier.join()


def micros(seconds: float) -> int:
    return round(seconds * 1e6)


def test_presses_arrive_with_the_box_time(box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    box.write(encode_press(2, micros(1.5)) + encode_press(4, micros(1.5123)))
    assert presses.next() == (2, 1.5)
    assert presses.next() == (4, 1.5123)
    assert (buzzers.version, buzzers.seats, buzzers.notice) == (3, 6, "")


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
    answer_arm(box, buzzers, {1, 3}, micros=50)
    assert buzzers.opened_at == 0.00005
    box.write(encode_press(1, 100) + b"P 2 12")  # unplugged mid-line
    assert presses.next() == (1, 0.0001)
    box.close()
    second = PtyPair()  # plugged back in: a new device node, the udev link follows it
    try:
        point(link, second.path)
        greet(second, buzzers)
        assert second.read_until(b"A 10\n").startswith(b"A 10\n")  # arms again once answered: the window is open
        second.write(encode_press(3, 200) + encode_release(3, 900))
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


@pytest.fixture
def asking(link: Path, box: PtyPair) -> Iterator[tuple[SerialBuzzers, Recorder]]:
    """A host that has opened the port and asked ``?``, with no answer yet."""
    buzzers = SerialBuzzers([str(link)], reconnect_ms=20)
    presses = Recorder()
    buzzers.on_press = presses
    box.read_until(b"?\n")
    yield buzzers, presses
    buzzers.close()


def test_an_old_box_gets_a_notice_and_is_not_believed(box: PtyPair, asking) -> None:
    buzzers, presses = asking
    box.write(b"HELLO spicy-buzzers 1 6\n" + encode_press(0, 1))
    assert presses.empty_after(0.2)
    assert buzzers.notice == (
        "the buzzer box speaks protocol 1, this app 3: flash hardware/firmware again (hardware/README.md)"
    )


def test_a_box_with_protocol_2_firmware_works_without_a_pulse_and_it_is_said_once(
    box: PtyPair, asking, caplog: pytest.LogCaptureFixture
) -> None:
    buzzers, presses = asking
    box.write(b"HELLO spicy-buzzers 2 6 0 0\n")  # what the firmware before the pulse answers
    assert buzzers.wait_connected(20)
    assert box.read_until(b"L 0\n") == b"L 0\n"
    assert buzzers.notice == (
        "the buzzer box's firmware cannot pulse the seat to play's light: flash hardware/firmware again to have it "
        "(hardware/README.md)"
    )
    buzzers.show_turn(2)
    answer_arm(box, buzzers, {0, 1}, micros=50)
    buzzers.show_winner({1})
    buzzers.disarm()
    box.write(encode_press(4, 900))
    assert presses.next() == (4, 0.0009)
    box.write(b"HELLO spicy-buzzers 2 6 0 0\n")  # asked again (it restarted): still no pulse, said no more
    assert box.read_until(b"L 0\n").endswith(b"L 0\n")
    assert b"N" not in box.read_available()
    assert buzzers.version == 2
    assert [r.message for r in caplog.records if "cannot pulse" in r.message] == [buzzers.notice]


def test_presses_left_over_from_before_the_reconnect_do_not_count(box: PtyPair, asking) -> None:
    buzzers, presses = asking
    # The USB buffer kept these while the port was closed: 2.5 s old, sent as the port opens.
    box.write(encode_press(2, micros(7.5)) + encode_release(2, micros(7.6)))
    box.write(encode_hello(6, held=0b10000, micros=micros(10.0)) + encode_press(1, micros(10.040)))
    assert presses.next() == (1, 10.040)  # the first press the host hears is today's
    assert presses.empty_after(0.05)
    assert buzzers.held() == {1, 4}  # HELLO said seat 4 was down already
    assert buzzers.stats["stale"] == 2


def test_a_press_from_before_the_box_armed_is_refused(box: PtyPair, buzzers: SerialBuzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    replier = threading.Thread(target=lambda: (box.read_until(b"A 63\n"), box.write(encode_opened(micros(10.0)))))
    replier.start()
    referee.arm(range(6))
    replier.join()
    box.write(encode_press(3, micros(9.998)) + encode_press(0, micros(10.004)))
    early = ignored.next()
    assert isinstance(early, Ignored) and (early.seat, early.reason) == (3, "pressed before the card was played")
    decision = decisions.next()
    assert isinstance(decision, Decision) and decision.winner == 0


def test_arm_returns_before_the_box_answers_and_the_window_opens_at_its_time(
    box: PtyPair, buzzers: SerialBuzzers
) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    referee.arm(range(6), own_card=5)  # returns while the box has not answered: this thread is the box
    box.read_until(b"A 31\n")
    box.write(encode_opened(micros(10.0)))
    box.write(encode_press(3, micros(9.998)) + encode_press(0, micros(10.004)))
    early = ignored.next()
    assert isinstance(early, Ignored) and (early.seat, early.reason) == (3, "pressed before the card was played")
    decision = decisions.next()
    assert isinstance(decision, Decision) and decision.winner == 0
    referee.stop()


def test_a_box_replugged_mid_window_is_armed_again_and_the_window_opens_at_its_new_time(
    link: Path, box: PtyPair, buzzers: SerialBuzzers
) -> None:
    """A Pico restarts its clock at 0 when replugged: the presses of the open window, stamped on the
    new clock, must not all read as made before the card was played."""
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    replier = threading.Thread(target=lambda: (box.read_until(b"A 62\n"), box.write(encode_opened(micros(500.0)))))
    replier.start()
    referee.arm(range(1, 6), own_card=0, window=7)
    replier.join()
    assert referee.flush()
    box.close()
    second = PtyPair()
    try:
        point(link, second.path)
        second.read_until(b"?\n")
        second.write(encode_hello(6, 0, micros(0.2)))
        second.read_until(b"A 62\n")  # the host arms the box again for the open window
        second.write(encode_opened(micros(0.25)))
        second.write(encode_press(3, micros(0.3)) + encode_press(1, micros(0.24)))
        early = ignored.next()
        assert isinstance(early, Ignored) and (early.seat, early.reason) == (1, "pressed before the card was played")
        decision = decisions.next()
        assert isinstance(decision, Decision) and decision.winner == 3 and decision.window == 7
    finally:
        referee.stop()
        second.close()


class HeldReferee:
    """A referee on the box whose clock moves only when the test moves it, so that nothing is decided
    before the test says so; ``handed_over`` waits until the referee has taken a press."""

    def __init__(self, buzzers: SerialBuzzers, settle_ms: float) -> None:
        self.now = 1000.0
        self.decisions, self.ignored = Recorder(), Recorder()
        self.referee = Referee(buzzers, settle_ms=settle_ms, on_decision=self.decisions, on_ignored=self.ignored,
                               clock=lambda: self.now)
        self._handed_over = HandOver(buzzers, self.referee)

    def open(self, box: PtyPair) -> None:
        """Ana's card, window 7: every other seat armed, and the box opens the window at 500 s on its clock."""
        replier = threading.Thread(target=lambda: (box.read_until(b"A 62\n"), box.write(encode_opened(micros(500.0)))))
        replier.start()
        self.referee.arm(range(1, 6), own_card=0, window=7)
        replier.join()

    def press(self, box: PtyPair, seat: int, at: float) -> None:
        box.write(encode_press(seat, micros(at)))
        self._handed_over.wait()


def replugged(link: Path, box: PtyPair, *, armed: bool) -> PtyPair:
    """The box unplugged and plugged in again: its clock restarts near 0, and the host arms it again
    while the window is undecided (else it only sets its lights)."""
    box.close()
    second = PtyPair()
    point(link, second.path)
    second.read_until(b"?\n")
    second.write(encode_hello(6, 0, micros(0.2)))
    if armed:
        second.read_until(b"A 62\n")
        second.write(encode_opened(micros(0.25)))
    else:
        second.read_until(b"L 2\n")  # Ben's light: he won
    return second


def test_a_press_on_a_replugged_box_s_new_clock_does_not_beat_an_earlier_one_on_the_old_clock(
    link: Path, box: PtyPair, buzzers: SerialBuzzers
) -> None:
    """At a long settle, Ben's press on the old clock (500.1 s) is still settling when the box comes back
    with its clock at 0.2 s and Cy presses (0.3 s): presses across the restart go by the host's arrival."""
    held = HeldReferee(buzzers, settle_ms=500)
    held.open(box)
    held.press(box, 1, 500.1)  # Ben
    second = replugged(link, box, armed=True)
    try:
        held.press(second, 3, 0.3)  # Cy, on the new clock
        held.now += 1.0
        decision = held.decisions.next()
        assert isinstance(decision, Decision)
        assert (decision.winner, [p.seat for p in decision.later], decision.window) == (1, [3], 7)
    finally:
        held.referee.stop()
        second.close()


def test_a_press_on_a_replugged_box_after_the_decision_is_too_late_not_before_the_card(
    link: Path, box: PtyPair, buzzers: SerialBuzzers
) -> None:
    held = HeldReferee(buzzers, settle_ms=30)
    held.open(box)
    held.press(box, 1, 500.1)  # Ben
    held.now += 1.0
    decision = held.decisions.next()
    assert isinstance(decision, Decision) and decision.winner == 1
    second = replugged(link, box, armed=False)
    try:
        held.press(second, 3, 0.3)  # Cy, on the new clock, after the decision
        late = held.ignored.next()
        assert isinstance(late, Ignored) and (late.seat, late.reason, late.window) == (3, "too late", 7)
    finally:
        held.referee.stop()
        second.close()


def test_a_silent_box_is_noticed_and_a_heartbeat_clears_it(
    monkeypatch: pytest.MonkeyPatch, box: PtyPair, buzzers: SerialBuzzers
) -> None:
    monkeypatch.setattr(serialbox, "SILENT_AFTER", 0.1)
    deadline = time.monotonic() + 5
    while "gone silent" not in buzzers.notice and time.monotonic() < deadline:
        time.sleep(0.01)
    assert buzzers.notice.startswith(f"the buzzer box on {buzzers.ports[0]} has gone silent")
    box.write(encode_heartbeat(micros(1.0), dropped=3))
    while buzzers.stats["dropped"] != 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert buzzers.notice == "the buzzer box had no room for 3 edges: presses may be missing"


def test_auto_leaves_a_foreign_device_alone_and_says_so(box: PtyPair) -> None:
    config = BuzzerConfig(backend="auto", serial_ports=(box.path,))
    with open_buzzers(config, pin_factory=MockFactory()) as buzzers:
        assert isinstance(buzzers, GpioBuzzers)
        assert buzzers.notice == f"{box.path} did not answer as a buzzer box; using GPIO"
    assert box.read_available() == b"?\n"  # nothing but the question


def test_auto_takes_the_box_that_answers(box: PtyPair) -> None:
    replier = threading.Thread(target=lambda: (box.read_until(b"?\n"), box.write(encode_hello(6, 0, 0))))
    replier.start()
    config = BuzzerConfig(backend="auto", serial_ports=("/nonexistent/spicy-buzzers", box.path))
    with open_buzzers(config, pin_factory=MockFactory()) as buzzers:
        replier.join()
        assert isinstance(buzzers, SerialBuzzers) and buzzers.ports[0] == box.path


def test_heartbeats_keep_the_box_clock_right_after_40_idle_minutes(box: PtyPair, buzzers: SerialBuzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    box.write(encode_press(0, micros(1.0)))
    for minute in range(1, 41):  # no press for 40 minutes: past the 35.8-minute half-wrap
        box.write(encode_heartbeat(micros(1.0 + minute * 60), dropped=0))
    box.write(encode_press(1, micros(1.0 + 2400.5)))
    (_, first), (_, second) = presses.next(), presses.next()
    assert second - first == pytest.approx(2400.5)


def wait_for(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_a_device_that_never_answers_is_asked_a_few_times_then_left_alone_until_replugged(
    link: Path, box: PtyPair, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(serialbox, "ASK_EVERY", 0.05)
    buzzers = SerialBuzzers([str(link)], reconnect_ms=20)
    try:
        assert wait_for(lambda: "left alone" in buzzers.notice)
        assert buzzers.notice == (
            f"{link} did not answer as a buzzer box ({serialbox.ASK_TRIES} questions); left alone until it is "
            "plugged in again (is it flashed? hardware/README.md)"
        )
        time.sleep(0.5)  # ten more seconds' worth of questions, had it kept asking
        assert box.read_available() == b"?\n" * serialbox.ASK_TRIES
        assert not buzzers.wait_connected(0)

        link.unlink()  # unplugged...
        assert wait_for(lambda: "waiting for the buzzer box" in buzzers.notice)
        second = PtyPair()
        point(link, second.path)  # ...and plugged in again: now it answers
        try:
            greet(second, buzzers)
            assert buzzers.notice == ""
        finally:
            buzzers.close()
            second.close()
    finally:
        buzzers.close()
