"""Challenge windows in real time: the thread-safe driver of an :class:`Arbiter`.

The arbiter is pure; this class owns the clock. It starts one timer at the
first valid callback and decides ``settle`` later, which is never before the
earliest edge plus ``settle``, whatever order the callbacks came in.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from companion.buzzers.arbiter import Arbiter, Decision, Ignored
from companion.buzzers.backend import Buzzers


class Referee:
    """Arms seats on a set of buzzers and reports who challenged first.

    ``on_decision`` and ``on_ignored`` run on a timer or backend thread;
    a Kivy UI wraps them with ``@mainthread``.

    Backends stamp edges on their own clock (the kernel's, the box's), which
    we cannot read. To know when the deadline has passed on that clock, we
    keep ``offset = max(edge - our_clock)`` over the presses: each press
    arrives after its edge, so ``our_clock + offset`` never runs ahead of
    the edge clock, and a decision taken when it reaches the deadline is
    never early.
    """

    def __init__(
        self,
        buzzers: Buzzers,
        *,
        settle_ms: float,
        on_decision: Callable[[Decision], None],
        on_ignored: Callable[[Ignored], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.buzzers = buzzers
        self.settle = settle_ms / 1000
        self.on_decision = on_decision
        self.on_ignored = on_ignored
        self._clock = clock
        self._lock = threading.Lock()
        self._arbiter = Arbiter(settle=self.settle)
        self._offset = float("-inf")
        self._timer: threading.Timer | None = None
        buzzers.on_press = self._press
        buzzers.on_release = self._release

    def arm(self, seats: Iterable[int], own_card: int | None = None) -> None:
        """Open a window: ``seats`` may challenge; ``own_card`` is the card's player."""
        armed = frozenset(seats) - {own_card}
        stuck = self.buzzers.arm(armed)
        with self._lock:
            self._cancel_timer()
            self._arbiter = Arbiter(armed, settle=self.settle, own_card=own_card, stuck=stuck)
            self._offset = float("-inf")

    def disarm(self) -> None:
        """Close the window (the next seat played or passed): every press is ignored."""
        with self._lock:
            self._cancel_timer()
            self._arbiter = Arbiter(settle=self.settle)
        self.buzzers.disarm()

    def close(self) -> None:
        self.disarm()
        self.buzzers.close()

    def _press(self, seat: int, edge_time: float) -> None:
        with self._lock:
            arbiter = self._arbiter
            ignored = arbiter.press(seat, edge_time)
            if ignored is None:
                self._offset = max(self._offset, edge_time - self._clock())
                if self._timer is None:
                    self._start_timer(arbiter, self.settle)
        if ignored is not None and self.on_ignored is not None:
            self.on_ignored(ignored)

    def _release(self, seat: int, edge_time: float) -> None:
        with self._lock:
            self._arbiter.release(seat)

    def _decide(self, arbiter: Arbiter) -> None:
        with self._lock:
            if arbiter is not self._arbiter or arbiter.decision is not None:
                return  # re-armed, disarmed or already decided meanwhile
            deadline = arbiter.deadline
            now = self._clock() + self._offset
            decision = arbiter.poll(now)
            if decision is None and deadline is not None:
                self._start_timer(arbiter, deadline - now)  # the timer woke early
                return
        if decision is not None:
            self.buzzers.show_winner(decision.tie or (decision.winner,))
            self.on_decision(decision)

    def _start_timer(self, arbiter: Arbiter, delay: float) -> None:
        self._timer = threading.Timer(max(delay, 0.0), self._decide, args=(arbiter,))
        self._timer.daemon = True
        self._timer.start()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
