"""Challenge buzzers: who pressed first, by edge time, on any kind of button.

``arbiter`` decides (pure: presses and clock readings in, a Decision out);
``referee`` runs it in real time on a backend: ``gpio`` (gpiozero),
``serialbox`` (a USB buzzer box, pyserial) or ``keyboard``. Seats are 0-based
indexes; nothing here knows the game.
"""

from __future__ import annotations

import os
from typing import Any

from companion.buzzers.arbiter import Decision, Ignored, LaterPress, format_delay
from companion.buzzers.backend import BuzzerError, Buzzers
from companion.buzzers.gpio import GpioBuzzers, NoGpio
from companion.buzzers.keyboard import KeyboardBuzzers
from companion.buzzers.referee import Referee
from companion.buzzers.serialbox import SerialBuzzers
from companion.config import Backend, BuzzerConfig

__all__ = [
    "BuzzerError",
    "Buzzers",
    "Decision",
    "GpioBuzzers",
    "Ignored",
    "KeyboardBuzzers",
    "LaterPress",
    "Referee",
    "SerialBuzzers",
    "format_delay",
    "open_buzzers",
]


def open_buzzers(config: BuzzerConfig, *, pin_factory: Any = None) -> Buzzers:
    """The backend the config asks for; the keyboard, with a notice, when there is no GPIO.

    ``auto`` takes the buzzer box when one of its ports exists, else GPIO.
    A missing GPIO is not an error (the same config runs on a laptop); a
    GPIO that exists but refuses our pins is, and raises BuzzerError.
    """
    if config.backend == Backend.KEYBOARD:
        return KeyboardBuzzers(config.keys)
    if config.backend == Backend.SERIAL or (
        config.backend == Backend.AUTO and any(os.path.exists(port) for port in config.serial_ports)
    ):
        return SerialBuzzers(
            config.serial_ports, seats=len(config.button_pins), reconnect_ms=config.reconnect_ms
        )
    try:
        return GpioBuzzers(
            config.button_pins,
            config.led_pins,
            config.piezo_pin,
            bounce_ms=config.bounce_ms,
            pin_factory=pin_factory,
        )
    except NoGpio as exc:
        keys = " ".join(config.keys)
        return KeyboardBuzzers(config.keys, notice=f"{exc}; keys {keys} are the buzzers")
