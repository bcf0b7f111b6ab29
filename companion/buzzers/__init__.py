"""Challenge buzzers: who pressed first, by edge time, on any kind of button.

``arbiter`` decides (pure: presses and clock readings in, a Decision out);
``referee`` runs it in real time on its own thread, the one owner of a
backend: ``gpio`` (gpiozero), ``serialbox`` (a USB buzzer box, pyserial) or
``keyboard``. Seats are 0-based indexes; nothing here knows the game.
"""

from __future__ import annotations

import os
from typing import Any

from companion.buzzers.arbiter import Contested, Decision, Ignored, LaterPress, format_delay
from companion.buzzers.backend import BuzzerError, Buzzers
from companion.buzzers.gpio import GpioBuzzers, NoGpio, pin_factory_timing
from companion.buzzers.keyboard import KeyboardBuzzers
from companion.buzzers.referee import Referee
from companion.buzzers.serialbox import SerialBuzzers, probe_box
from companion.config import Backend, BuzzerConfig
from companion.errors import Reason

__all__ = [
    "BuzzerError",
    "Buzzers",
    "Contested",
    "Decision",
    "GpioBuzzers",
    "Ignored",
    "KeyboardBuzzers",
    "LaterPress",
    "Referee",
    "SerialBuzzers",
    "format_delay",
    "keys_stand_in",
    "open_buzzers",
    "pin_factory_timing",
    "probe_box",
]


def open_buzzers(config: BuzzerConfig, *, pin_factory: Any = None) -> Buzzers:
    """The backend the config asks for; the keyboard, with a notice, when there is no GPIO.

    ``auto`` takes the buzzer box only when a port answers ``?`` with a
    ``HELLO``; a port that exists but does not answer (another device on
    /dev/ttyACM0) gets nothing more from us, and the notice names it. A
    missing GPIO is not an error (the same config runs on a laptop); a GPIO
    that exists but refuses our pins is, and raises BuzzerError.
    """
    if config.backend == Backend.KEYBOARD:
        return KeyboardBuzzers(config.keys)
    notices = []
    if config.backend == Backend.AUTO:
        for port in (port for port in config.serial_ports if os.path.exists(port)):
            if probe_box(port) is not None:
                return _box(config, (port,) + tuple(p for p in config.serial_ports if p != port))
            notices.append(Reason("{port} did not answer as a buzzer box; using GPIO", port=port))
    if config.backend == Backend.SERIAL:
        return _box(config, config.serial_ports)
    try:
        buzzers: Buzzers = GpioBuzzers(
            config.button_pins,
            config.led_pins,
            config.piezo_pin,
            bounce_ms=config.bounce_ms,
            confirm_ms=config.confirm_ms,
            pin_factory=pin_factory,
        )
    except NoGpio as exc:
        buzzers = KeyboardBuzzers(config.keys, notice=keys_stand_in(exc, config.keys))
    for notice in reversed(notices):
        buzzers.notice = Reason("{notice}; {then}", notice=notice, then=buzzers.notice) if buzzers.notice else notice
    return buzzers


def keys_stand_in(refused: BuzzerError, keys: tuple[str, ...]) -> Reason:
    """The notice when the keyboard stands in for buzzers that would not start."""
    return Reason("{problem}; keys {keys} are the buzzers", problem=refused.reason, keys=" ".join(keys))


def _box(config: BuzzerConfig, ports: tuple[str, ...]) -> SerialBuzzers:
    return SerialBuzzers(ports, seats=len(config.button_pins), reconnect_ms=config.reconnect_ms)
