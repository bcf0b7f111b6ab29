"""Spicy buzzer box firmware (MicroPython, Raspberry Pi Pico / Pico W / Pico 2).

The box takes the time of every button edge in a hard interrupt, in
microseconds on its own clock, and sends it over USB serial, so nothing the
host does (USB polling, a busy UI) can reorder two presses. The host's
``protocol.py`` and ``debounce.py`` are copied beside this file and imported
as they are: box and host cannot disagree on the wire format or the debounce.
Protocol: hardware/PROTOCOL.md. Wiring and flashing: hardware/README.md.

Fairness: the rp2 port runs the pins' handlers one after another in pin
order, so a handler that read its own pin and ``ticks_us()`` would always
stamp the lower seat first. Instead every handler reads *all* buttons at once
(one register read) with one timestamp: two slaps inside the same interrupt
get the same time, and the host reports them as the tie they are.

The seat to play's LED pulses slowly while the host says so (``N``): it
brightens and dims by PWM where the board has it, and blinks where it has not.
"""

import select
import sys
import time
from array import array

import machine
import micropython
from machine import Pin

import protocol
from debounce import PRESS, Debouncer

BUTTON_PINS = (2, 3, 4, 5, 6, 7)  # GP numbers, seat 0 first; each button to GND
LED_PINS = (8, 9, 10, 11, 12, 13)  # through a ULN2803A, like the Pi's LEDs
BOUNCE_US = 10000
CONFIRM_US = 1500  # a press counts only if the line is still down this long after
QUEUE_SIZE = 64
GPIO_IN = 0xD0000004  # SIO GPIO_IN on the RP2040 and RP2350; its low 16 bits hold GP0-GP15
PULSE_US = 1600000  # the seat to play's LED: 0.8 s brightening, 0.8 s dimming, like the Pi's 0.8 s on, 0.8 s off
PWM_HZ = 1000  # fast enough not to flicker, slow enough for the ULN2803A
FULL = 65535  # duty_u16 of an LED fully on


class Light:
    """One seat's LED: on, off, or a point of the slow pulse.

    ``pwm`` is a ``machine.PWM`` on the pin, or None on a board (or pin)
    without one: then the pulse is on for the first half of each period and
    off for the second. Brightness goes as the square of the step, so the eye
    sees it brighten and dim evenly.
    """

    def __init__(self, pin, pwm=None) -> None:
        self.pin = pin
        self.pwm = pwm

    def steady(self, on: int) -> None:
        if self.pwm is None:
            self.pin.value(1 if on else 0)
        else:
            self.pwm.duty_u16(FULL if on else 0)

    def pulse(self, phase: int) -> None:
        """The pulse ``phase`` microseconds into its period (0 <= phase < PULSE_US): dark at 0."""
        half = PULSE_US // 2
        if self.pwm is None:
            self.pin.value(1 if phase < half else 0)
            return
        rise = phase if phase < half else PULSE_US - phase
        step = rise * 255 // half  # small ints only: 255 * 255 < 2**16
        self.pwm.duty_u16(step * step)


def light(number: int) -> Light:
    """The LED on GP``number``, by PWM if this MicroPython has it for that pin."""
    pin = Pin(number, Pin.OUT, value=0)
    pwm_class = getattr(machine, "PWM", None)
    if pwm_class is None:
        return Light(pin)
    try:
        pwm = pwm_class(pin)
        pwm.freq(PWM_HZ)
        pwm.duty_u16(0)
    except (ValueError, OSError):  # no PWM on this pin
        return Light(pin)
    return Light(pin, pwm)


