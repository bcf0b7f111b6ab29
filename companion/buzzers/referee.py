"""Challenge windows in real time: the thread-safe driver of an :class:`Arbiter`.

The arbiter is pure; this class owns the clock. From the first valid callback
it waits ``settle``, then decides: never before the earliest edge plus
``settle``, whatever order the callbacks came in.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from companion.buzzers.arbiter import Arbiter, Decision, Ignored
from companion.buzzers.backend import Buzzers


class Referee:
    """Arms seats on a set of buzzers and reports who challenged first.

    ``on_decision`` and ``on_ignored`` run on the referee's own thread or a
    backend's; a Kivy UI wraps them with ``@mainthread``. One long-lived
    thread waits for each deadline: starting a ``threading.Timer`` per window
    costs about 2 ms of thread start-up, which would show in every decision.

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
        self._wake = threading.Condition()
        self._arbiter = Arbiter(settle=self.settle)
        self._offset = float("-inf")
        self._due: float | None = None  # on our clock: when to ask the arbiter
        self._closed = False
        buzzers.on_press = self._press
        buzzers.on_release = self._release
        self._thread = threading.Thread(target=self._run, name="referee", daemon=True)
        self._thread.start()

    def arm(self, seats: Iterable[int], own_card: int | None = None) -> None:
        """Open a window: ``seats`` may challenge; ``own_card`` is the card's player.

        Presses stamped before this moment (on the backend's edge clock) are
        refused as "pressed before the card was played".
        """
        armed = frozenset(seats) - {own_card}
        stuck = self.buzzers.arm(armed)
        with self._wake:
            self._arbiter = Arbiter(
                armed, settle=self.settle, own_card=own_card, stuck=stuck, opened=self.buzzers.opened_at
            )
            self._offset = float("-inf")
            self._due = None

    def disarm(self) -> None:
        """Close the window (the next seat played or passed): every press is ignored."""
        with self._wake:
            self._arbiter = Arbiter(settle=self.settle)
            self._due = None
        self.buzzers.disarm()

    def stop(self) -> None:
        """End the thread and let go of the buzzers, leaving them open: the app keeps one
        set of buzzers for every game, and each game's table has its own referee."""
        self.disarm()
        with self._wake:
            self._closed = True
            self._wake.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join()
        self.buzzers.on_press = self.buzzers.on_release = None

    def close(self) -> None:
        self.stop()
        self.buzzers.close()

    def _press(self, seat: int, edge_time: float) -> None:
        with self._wake:
            ignored = self._arbiter.press(seat, edge_time)
            if ignored is None:
                self._offset = max(self._offset, edge_time - self._clock())
                if self._due is None:
                    self._due = self._clock() + self.settle
                    self._wake.notify()
        if ignored is not None and self.on_ignored is not None:
            self.on_ignored(ignored)

    def _release(self, seat: int, edge_time: float) -> None:
        with self._wake:
            self._arbiter.release(seat)

    def _run(self) -> None:
        while (decision := self._next_decision()) is not None:
            self.buzzers.show_winner(decision.tie or (decision.winner,))
            self.on_decision(decision)

    def _next_decision(self) -> Decision | None:
        """Wait for the current window's decision; None once closed."""
        with self._wake:
            while not self._closed:
                left = None if self._due is None else self._due - self._clock()
                if left is None or left > 0:
                    self._wake.wait(left)
                    continue
                now = self._clock() + self._offset
                decision = self._arbiter.poll(now)
                if decision is not None:
                    self._due = None
                    return decision
                deadline = self._arbiter.deadline
                assert deadline is not None  # a due time is only set by a valid press
                self._due = self._clock() + deadline - now  # our estimate lags: wait the rest
            return None
