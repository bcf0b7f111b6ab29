"""Arcade buttons, LEDs and a piezo on the Pi's header, through gpiozero.

Wiring and default pins: hardware/README.md. Each button joins its BCM pin to
ground and uses the Pi's internal pull-up, so a press pulls the pin low.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Collection, Sequence
from functools import partial
from typing import Any

from gpiozero import LED, BadPinFactory, Button, Buzzer, GPIOZeroError, PinFactoryFallback

from companion.buzzers.backend import BuzzerError, Buzzers
from companion.buzzers.debounce import PRESS, RELEASE, Debouncer


class NoGpio(BuzzerError):
    """This machine has no GPIO gpiozero can drive (not a Pi, or lgpio missing)."""


class GpioBuzzers(Buzzers):
    """One gpiozero ``Button`` per seat, with an optional LED per seat and a piezo.

    Edge times come from the pin factory, never from the clock when our code
    runs: under lgpio the ``ticks`` handed to a pin's ``when_changed`` are the
    kernel's timestamp of the edge. ``Button.when_pressed`` calls its handler
    with no time at all, so we take edges from ``button.pin.when_changed``
    (the documented pin API, which passes ``ticks`` and the new level) and
    let the ``Button`` do what it does well: claim the pin, set the pull-up,
    report ``is_pressed``. The Button's own events are switched off by this;
    we use none of them.

    ``bounce_time=None``: lgpio's debounce reports an edge only after the
    contact has settled, which moves the timestamp by the debounce time.
    :class:`Debouncer` keeps the first edge instead.

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> buzzers = GpioBuzzers((5, 6), pin_factory=factory)
    >>> buzzers.on_press = lambda seat, time: print("seat", seat)
    >>> factory.pin(6).drive_low()
    seat 1
    >>> buzzers.close()
    """

    kind = "GPIO"

    def __init__(
        self,
        button_pins: Sequence[int],
        led_pins: Sequence[int] = (),
        piezo_pin: int | None = None,
        *,
        bounce_ms: float = 10.0,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(len(button_pins))
        self._buttons: list[Button] = []
        self._leds: list[LED] = []
        self._piezo: Buzzer | None = None
        try:
            with warnings.catch_warnings():  # each factory tried; NoGpio says it in one line
                warnings.simplefilter("ignore", PinFactoryFallback)
                for pin in button_pins:
                    self._buttons.append(
                        Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                    )
            for pin in led_pins:
                self._leds.append(LED(pin, pin_factory=pin_factory))
            if piezo_pin is not None:
                self._piezo = Buzzer(piezo_pin, pin_factory=pin_factory)
        except BadPinFactory:
            self.close()
            raise NoGpio(
                "No GPIO found (on a Pi: pip install 'spicy-companion[pi]' for lgpio)"
            ) from None
        except GPIOZeroError as exc:
            self.close()
            raise BuzzerError(
                f"cannot use the buzzer pins: {exc}; check button_pins, led_pins and "
                "piezo_pin under [buzzers] in the config (BCM numbers, hardware/README.md)"
            ) from None
        self._factory = self._buttons[0].pin_factory
        self._lock = threading.Lock()
        self._origin_ticks = self._factory.ticks()
        self._origin_seconds = 0.0
        self._debouncers = [Debouncer(bounce_ms / 1000) for _ in button_pins]
        # Pins hold only a weak reference to their handler: keep ours alive here.
        self._handlers = [partial(self._edge, seat) for seat in range(self.seats)]
        for button, handler in zip(self._buttons, self._handlers):
            button.pin.when_changed = handler

    def arm(self, seats: Collection[int]) -> frozenset[int]:
        with self._lock:  # re-anchor the clock, so ticks never wrap between arm and edge
            now = self._factory.ticks()
            self._origin_seconds += self._ticks_between(now, self._origin_ticks)
            self._origin_ticks = now
        return super().arm(seats)

    def held(self) -> frozenset[int]:
        return frozenset(seat for seat, button in enumerate(self._buttons) if button.is_pressed)

    def bounces(self) -> dict[int, int]:
        return {seat: d.bounces for seat, d in enumerate(self._debouncers) if d.bounces}

    def close(self) -> None:
        for device in (*self._buttons, *self._leds, self._piezo):
            if device is not None:
                device.close()

    def _show(self, seats: Collection[int]) -> None:
        for seat, led in enumerate(self._leds):
            led.value = seat in seats

    def _beep(self) -> None:
        if self._piezo is not None:
            self._piezo.beep(on_time=0.08, off_time=0.08, n=1)

    def _edge(self, seat: int, ticks: Any, state: int) -> None:
        with self._lock:
            edge_time = self._origin_seconds + self._ticks_between(ticks, self._origin_ticks)
        kind = self._debouncers[seat].edge(not state, edge_time)  # pull-up: low is down
        if kind == PRESS:
            self._pressed(seat, edge_time)
        elif kind == RELEASE:
            self._released(seat, edge_time)

    def _ticks_between(self, later: Any, earlier: Any) -> float:
        """Seconds from ``earlier`` to ``later``, negative if ``later`` is earlier.

        ``ticks_diff`` copes with wraparound but, on factories whose ticks
        wrap, answers "a whole wrap minus a little" for an edge just before
        the origin; the shorter way round is the true one.
        """
        ahead = self._factory.ticks_diff(later, earlier)
        behind = self._factory.ticks_diff(earlier, later)
        return ahead if abs(ahead) <= abs(behind) else -behind
