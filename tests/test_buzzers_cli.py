"""``spicy-companion buzzers test`` and the keyboard backend."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

from buzzers_fixtures import Recorder, timed_factory
from companion.buzzers import GpioBuzzers, KeyboardBuzzers, Referee
from companion.buzzers.arbiter import Decision
from companion.buzzers.cli import run_test
from companion.cli import main
from companion.config import BuzzerConfig

BUTTONS = BuzzerConfig().button_pins


def test_keys_are_buzzers_and_auto_repeat_is_not_a_press() -> None:
    buzzers = KeyboardBuzzers(("q", "w", "e"))
    presses, releases = Recorder(), Recorder()
    buzzers.on_press, buzzers.on_release = presses, releases
    assert buzzers.key_down("w", 1.0) and buzzers.key_down("w", 1.1)  # held: auto-repeat
    assert not buzzers.key_down("x", 1.2)
    assert buzzers.held() == {1}
    assert buzzers.key_up("w", 1.3)
    assert (presses.next(), releases.next()) == ((1, 1.0), (1, 1.3))
    assert presses.empty_after(0)


def test_referee_on_keys_picks_the_earliest_time_given() -> None:
    buzzers = KeyboardBuzzers(("1", "2", "3", "4"))
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=40, on_decision=decisions)
    referee.arm(range(4), own_card=3)
    buzzers.key_down("3", 50.020)
    buzzers.key_down("1", 50.000)
    decision = decisions.next()
    assert isinstance(decision, Decision)
    assert (decision.winner, [p.seat for p in decision.later]) == (0, [2])


def test_a_key_pressed_while_the_arm_is_still_queued_counts_in_the_window_it_opens() -> None:
    buzzers = KeyboardBuzzers(("1", "2", "3"))
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=20, on_decision=decisions)
    busy, go = threading.Event(), threading.Event()
    referee.listen(lambda _seat, _time: (busy.set(), go.wait(5)))  # holds the referee's thread
    buzzers.key_down("3", 1.0)
    assert busy.wait(5)
    referee.listen(None)
    referee.arm({0, 1}, own_card=2)  # queued behind the held thread
    buzzers.key_down("2", 1.5)  # queued behind the arm, and already down when the arm reads the keys
    go.set()
    decision = decisions.next()
    assert isinstance(decision, Decision) and (decision.winner, decision.stuck) == (1, ())
    referee.stop()


def test_disarm_cancels_a_pending_decision() -> None:
    buzzers = KeyboardBuzzers(("1", "2"))
    decisions = Recorder()
    referee = Referee(buzzers, settle_ms=40, on_decision=decisions)
    referee.arm({0, 1})
    buzzers.key_down("1", 1.0)
    referee.disarm()
    assert decisions.empty_after(0.15)


def test_console_check_shows_presses_gaps_bounces_and_stuck_buttons() -> None:
    factory = timed_factory()
    out = io.StringIO()
    with GpioBuzzers(BUTTONS, pin_factory=factory, bounce_ms=10) as buzzers:
        factory.pin(BUTTONS[5]).press(at=factory.ticks())  # stuck before the check starts
        threading.Event().wait(0.02)  # confirmed before the check arms

        def slap() -> None:
            while "armed" not in out.getvalue():
                threading.Event().wait(0.005)
            base = factory.ticks()
            factory.pin(BUTTONS[0]).press(at=base)
            factory.pin(BUTTONS[2]).press(at=base + 0.037)
            factory.pin(BUTTONS[3]).press(at=base + 0.050)  # 3 µs of crosstalk on seat 4
            factory.pin(BUTTONS[3]).release(at=base + 0.050003)
            threading.Event().wait(0.25)  # the release comes later, as a real one would
            for i in range(1, 6):  # the release bounces
                pin = factory.pin(BUTTONS[2])
                (pin.release if i % 2 else pin.press)(at=base + 0.200 + i * 0.0004)

        threading.Thread(target=slap).start()
        assert run_test(buzzers, out, seconds=1.0) == 0
    text = out.getvalue()
    assert "seat 6  STUCK" in text
    assert "seat 1  press" in text
    assert "seat 3  press" in text and "+37 ms after the last press" in text
    assert "seat 3  release  held 163 ms, 4 bounces" in text
    assert "seat 2: 0 presses, 0 bounces  never pressed" in text
    assert "seat 6: 0 presses, 0 bounces  STUCK" in text
    assert "seat 4: 0 presses, 0 bounces, 1 glitches (too short to be a press)  never pressed" in text


def test_command_runs_with_the_keyboard_and_refuses_a_bad_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[buzzers]\nbackend = 'keyboard'\n")
    assert main(["--config", str(config), "buzzers", "test", "--seconds", "0.05"]) == 0
    assert "keyboard: all 6 seats armed" in capsys.readouterr().out

    config.write_text("[buzzers]\nbutton_pins = [4, 5, 6]\nled_pins = [17, 27, 4]\n")
    assert main(["--config", str(config), "buzzers", "test", "--seconds", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "led_pins: pin 4 is used twice (in button_pins too)" in err

    config.write_text("[buzzers]\nbutton_pins = [5, 6, 40]\nled_pins = []\n")
    assert main(["--config", str(config), "buzzers", "test", "--seconds", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "40 is not a usable BCM pin" in err
