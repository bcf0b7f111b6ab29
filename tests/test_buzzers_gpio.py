"""GPIO buzzers on gpiozero's MockFactory: edge times, bounce, stuck buttons, LEDs, fallback."""

from __future__ import annotations

import importlib.util
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from buzzers_fixtures import CallbackTimeFactory, HandOver, NoEdgePin, Recorder, WrappingFactory, timed_factory
from companion.buzzers import (
    BuzzerError,
    GpioBuzzers,
    KeyboardBuzzers,
    Referee,
    open_buzzers,
)
from companion.buzzers import gpio
from companion.buzzers.arbiter import Contested, Decision, Ignored
from companion.buzzers.gpio import pin_factory_timing
from companion.config import BuzzerConfig

BUTTONS = BuzzerConfig().button_pins
LEDS = (17, 27, 22, 23, 24, 25)  # the LED pins hardware/README.md suggests


@pytest.fixture
def factory() -> MockFactory:
    return timed_factory()


@pytest.fixture
def buzzers(factory: MockFactory):
    with GpioBuzzers(BUTTONS, LEDS, 12, bounce_ms=10, pin_factory=factory) as buzzers:
        yield buzzers


def lit(factory: MockFactory) -> list[int]:
    return [seat for seat, pin in enumerate(LEDS) if factory.pin(pin).state]


def test_press_carries_the_pin_edge_time_not_the_callback_time(factory, buzzers) -> None:
    presses = Recorder()
    buzzers.on_press = presses
    base = factory.ticks()
    factory.pin(BUTTONS[3]).press(at=base + 0.0150)
    factory.pin(BUTTONS[1]).press(at=base + 0.0027)  # called back second, pressed 12.3 ms before
    times = dict([presses.next(), presses.next()])
    assert (times[3] - times[1]) * 1000 == pytest.approx(12.3)


def test_earlier_edge_delivered_later_wins(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
    referee.arm(range(6), own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[4]).press(at=base + 0.0050)
    factory.pin(BUTTONS[2]).press(at=base + 0.0120)
    factory.pin(BUTTONS[1]).press(at=base + 0.0010)  # slapped first, callback last
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert decision.winner == 1
    assert [(p.seat, round(p.delay_ms, 3)) for p in decision.later] == [(4, 4.0), (2, 11.0)]
    assert lit(factory) == [1]


def test_twenty_edges_within_3_ms_are_one_press_at_the_first_edge(factory, buzzers) -> None:
    presses, releases = Recorder(), Recorder()
    buzzers.on_press, buzzers.on_release = presses, releases
    pin = factory.pin(BUTTONS[5])
    base = factory.ticks()
    factory.pin(BUTTONS[4]).press(at=base)  # a clean press, to read the clock by
    for i in range(21):  # down, up, down, ... ending down, all in 3 ms
        (pin.press if i % 2 == 0 else pin.release)(at=base + i * 0.00015)
    times = dict([presses.next(), presses.next()])
    assert times[5] == times[4]
    assert presses.empty_after(0.05) and releases.empty_after(0)
    assert buzzers.bounces() == {5: 20}


def test_stuck_button_is_ignored_reported_and_another_seat_wins(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions, on_ignored=ignored)
    factory.pin(BUTTONS[2]).press(at=factory.ticks())  # leaning on it before the window
    referee.arm(range(6), own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[2]).press(at=base + 0.002)  # no new edge while held: nothing happens
    factory.pin(BUTTONS[5]).press(at=base + 0.003)
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.stuck) == (5, (2,))


def test_stuck_button_counts_again_once_released(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
    pin = factory.pin(BUTTONS[2])
    pin.press(at=factory.ticks())
    referee.arm(range(6))
    base = factory.ticks()
    pin.release(at=base + 0.002)
    threading.Event().wait(0.02)  # the release settles (bounce_ms) before the next press
    pin.press(at=factory.ticks())
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.stuck) == (2, ())


