"""Helpers for the buzzer tests: gpiozero mock pins with edges at given times, real ptys."""

from __future__ import annotations

import os
import queue
import select
import threading
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPin

from companion.buzzers import Buzzers, Referee


class TimedPin(MockPin):
    """A MockPin whose edges carry a time the test chooses.

    MockPin reports the monotonic time at which ``drive_low`` ran as the
    edge's ticks; a test of "earliest edge wins" needs the edge time and the
    callback order to differ, so ``press``/``release`` take the edge time.
    """

    def press(self, at: float) -> None:
        self._edge_at = at
        self.drive_low()

    def release(self, at: float) -> None:
        self._edge_at = at
        self.drive_high()

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and getattr(self, "_edge_at", None) is not None:
            self._last_change, self._edge_at = self._edge_at, None
        return changed


class NoEdgePin(TimedPin):
    """A pin whose driver refuses edge detection, as RPi.GPIO does without access to /dev/gpiomem."""

    def _enable_event_detect(self) -> None:
        raise RuntimeError("Failed to add edge detection")


class CallbackTimeFactory(MockFactory):
    """A factory not known to stamp edges in the kernel (like RPi.GPIO or gpiozero's native)."""


class WrappingFactory(MockFactory):
    """Ticks as a 32-bit microsecond counter, like pigpio's, to test wraparound."""

    now_ticks = 0

    def ticks(self) -> int:
        return self.now_ticks

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return ((later - earlier) % 2**32) / 1e6


def timed_factory(factory_class: type[MockFactory] = MockFactory) -> MockFactory:
    return factory_class(pin_class=TimedPin)


class Recorder:
    """Collects callbacks from another thread; ``next`` waits for one."""

    def __init__(self) -> None:
        self.items: queue.Queue[object] = queue.Queue()

    def __call__(self, *args: object) -> None:
        self.items.put(args[0] if len(args) == 1 else args)

    def next(self, timeout: float = 5.0) -> object:
        return self.items.get(timeout=timeout)

    def empty_after(self, wait: float) -> bool:
        try:
            self.items.get(timeout=wait)
        except queue.Empty:
            return True
        return False


class HandOver:
    """Waits for the referee to have taken each press: wraps the handler the referee gave the buzzers,
    so a test goes on once the press is in, however long the backend's thread took to hand it over."""

    def __init__(self, buzzers: Buzzers, referee: Referee) -> None:
        self._referee = referee
        self._taken = threading.Semaphore(0)
        to_referee = buzzers.on_press
        assert to_referee is not None
        buzzers.on_press = lambda seat, edge: (to_referee(seat, edge), self._taken.release())

    def wait(self) -> None:
        assert self._taken.acquire(timeout=5.0) and self._referee.flush()


class PtyPair:
    """A real pseudo-terminal: the test writes as the box on ``master``; the app opens ``path``."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_until(self, marker: bytes, limit: int = 4096, timeout: float = 5.0) -> bytes:
        data = b""
        while marker not in data and len(data) < limit:
            if not select.select([self.master], [], [], timeout)[0]:
                raise TimeoutError(f"{marker!r} never came; got {data!r}")
            data += os.read(self.master, limit)
        return data

    def read_available(self) -> bytes:
        """Whatever the app has written so far."""
        data = b""
        while select.select([self.master], [], [], 0.05)[0]:
            data += os.read(self.master, 4096)
        return data

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def point(link: Path, target: str) -> None:
    """Re-point a symlink like udev's /dev/spicy-buzzers when the box comes back."""
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target)