class EdgeQueue:
    """Snapshots of every button's level from the interrupt to the main loop.

    A hard interrupt may not allocate memory: ``put`` only stores small ints
    in arrays made up front. One producer (the interrupt), one consumer (the
    loop), so no lock. A snapshot that finds the queue full is counted in
    ``dropped`` (the host hears the count in every heartbeat); the loop still
    sees the next snapshot, and the debouncer reads the level when due.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.levels = array("H", [0] * size)
        self.ticks = array("l", [0] * size)
        self.head = 0
        self.tail = 0
        self.dropped = 0

    def put(self, levels: int, ticks: int) -> None:
        following = (self.head + 1) % self.size
        if following == self.tail:
            self.dropped += 1
            return
        self.levels[self.head] = levels
        self.ticks[self.head] = ticks
        self.head = following

    def get(self):
        """The oldest snapshot as (levels, ticks), or None."""
        if self.tail == self.head:
            return None
        i = self.tail
        self.tail = (i + 1) % self.size
        return self.levels[i], self.ticks[i]


class Box:
    """Everything but the pins' wiring: snapshots in, protocol lines out, commands in.

    ``levels`` is a GPIO_IN snapshot: bit ``BUTTON_PINS[seat]`` is 0 while
    that button is down (pull-up). ``ticks_us`` wraps early on MicroPython
    (2**30 on the Pico), so ticks are turned into a microsecond count that
    only grows, anchored at every loop; the protocol then sends it modulo 2**32.
    ``leds`` are the seats' ``Light``s: ``L`` and ``A`` set them on or off,
    but for the seats in the ``N`` mask, which pulse until an ``N`` without them.
    """

    def __init__(self, pins, leds: list, now_ticks: int, ticks_diff, levels: int) -> None:
        self.pins = pins
        self.seats = len(pins)
        self.leds = leds
        self._lit = 0  # the mask of the last L or A
        self._turn = 0  # the mask of the last N: these seats pulse
        self._turn_from = 0  # when that pulse started, on the growing clock
        self.queue = EdgeQueue(QUEUE_SIZE)
        self._ticks_diff = ticks_diff
        self._down = self._downs(levels)
        self._debouncers = [Debouncer(BOUNCE_US, CONFIRM_US, down) for down in self._down]
        self._lines = protocol.LineSplitter()
        self._anchor_ticks = now_ticks
        self._anchor_micros = 0
        self._heartbeat_at = 0

    def step(self, now_ticks: int, levels: int) -> list:
        """Queued snapshots and the levels now in; press, release and heartbeat lines out."""
        out = []
        snapshot = self.queue.get()
        while snapshot is not None:
            micros = self._micros(snapshot[1])
            out += self._settle(self._down, micros)  # what was due before this snapshot goes first
            for seat, down in enumerate(self._downs(snapshot[0])):
                if down != self._down[seat]:
                    self._down[seat] = down
                    out += self._lines_for(seat, self._debouncers[seat].edge(down, micros))
            snapshot = self.queue.get()
        now = self._micros(now_ticks)
        self._down = self._downs(levels)
        out += self._settle(self._down, now)
        self._pulse(now)
        if now >= self._heartbeat_at:
            out.append(protocol.encode_heartbeat(now, self.queue.dropped))
            self._heartbeat_at = now + protocol.HEARTBEAT_US
        self._anchor_micros, self._anchor_ticks = now, now_ticks
        return out

    def receive(self, data: bytes, now_ticks: int) -> list:
        """Obey the host's lines; return the replies. Anything else is skipped."""
        out = []
        for line in self._lines.feed(data):
            try:
                message = protocol.decode(line)
            except ValueError:
                continue
            if message[0] in (protocol.LIGHTS, protocol.ARM):
                self._lit = message[1]
                self._show()
            elif message[0] == protocol.TURN and message[1] != self._turn:
                self._turn, self._turn_from = message[1], self._micros(now_ticks)
                self._show()
                self._pulse(self._turn_from)
            if message[0] == protocol.ARM:
                out.append(protocol.encode_opened(self._micros(now_ticks)))
            elif message[0] == protocol.QUERY:
                held = sum(1 << seat for seat, d in enumerate(self._debouncers) if d.down)
                out.append(protocol.encode_hello(self.seats, held, self._micros(now_ticks)))
        return out

    def _show(self) -> None:
        """Every LED that does not pulse as the last ``L`` or ``A`` said."""
        for seat, led in enumerate(self.leds):
            if not (self._turn >> seat) & 1:
                led.steady((self._lit >> seat) & 1)

    def _pulse(self, now: int) -> None:
        if self._turn:
            phase = (now - self._turn_from) % PULSE_US
            for seat, led in enumerate(self.leds):
                if (self._turn >> seat) & 1:
                    led.pulse(phase)

    def _settle(self, downs: list, now: int) -> list:
        """Whatever the debouncers were waiting to check by ``now``, at these levels."""
        out = []
        for seat, down in enumerate(downs):
            out += self._lines_for(seat, self._debouncers[seat].check(down, now))
        return out

    def _micros(self, ticks: int) -> int:
        return self._anchor_micros + self._ticks_diff(ticks, self._anchor_ticks)

    def _downs(self, levels: int) -> list:
        return [not (levels >> pin) & 1 for pin in self.pins]

    def _lines_for(self, seat: int, reports: list) -> list:
        return [
            (protocol.encode_press if kind == PRESS else protocol.encode_release)(seat, micros)
            for kind, micros in reports
        ]


def main() -> None:
    micropython.kbd_intr(-1)  # a stray Ctrl-C byte from the host must not stop the box
    micropython.alloc_emergency_exception_buf(100)
    buttons = [Pin(n, Pin.IN, Pin.PULL_UP) for n in BUTTON_PINS]
    leds = [light(n) for n in LED_PINS]
    mem16, ticks_us = machine.mem16, time.ticks_us
    box = Box(BUTTON_PINS, leds, ticks_us(), time.ticks_diff, mem16[GPIO_IN])
    queue = box.queue
    for pin in buttons:
        pin.irq(lambda p: queue.put(mem16[GPIO_IN], ticks_us()), Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
    host = select.poll()
    host.register(sys.stdin, select.POLLIN)
    out = sys.stdout.buffer
    while True:  # no HELLO until asked: one sent now could wait in the USB buffer for a later host
        for line in box.step(ticks_us(), mem16[GPIO_IN]):
            out.write(line)
        while host.poll(0):
            for line in box.receive(sys.stdin.buffer.read(1), ticks_us()):
                out.write(line)
        time.sleep_ms(1)


if __name__ == "__main__":
    main()
