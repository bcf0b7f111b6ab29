"""Spicy buzzer box firmware (MicroPython, Raspberry Pi Pico / Pico W / Pico 2).

The box takes the time of every button edge in a hard interrupt, in
microseconds on its own clock, and sends it over USB serial, so nothing the
host does (USB polling, a busy UI) can reorder two presses. The host's
``protocol.py`` and ``debounce.py`` are copied beside this file and imported
as they are: box and host cannot disagree on the wire format or the debounce.
Protocol: hardware/PROTOCOL.md. Wiring and flashing: hardware/README.md.
"""

import select
import sys
import time
from array import array

import micropython
from machine import Pin

import protocol
from debounce import PRESS, RELEASE, Debouncer

BUTTON_PINS = (2, 3, 4, 5, 6, 7)  # GP numbers, seat 0 first; each button to GND
LED_PINS = (8, 9, 10, 11, 12, 13)  # through a ULN2803A, like the Pi's LEDs
BOUNCE_US = 10000
QUEUE_SIZE = 64


class EdgeQueue:
    """Edges from the interrupt to the main loop, in arrays made up front.

    A hard interrupt may not allocate memory: ``put`` only stores small ints.
    One producer (the interrupt), one consumer (the loop), so no lock.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.seats = array("b", [0] * size)
        self.levels = array("b", [0] * size)
        self.ticks = array("l", [0] * size)
        self.head = 0
        self.tail = 0
        self.dropped = 0

    def put(self, seat: int, level: int, ticks: int) -> None:
        following = (self.head + 1) % self.size
        if following == self.tail:
            self.dropped += 1
            return
        self.seats[self.head] = seat
        self.levels[self.head] = level
        self.ticks[self.head] = ticks
        self.head = following

    def get(self):
        """The oldest edge as (seat, level, ticks), or None."""
        if self.tail == self.head:
            return None
        i = self.tail
        self.tail = (i + 1) % self.size
        return self.seats[i], self.levels[i], self.ticks[i]


class Box:
    """Everything but the pins' wiring: edges in, protocol lines out, commands in.

    ``ticks_us`` wraps early on MicroPython (2**30 on the Pico), so ticks are
    turned into a microsecond count that only grows, anchored at every loop;
    the protocol then sends it modulo 2**32.
    """

    def __init__(self, seats: int, leds: list, now_ticks: int, ticks_diff, bounce_us: int = BOUNCE_US) -> None:
        self.seats = seats
        self.leds = leds
        self.queue = EdgeQueue(QUEUE_SIZE)
        self._ticks_diff = ticks_diff
        self._debouncers = [Debouncer(bounce_us) for _ in range(seats)]
        self._lines = protocol.LineSplitter()
        self._anchor_ticks = now_ticks
        self._anchor_micros = 0

    def step(self, now_ticks: int) -> list:
        """Turn the queued edges into press/release lines; re-anchor the clock."""
        out = []
        edge = self.queue.get()
        while edge is not None:
            seat, level, ticks = edge
            micros = self._anchor_micros + self._ticks_diff(ticks, self._anchor_ticks)
            kind = self._debouncers[seat].edge(level == 0, micros)  # pull-up: low is down
            if kind == PRESS:
                out.append(protocol.encode_press(seat, micros))
            elif kind == RELEASE:
                out.append(protocol.encode_release(seat, micros))
            edge = self.queue.get()
        self._anchor_micros += self._ticks_diff(now_ticks, self._anchor_ticks)
        self._anchor_ticks = now_ticks
        return out

    def receive(self, data: bytes) -> list:
        """Obey the host's lines; return the replies. Anything else is skipped."""
        out = []
        for line in self._lines.feed(data):
            try:
                message = protocol.decode(line)
            except ValueError:
                continue
            if message[0] == protocol.LIGHTS:
                for seat, led in enumerate(self.leds):
                    led.value((message[1] >> seat) & 1)
            elif message[0] == protocol.QUERY:
                out.append(protocol.encode_hello(self.seats))
        return out


def edge_level(pin) -> int:
    """The level an edge left the pin at, from the trigger that fired.

    Reading ``pin.value()`` alone would be wrong during bounce: by the time
    the handler runs the contact may have bounced back.
    """
    flags = pin.irq().flags()
    if flags == Pin.IRQ_FALLING:
        return 0
    if flags == Pin.IRQ_RISING:
        return 1
    return pin.value()


def main() -> None:
    micropython.alloc_emergency_exception_buf(100)
    buttons = [Pin(n, Pin.IN, Pin.PULL_UP) for n in BUTTON_PINS]
    leds = [Pin(n, Pin.OUT, value=0) for n in LED_PINS]
    box = Box(len(buttons), leds, time.ticks_us(), time.ticks_diff)
    queue = box.queue
    for seat, pin in enumerate(buttons):
        pin.irq(
            lambda p, s=seat: queue.put(s, edge_level(p), time.ticks_us()),
            Pin.IRQ_FALLING | Pin.IRQ_RISING,
            hard=True,
        )
    host = select.poll()
    host.register(sys.stdin, select.POLLIN)
    out = sys.stdout.buffer
    out.write(protocol.encode_hello(len(buttons)))
    while True:
        for line in box.step(time.ticks_us()):
            out.write(line)
        while host.poll(0):
            for line in box.receive(sys.stdin.buffer.read(1)):
                out.write(line)
        time.sleep_ms(1)


if __name__ == "__main__":
    main()