def test_own_card_press_is_ignored_and_reported(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    referee.arm({1, 2, 3}, own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[0]).press(at=base + 0.001)
    press = ignored.next()
    assert isinstance(press, Ignored) and (press.seat, press.reason) == (0, "own card")
    assert decisions.empty_after(0.1)


def test_leds_glow_for_armed_seats_then_only_the_winner(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions)
    referee.arm({1, 3, 4}, own_card=0)
    referee.flush()  # the lights change on the referee's thread
    assert lit(factory) == [1, 3, 4]
    factory.pin(BUTTONS[3]).press(at=factory.ticks() + 0.001)
    decisions.next()
    assert lit(factory) == [3]
    referee.disarm()
    referee.flush()
    assert lit(factory) == []


def test_tick_wraparound_keeps_edges_in_order() -> None:
    factory = timed_factory(WrappingFactory)
    factory.now_ticks = 2**32 - 100  # 100 µs before the counter wraps
    with GpioBuzzers(BUTTONS[:2], pin_factory=factory, bounce_ms=10) as buzzers:
        decisions = Recorder()
        referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
        referee.arm({0, 1})
        referee.flush()  # opened before the clock jumps: this clock stands still between jumps
        factory.now_ticks = 10_000  # 10.1 ms later, after the wrap
        factory.pin(BUTTONS[1]).press(at=150)  # after the wrap: 250 µs after arming
        factory.pin(BUTTONS[0]).press(at=2**32 - 50)  # before the wrap, callback later
        decision = decisions.next()
        assert isinstance(decision, Decision)
        assert decision.winner == 0
        assert [round(p.delay_ms, 6) for p in decision.later] == [0.2]


def test_press_stamped_2_ms_before_arm_and_reported_after_it_is_refused(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=30, on_decision=decisions, on_ignored=ignored)
    referee.arm(range(6), own_card=0)
    referee.flush()  # the pins are read at the arm, before the late press is driven
    armed_at = factory.ticks()
    factory.pin(BUTTONS[2]).press(at=armed_at - 0.002)  # lgpio held it back; it comes after arm
    factory.pin(BUTTONS[4]).press(at=armed_at + 0.004)
    early = ignored.next()
    assert isinstance(early, Ignored)
    assert (early.seat, early.reason) == (2, "pressed before the card was played")
    decision = decisions.next()
    assert isinstance(decision, Decision) and decision.winner == 4


def test_a_press_while_the_arm_is_still_queued_counts_in_the_window_it_opens(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions)
    busy, go = threading.Event(), threading.Event()
    referee.listen(lambda _seat, _time: (busy.set(), go.wait(5)))  # holds the referee's thread
    factory.pin(BUTTONS[5]).press(at=factory.ticks())
    assert busy.wait(5)
    referee.listen(None)
    referee.arm({1, 2, 3}, own_card=0)  # queued behind the held thread
    factory.pin(BUTTONS[2]).press(at=factory.ticks() + 0.001)  # the card is down: a slap 1 ms later
    threading.Event().wait(0.02)  # confirmed, and queued behind the arm
    go.set()
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.stuck, decision.ignored) == (2, (), ())  # down at the arm, yet not stuck
    referee.stop()


def test_a_slap_before_the_tap_that_reaches_the_referee_after_the_arm_counts_and_is_not_stuck(factory) -> None:
    """Cy slaps Ben's card as it lands; the press is still on its way when Ben's tap arms the window, and
    Cy's button is down then: a press that counts, not a button held from before."""
    with GpioBuzzers(BUTTONS[:3], LEDS[:3], pin_factory=factory) as buzzers:
        decisions = Recorder()
        referee = Referee(buzzers, settle_ms=20, early_ms=1500, on_decision=decisions)
        busy, go = threading.Event(), threading.Event()
        referee.listen(lambda _seat, _time: (busy.set(), go.wait(5)))  # holds the referee's thread
        factory.pin(BUTTONS[1]).press(at=factory.ticks())
        assert busy.wait(5)
        referee.listen(None)
        referee.arm({0, 2}, own_card=1, window=3)  # Ben's tap, queued behind the held thread
        factory.pin(BUTTONS[2]).press(at=factory.ticks() - 0.5)  # Cy, half a second before the tap
        threading.Event().wait(0.02)  # confirmed, and queued behind the arm
        go.set()
        decision = decisions.next()
        assert isinstance(decision, Decision)
        assert (decision.winner, decision.before_tap, decision.stuck) == (2, (2,), ())
        referee.stop()


def test_a_2_microsecond_glitch_does_not_win(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=30, on_decision=decisions)
    referee.arm(range(6))
    base = factory.ticks()
    factory.pin(BUTTONS[1]).press(at=base + 0.001)  # crosstalk on a long cable: 2 µs low
    factory.pin(BUTTONS[1]).release(at=base + 0.001002)
    factory.pin(BUTTONS[3]).press(at=base + 0.005)  # the real slap, 4 ms later
    decision = decisions.next()
    assert isinstance(decision, Decision) and (decision.winner, decision.later) == (3, ())
    assert buzzers.glitches() == {1: 1}


def test_a_tap_shorter_than_the_debounce_time_is_released(factory, buzzers) -> None:
    presses, releases = Recorder(), Recorder()
    buzzers.on_press, buzzers.on_release = presses, releases
    pin = factory.pin(BUTTONS[2])
    base = factory.ticks()
    pin.press(at=base)
    pin.release(at=base + 0.004)  # a 4 ms tap: inside the 10 ms bounce window
    assert presses.next() == (2, pytest.approx(releases.next()[1] - 0.004))
    assert buzzers.held() == frozenset()


