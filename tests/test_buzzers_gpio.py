"""GPIO buzzers on gpiozero's MockFactory: edge times, bounce, stuck buttons, LEDs, fallback."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from buzzers_fixtures import Recorder, WrappingFactory, timed_factory
from companion.buzzers import (
    BuzzerError,
    GpioBuzzers,
    KeyboardBuzzers,
    Referee,
    open_buzzers,
)
from companion.buzzers.arbiter import Decision, Ignored
from companion.config import BuzzerConfig

BUTTONS = BuzzerConfig().button_pins
LEDS = BuzzerConfig().led_pins


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
    factory.pin(BUTTONS[3]).press(at=base + 5.0)
    factory.pin(BUTTONS[1]).press(at=base + 4.9877)  # called back second, pressed 12.3 ms before
    (seat_a, time_a), (seat_b, time_b) = presses.next(), presses.next()
    assert (seat_a, seat_b) == (3, 1)
    assert (time_a - time_b) * 1000 == pytest.approx(12.3)


def test_earlier_edge_delivered_later_wins(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
    referee.arm(range(6), own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[4]).press(at=base + 10.0050)
    factory.pin(BUTTONS[2]).press(at=base + 10.0120)
    factory.pin(BUTTONS[1]).press(at=base + 10.0010)  # slapped first, callback last
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
    factory.pin(BUTTONS[4]).press(at=base + 7.0)  # a clean press, to read the clock by
    for i in range(20):  # down, up, down, ... ending up, all in 2.85 ms
        (pin.press if i % 2 == 0 else pin.release)(at=base + 7.0 + i * 0.00015)
    (_, reference), bounced = presses.next(), presses.next()
    assert bounced == (5, reference)
    assert presses.empty_after(0.05) and releases.empty_after(0)
    assert buzzers.bounces() == {5: 19}


def test_stuck_button_is_ignored_reported_and_another_seat_wins(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions, on_ignored=ignored)
    factory.pin(BUTTONS[2]).press(at=factory.ticks() + 1.0)  # leaning on it before the window
    referee.arm(range(6), own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[2]).press(at=base + 2.0)  # no new edge while held: nothing happens
    factory.pin(BUTTONS[5]).press(at=base + 2.001)
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.stuck) == (5, (2,))


def test_stuck_button_counts_again_once_released(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
    pin = factory.pin(BUTTONS[2])
    pin.press(at=factory.ticks() + 1.0)
    referee.arm(range(6))
    base = factory.ticks()
    pin.release(at=base + 2.0)
    pin.press(at=base + 3.0)
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, decision.stuck) == (2, ())


def test_own_card_press_is_ignored_and_reported(factory, buzzers) -> None:
    decisions, ignored = Recorder(), Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions, on_ignored=ignored)
    referee.arm({1, 2, 3}, own_card=0)
    base = factory.ticks()
    factory.pin(BUTTONS[0]).press(at=base + 1.0)
    press = ignored.next()
    assert isinstance(press, Ignored) and (press.seat, press.reason) == (0, "own card")
    assert decisions.empty_after(0.1)


def test_leds_glow_for_armed_seats_then_only_the_winner(factory, buzzers) -> None:
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions)
    referee.arm({1, 3, 4}, own_card=0)
    assert lit(factory) == [1, 3, 4]
    factory.pin(BUTTONS[3]).press(at=factory.ticks() + 1.0)
    decisions.next()
    assert lit(factory) == [3]
    referee.disarm()
    assert lit(factory) == []


def test_tick_wraparound_keeps_edges_in_order() -> None:
    factory = timed_factory(WrappingFactory)
    factory.now_ticks = 2**32 - 100  # 100 µs before the counter wraps
    with GpioBuzzers(BUTTONS[:2], pin_factory=factory, bounce_ms=10) as buzzers:
        decisions = Recorder()
        referee = Referee(buzzers, settle_ms=50, on_decision=decisions)
        referee.arm({0, 1})
        factory.pin(BUTTONS[1]).press(at=50)  # after the wrap: 150 µs after arming
        factory.pin(BUTTONS[0]).press(at=2**32 - 150)  # before arming, callback later
        decision = decisions.next()
        assert isinstance(decision, Decision)
        assert decision.winner == 0
        assert [round(p.delay_ms, 6) for p in decision.later] == [0.2]


def test_bad_pin_is_one_clear_error() -> None:
    with pytest.raises(BuzzerError, match="button_pins, led_pins and piezo_pin"):
        GpioBuzzers((5, 99), pin_factory=MockFactory())


def test_config_refuses_a_bad_pin_number() -> None:
    from companion.config import ConfigError

    with pytest.raises(ConfigError, match="99 is not a usable BCM pin"):
        BuzzerConfig(button_pins=(5, 99), led_pins=())
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
