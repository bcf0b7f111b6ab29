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

from gpiozero import LED, BadPinFactory, Button, Buzzer, Device, GPIOZeroError, PinFactoryFallback

from companion.buzzers.backend import BuzzerError, Buzzers
from companion.buzzers.debounce import PRESS, Debouncer
from companion.errors import Reason

PULSE_SECONDS = 0.8
"""The seat to play's LED: this long on, this long off, slow beside a lit seat's steady light."""

# Factories whose edge ticks are taken by the kernel (lgpio, pigpio) or by the
# test (mock), not by a Python thread when it gets round to it.
KERNEL_STAMPED = {"LGPIOFactory": "lgpio", "PiGPIOFactory": "pigpio", "MockFactory": "mock"}
ANCHOR_EVERY = 60.0  # seconds; pigpio's ticks wrap every 71.6 minutes


class NoGpio(BuzzerError):
    """This machine has no GPIO gpiozero can drive (not a Pi, or lgpio missing)."""


def pin_factory_timing(pin_factory: Any = None) -> tuple[str, bool]:
    """The pin factory's short name, and whether its edges carry the kernel's time.

    ``None`` asks gpiozero for the factory it would use (``GPIOZERO_PIN_FACTORY``
    or the first that loads); raises NoGpio when there is none.

    >>> from gpiozero.pins.mock import MockFactory
    >>> pin_factory_timing(MockFactory())
    ('mock', True)
    """
    if pin_factory is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PinFactoryFallback)
                pin_factory = Device.pin_factory or Device._default_pin_factory()
        except BadPinFactory:
            raise NoGpio(no_gpio()) from None
    name = type(pin_factory).__name__
    if name in KERNEL_STAMPED:
        return KERNEL_STAMPED[name], True
    return name.removesuffix("Factory").lower(), False


def callback_time_notice(factory_name: str) -> Reason:
    return Reason(
        "the {factory} pin factory does not stamp edges in the kernel: timing is only "
        "as good as callback time (install lgpio: sudo apt-get install python3-lgpio)",
        factory=factory_name,
    )