def test_an_earlier_edge_after_the_decision_is_contested_not_too_late(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    referee.arm(range(6))
    base = factory.ticks()
    factory.pin(BUTTONS[5]).press(at=base + 0.002)
    decision = decisions.next()
    assert isinstance(decision, Decision) and decision.winner == 5
    factory.pin(BUTTONS[1]).press(at=base + 0.0012)  # its callback came after the decision
    contested = ignored.next()
    assert isinstance(contested, Contested)
    assert (contested.seat, contested.winner) == (1, 5)
    assert contested.winner_edge - contested.edge_time == pytest.approx(0.0008)
    assert contested.reason.startswith("contested: pressed 0.8 ms before the winning press")


def test_the_clock_stays_right_after_40_idle_minutes_of_wrapping_ticks(monkeypatch) -> None:
    monkeypatch.setattr(gpio, "ANCHOR_EVERY", 0.005)  # the thread re-reads the clock this often
    factory = timed_factory(WrappingFactory)
    factory.now_ticks = 2**32 - 10**6
    with GpioBuzzers(BUTTONS[:2], pin_factory=factory) as buzzers:
        presses = Recorder()
        buzzers.on_press = presses
        buzzers.arm({0, 1})
        factory.pin(BUTTONS[0]).press(at=factory.now_ticks - 100)
        factory.now_ticks += 2000  # past the confirm time
        first = presses.next()
        for _ in range(8):  # 40 minutes in 5-minute steps: past the 35.8-minute half-wrap
            factory.now_ticks = (factory.now_ticks + 300 * 10**6) % 2**32
            threading.Event().wait(0.03)
        factory.pin(BUTTONS[1]).press(at=factory.now_ticks - 100)
        factory.now_ticks += 2000
        second = presses.next()
        assert second[1] - first[1] == pytest.approx(2400.0)


def test_a_pin_library_that_cannot_watch_edges_falls_back_with_a_message() -> None:
    config = BuzzerConfig(backend="gpio", serial_ports=())
    buzzers = open_buzzers(config, pin_factory=MockFactory(pin_class=NoEdgePin))
    assert isinstance(buzzers, KeyboardBuzzers)
    assert buzzers.notice.startswith("GPIO cannot watch the buttons (Failed to add edge detection)")
    assert "keys 1 2 3 4 5 6 are the buzzers" in buzzers.notice


def test_a_factory_that_stamps_in_python_is_named_on_screen() -> None:
    with GpioBuzzers(BUTTONS, pin_factory=CallbackTimeFactory()) as buzzers:
        assert buzzers.notice == (
            "the callbacktime pin factory does not stamp edges in the kernel: timing is only as good "
            "as callback time (install lgpio: sudo apt-get install python3-lgpio)"
        )
    assert pin_factory_timing(MockFactory()) == ("mock", True)


def test_bad_pin_is_one_clear_error() -> None:
    with pytest.raises(BuzzerError, match="button_pins, led_pins and piezo_pin"):
        GpioBuzzers((5, 99), pin_factory=MockFactory())


def test_config_refuses_a_bad_pin_number() -> None:
    from companion.config import ConfigError

    with pytest.raises(ConfigError, match="99 is not a usable BCM pin"):
        BuzzerConfig(button_pins=(5, 99), led_pins=())
    with pytest.raises(ConfigError, match="confirm_ms must be at least 0 and below 10 and settle_ms"):
        BuzzerConfig(confirm_ms=12)
    with pytest.raises(ConfigError, match="used twice"):
        BuzzerConfig(led_pins=(5, 27, 22, 23, 24, 25))


def test_open_buzzers_uses_gpio_when_there_is_gpio(factory) -> None:
    with open_buzzers(BuzzerConfig(backend="gpio"), pin_factory=factory) as buzzers:
        assert isinstance(buzzers, GpioBuzzers) and buzzers.notice == ""


@pytest.mark.parametrize("backend", ["auto", "gpio"])
def test_no_gpio_falls_back_to_the_keyboard_with_a_notice(monkeypatch, backend: str) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    config = BuzzerConfig(backend=backend, serial_ports=("/nonexistent/spicy-buzzers",))
    buzzers = open_buzzers(config)
    assert isinstance(buzzers, KeyboardBuzzers)
    assert "No GPIO found" in buzzers.notice and "1 2 3 4 5 6" in buzzers.notice


def test_no_gpio_says_what_this_machine_lacks(tmp_path) -> None:
    """Without lgpio the fix is apt's package; with it and no GPIO chip (scripts/pi-check's arm64 root
    checks that case through doctor) it is the machine. Either way the chips looked for are named."""
    missing = str(tmp_path / "gpiochip*")
    said = str(gpio.no_gpio(missing))
    if importlib.util.find_spec("lgpio") is None:
        assert said == "No GPIO found (on a Pi: sudo apt-get install python3-lgpio)"
    else:
        assert said == f"No GPIO found: lgpio is installed, but this machine has no {missing}"


def test_the_decision_comes_at_the_earliest_edge_plus_settle_not_at_its_arrival_plus_settle(factory, buzzers) -> None:
    """A press reaches the referee after its edge (GPIO confirms it first); the referee reads the pins'
    own clock, so it decides when that clock passes edge + settle. The referee's clock here moves only
    when the test moves it."""
    now = [1000.0]
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions, clock=lambda: now[0])
    handed_over = threading.Event()  # GPIO confirms on its own thread: the clock moves only after that
    to_referee = buzzers.on_press
    assert to_referee is not None

    def hand_over(seat: int, edge_time: float) -> None:
        to_referee(seat, edge_time)
        handed_over.set()

    buzzers.on_press = hand_over
    referee.arm(range(6), own_card=0)
    assert referee.flush()
    time.sleep(0.05)  # the window has been open 50 ms by the pins' clock
    factory.pin(BUTTONS[2]).press(at=factory.ticks() - 0.030)  # reaches the referee 30 ms after its edge
    assert handed_over.wait(timeout=2.0) and referee.flush()
    now[0] += 0.025  # edge + 55 ms by the pins' clock; only 25 ms after the press arrived
    decision = decisions.next(timeout=2.0)
    assert isinstance(decision, Decision) and decision.winner == 2
    referee.stop()


def test_a_slap_before_the_claim_is_tapped_counts_for_the_card_it_opens(factory) -> None:
    """The card lands, a challenger slaps it, and only then is its claim tapped: that press, and
    the button still held at the tap, count for the new card by edge time, ahead of a slower one."""
    with GpioBuzzers(BUTTONS[:3], LEDS[:3], pin_factory=factory) as buzzers:
        decisions, ignored = Recorder(), Recorder()
        referee = Referee(buzzers, settle_ms=20, early_ms=1500, on_decision=decisions, on_ignored=ignored)
        handed_over = HandOver(buzzers, referee)
        referee.disarm()  # a new stack: nothing to challenge yet
        factory.pin(BUTTONS[2]).press(at=factory.ticks())  # Cy slaps Ben's card as it lands
        handed_over.wait()
        assert ignored.items.empty()  # not "no card to challenge": it may be for the card that lands
        referee.arm({0, 2}, own_card=1, window=3)  # Ben taps the claim
        referee.flush()
        factory.pin(BUTTONS[0]).press(at=factory.ticks() + 0.002)  # Ana, after the tap
        decision = decisions.next()
        assert isinstance(decision, Decision)
        assert (decision.winner, decision.before_tap, decision.stuck, decision.window) == (2, (2,), (), 3)
        assert ignored.items.empty()
        referee.stop()


def test_a_slap_longer_than_early_ms_before_the_tap_is_still_refused(factory) -> None:
    with GpioBuzzers(BUTTONS[:3], LEDS[:3], pin_factory=factory) as buzzers:
        decisions = Recorder()
        referee = Referee(buzzers, settle_ms=20, early_ms=30, on_decision=decisions)
        referee.disarm()
        factory.pin(BUTTONS[2]).press(at=factory.ticks() - 0.5)
        factory.pin(BUTTONS[2]).release(at=factory.ticks() - 0.4)
        referee.flush()
        threading.Event().wait(0.06)  # longer than early_ms on the referee's clock too
        referee.arm({0, 2}, own_card=1)
        referee.flush()
        factory.pin(BUTTONS[0]).press(at=factory.ticks() + 0.002)
        decision = decisions.next()
        assert isinstance(decision, Decision) and decision.winner == 0 and decision.before_tap == ()
        referee.stop()


def test_a_buzzer_press_5_ms_before_a_claim_at_the_screen_wins_and_the_claim_is_later(factory, buzzers) -> None:
    """Ben's edge comes 5 ms before Cy's key, within the settle: the claim is a press at its own time.
    The referee's clock moves only when the test moves it, so nothing is decided before both are in."""
    now = [1000.0]
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=30, on_decision=decisions, clock=lambda: now[0])
    handed_over = HandOver(buzzers, referee)
    referee.arm({1, 2}, own_card=0, window=3)
    assert referee.flush()
    time.sleep(0.05)  # the window has been open 50 ms by the pins' clock
    factory.pin(BUTTONS[1]).press(at=factory.ticks() - 0.005)  # Ben, 5 ms before the key
    handed_over.wait()
    referee.claim(2, window=3)  # Cy's key
    assert referee.flush()
    now[0] += 1.0
    decision = decisions.next(timeout=2.0)
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.claimed, [p.seat for p in decision.later]) == (1, False, [2])
    referee.stop()