def no_gpio(chips: str = "/dev/gpiochip*") -> Reason:
    """Why no pin factory loaded, in the words that say what to do: lgpio missing is fixed with apt,
    lgpio present with no GPIO chip is a machine without GPIO (a desktop, a container, a root under qemu)."""
    import glob
    from importlib.util import find_spec

    if find_spec("lgpio") is None:
        return Reason("No GPIO found (on a Pi: sudo apt-get install python3-lgpio)")
    if not glob.glob(chips):
        return Reason("No GPIO found: lgpio is installed, but this machine has no {chips}", chips=chips)
    return Reason("No GPIO found: lgpio could not open {chips}; is this user in the gpio group?", chips=chips)


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
    :class:`Debouncer` keeps the first edge instead, and a thread of ours
    reads each line when the debouncer asks (``confirm_ms`` after a falling
    edge, ``bounce_ms`` after a report), so glitches are dropped and short
    taps are released. The same thread re-reads the clock every minute, so
    ticks that wrap never make a late edge look early.

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> buzzers = GpioBuzzers((5, 6), pin_factory=factory)
    >>> pressed = threading.Event()
    >>> buzzers.on_press = lambda seat, time: pressed.set()
    >>> factory.pin(6).drive_low()
    >>> pressed.wait(1)
    True
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
        confirm_ms: float = 1.5,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(len(button_pins))
        self._buttons: list[Button] = []
        self._leds: list[LED] = []
        self._lit: frozenset[int] = frozenset()
        self._pulsing: int | None = None
        self._piezo: Buzzer | None = None
        self._debouncers = [Debouncer(bounce_ms / 1000, confirm_ms / 1000) for _ in button_pins]
        self._wake = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None  # started once every pin is ours
        # Pins hold only a weak reference to their handler: keep ours alive here.
        self._handlers = [partial(self._edge, seat) for seat in range(self.seats)]
        try:
            with warnings.catch_warnings():  # each factory tried; NoGpio says it in one line
                warnings.simplefilter("ignore", PinFactoryFallback)
                for pin in button_pins:
                    self._buttons.append(
                        Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                    )
            self._factory = self._buttons[0].pin_factory
            self._origin_ticks = self._factory.ticks()
            self._origin_seconds = 0.0
            for button, handler in zip(self._buttons, self._handlers, strict=True):
                button.pin.when_changed = handler
            for pin in led_pins:
                self._leds.append(LED(pin, pin_factory=pin_factory))
            if piezo_pin is not None:
                self._piezo = Buzzer(piezo_pin, pin_factory=pin_factory)
        except BadPinFactory:
            self.close()
            raise NoGpio(no_gpio()) from None
        except RuntimeError as exc:  # RPi.GPIO: "Failed to add edge detection" without access
            self.close()
            raise NoGpio(
                "GPIO cannot watch the buttons ({problem}); add this user to the gpio group, "
                "or install lgpio: sudo apt-get install python3-lgpio",
                problem=str(exc),
            ) from None
        except GPIOZeroError as exc:
            self.close()
            raise BuzzerError(
                "cannot use the buzzer pins: {problem}; check button_pins, led_pins and "
                "piezo_pin under [buzzers] in the config (BCM numbers, hardware/README.md)",
                problem=str(exc),
            ) from None
        name, stamped = pin_factory_timing(self._factory)
        self.notice = "" if stamped else callback_time_notice(name)
        self._thread = threading.Thread(target=self._run, name="buzzer-gpio", daemon=True)
        self._thread.start()

    def edge_clock(self) -> float:
        """Re-anchors the clock, so ticks never wrap between an anchor and an edge."""
        with self._wake:
            now = self._factory.ticks()
            self._origin_seconds += self._ticks_between(now, self._origin_ticks)
            self._origin_ticks = now
            return self._origin_seconds

    def held(self) -> frozenset[int]:
        return frozenset(seat for seat, button in enumerate(self._buttons) if button.is_pressed)

    def bounces(self) -> dict[int, int]:
        return {seat: d.bounces for seat, d in enumerate(self._debouncers) if d.bounces}

    def glitches(self) -> dict[int, int]:
        return {seat: d.glitches for seat, d in enumerate(self._debouncers) if d.glitches}

    def close(self) -> None:
        if self._thread is not None:
            with self._wake:
                self._stop = True
                self._wake.notify()
            self._thread.join()
        for device in (*self._buttons, *self._leds, self._piezo):
            if device is not None:
                device.close()

    def _show_turn(self) -> None:
        self._show(self._lit)

    def _show(self, seats: Collection[int]) -> None:
        """The seats' LEDs on, the others off, but the seat to play's, which pulses (armed or not: it may
        challenge too) while no winner is shown."""
        self._lit = frozenset(seats)
        pulse = self.pulsing()
        for seat, led in enumerate(self._leds):
            if seat != pulse:
                led.value = seat in seats  # which stops a pulse
            elif self._pulsing != seat:
                led.blink(on_time=PULSE_SECONDS, off_time=PULSE_SECONDS)
        self._pulsing = pulse if pulse is not None and pulse < len(self._leds) else None

    def _beep(self) -> None:
        if self._piezo is not None:
            self._piezo.beep(on_time=0.08, off_time=0.08, n=1)

    def _edge(self, seat: int, ticks: Any, state: int) -> None:
        with self._wake:
            edge_time = self._origin_seconds + self._ticks_between(ticks, self._origin_ticks)
            reports = self._debouncers[seat].edge(not state, edge_time)  # pull-up: low is down
            self._wake.notify()
        self._report(seat, reports)

    def _run(self) -> None:
        """Read each line when its debouncer asks; re-anchor the clock at least every minute."""
        while True:
            with self._wake:
                if self._stop:
                    return
                dues = [d.due for d in self._debouncers if d.due is not None]
                wait = ANCHOR_EVERY if not dues else min(dues) - self.edge_clock()
                if wait > 0:
                    self._wake.wait(min(wait, ANCHOR_EVERY))
                now = self.edge_clock()
                reports = [
                    (seat, debouncer.check(button.is_pressed, now))
                    for seat, (button, debouncer) in enumerate(zip(self._buttons, self._debouncers, strict=True))
                ]
            for seat, seat_reports in reports:
                self._report(seat, seat_reports)

    def _report(self, seat: int, reports: list[tuple[str, float]]) -> None:
        for kind, edge_time in reports:
            (self._pressed if kind == PRESS else self._released)(seat, edge_time)

    def _ticks_between(self, later: Any, earlier: Any) -> float:
        """Seconds from ``earlier`` to ``later``, negative if ``later`` is earlier.

        ``ticks_diff`` copes with wraparound but, on factories whose ticks
        wrap, answers "a whole wrap minus a little" for an edge just before
        the origin; the shorter way round is the true one.
        """
        ahead = self._factory.ticks_diff(later, earlier)
        behind = self._factory.ticks_diff(earlier, later)
        return ahead if abs(ahead) <= abs(behind) else -behind
