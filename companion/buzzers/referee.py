"""Challenge windows in real time: the one owner of a set of buzzers and of an :class:`Arbiter`.

The arbiter is pure; this class owns the clock and the devices. From the
first valid press it waits ``settle``, then decides: never before the
earliest edge plus ``settle``, whatever order the presses came in.

Everything reaches the referee's thread through one queue: the UI's
commands (arm, disarm, light, listen) and the backends' presses alike. So
the caller never waits on a port, a pin or a lock (the box takes up to
``serialbox.ARM_REPLY`` to say when it armed, which a table must not feel),
and the arbiter has a single owner: a press that arrives while an arm is
still queued is judged against the window that arm opens.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Collection, Iterable
from functools import partial

from companion.buzzers.arbiter import (
    EARLY, NOT_ARMED, OWN_CARD, TOO_LATE, Arbiter, Contested, Decision, Ignored, Window,
)
from companion.buzzers.backend import Buzzers, PressHandler

DecisionHandler = Callable[[Decision], None]
IgnoredHandler = Callable[[Ignored], None]

log = logging.getLogger(__name__)


class Referee:
    """Arms seats on a set of buzzers and reports who challenged first.

    Every method returns at once: it posts a command that the referee's own
    thread carries out in the order posted. ``on_decision`` and
    ``on_ignored`` run on that thread; a Kivy UI wraps them with
    ``@mainthread``. One long-lived thread serves every window and every
    game: starting a ``threading.Timer`` per window costs about 2 ms of
    thread start-up, which would show in every decision.

    Backends stamp edges on their own clock (the kernel's, the box's), which
    we may not be able to read. To know when the deadline has passed on that
    clock, we keep ``offset = max(edge - our_clock)`` over the presses: each
    press is handled after its edge, so ``our_clock + offset`` never runs
    ahead of the edge clock, and a decision taken when it reaches the
    deadline is never early. Where the backend reads its edge clock (GPIO),
    that reading replaces the edge: still never ahead, and not behind by the
    time the press took to reach us.

    The arm reaches the buzzers a moment after it was posted, so GPIO's
    opening is put back by that moment, and ``held()`` may already show a
    seat that pressed in answer to the card, its press still queued behind
    the arm. Such a seat is not stuck: once its press comes, stamped at or
    after the opening (or on the keyboard, which has no edge clock), it
    counts. A seat whose press we handled before the arm stays stuck.

    A card lands on the table before its claim is tapped, and a quick
    challenger slaps it then: on the table the window below it has closed,
    but we learn of the new card only at the tap. So a press that came at
    most ``early_ms`` before the arm of another card's window counts for
    that card, by its edge time, whether the window open then took it (it
    is dropped there, decided or not) or could not (none was open, or it was
    the player's own card); so does a button still held down from such a
    press. A press no window took is told only once it can no longer count
    (``early_ms`` passed, or the window closed), so that nobody is told
    "no card to challenge" and then takes the challenge.

    After the call the window is closed, yet a press stamped earlier than
    the winner's may still reach us: it is told as contested, as it would
    have been in the window.
    """

    def __init__(
        self,
        buzzers: Buzzers,
        *,
        settle_ms: float,
        early_ms: float = 0.0,
        on_decision: DecisionHandler | None = None,
        on_ignored: IgnoredHandler | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.buzzers = buzzers
        self.settle = settle_ms / 1000
        self.early = early_ms / 1000
        self._on_decision = on_decision
        self._on_ignored = on_ignored
        self._listener: PressHandler | None = None
        self._clock = clock
        self._commands: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._arbiter = Arbiter(settle=self.settle)
        self._offset = float("-inf")
        self._due: float | None = None  # on our clock: when to ask the arbiter
        self._down: set[int] = set()  # seats whose last press we have handled, and no release since
        self._unseen: set[int] = set()  # stuck at the arm, with no press of theirs handled before it
        self._restart: tuple[float, float] | None = None
        """Since the buzzers' clock started again in a window with presses: its time then, and the window's
        clock's time then (our clock plus the offset), which the new clock's edges are put on."""
        self._loose: list[tuple[Ignored, float]] = []
        """Since the last arm or disarm, presses no window could take, not yet told: why, and when we handled it."""
        self._called: Arbiter | None = None
        """The window decided and then closed (its challenge called), until the next arm."""
        buzzers.on_press = lambda seat, edge_time: self._commands.put(partial(self._press, seat, edge_time))
        buzzers.on_release = lambda seat, _edge_time: self._commands.put(partial(self._release, seat))
        buzzers.on_opened = lambda edge_time: self._commands.put(partial(self._reopened, edge_time))
        buzzers.on_restarted = lambda edge_time: self._commands.put(partial(self._restarted, edge_time))
        self._thread = threading.Thread(target=self._run, name="referee", daemon=True)
        self._thread.start()

    # --- commands: any thread, never waiting ------------------------------------------------

    def arm(
        self, seats: Iterable[int], own_card: int | None = None, window: Window = None, *, landed: bool = True,
        moved: bool = False,
    ) -> None:
        """Open a window: ``seats`` may challenge; ``own_card`` is the card's player; ``window`` names the
        card, and every decision and ignored press of this window carries it. ``landed`` says the card was
        just laid on the one whose window is open, so the presses made there as it landed are for it;
        False when the card came back by an undo or a redo. ``moved`` says the table moved the challenge
        of the window below to this card: all its presses are for it, however long ago.

        Presses stamped more than ``early_ms`` before the window opens (on the
        backend's edge clock: the box's ``T``, GPIO's clock at this call) are
        refused as "pressed before the card was played".
        """
        self._commands.put(
            partial(self._arm, frozenset(seats) - {own_card}, own_card, window, self._clock(), landed, moved)
        )

    def claim(self, seat: int, window: Window) -> None:
        """A challenge taken at the screen (a key, a long press) for ``window``: a press at the moment the
        referee takes it, so a buzzer pressed before it still wins; after the decision it is too late."""
        self._commands.put(partial(self._claim, seat, window))

    def disarm(self) -> None:
        """Close the window (the next seat played or passed): every press is ignored."""
        self._commands.put(self._disarm)

    def light(self, seats: Collection[int]) -> None:
        """These buzzers' lights on (and the piezo's beep), the window left as it is:
        the buzzer check and set-up's binding answer a press with it."""
        self._commands.put(partial(self.buzzers.show_winner, tuple(seats)))

    def show_turn(self, buzzer: int | None) -> None:
        """This buzzer's light pulses, the seat to play's (None: no seat's); the window left as it is."""
        self._commands.put(partial(self.buzzers.show_turn, buzzer))

    def lights_off(self) -> None:
        """Every light off, the window left as it is (leaving the buzzer check)."""
        self._commands.put(self.buzzers.disarm)

    def listen(self, on_press: PressHandler | None) -> None:
        """Send raw presses to ``on_press`` instead of the window (binding and checking
        buzzers); None sends them back. ``on_press`` runs on the referee's thread."""
        self._commands.put(partial(setattr, self, "_listener", on_press))

    def report_to(self, on_decision: DecisionHandler | None, on_ignored: IgnoredHandler | None = None) -> None:
        """Decisions and ignored presses go to these from now on (a new table), None to nowhere.

        Posted like every command, so a decision on a window armed before the
        change still goes to the handlers of its own table.
        """
        self._commands.put(partial(self._report_to, on_decision, on_ignored))

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Wait until every command posted before this call has reached the buzzers;
        False if ``timeout`` passed first. For a benchmark or a test; never the UI."""
        done = threading.Event()
        self._commands.put(done.set)
        return done.wait(timeout)

    def stop(self) -> None:
        """Turn the lights off, end the thread and let go of the buzzers, leaving them open."""
        self._commands.put(partial(self.buzzers.show_turn, None))
        self._commands.put(self._disarm)
        self._commands.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join()
        self.buzzers.on_press = self.buzzers.on_release = None

    def close(self) -> None:
        """Stop, then close the buzzers. An arm under way on the referee's thread may be waiting on
        the box's answer: the buzzers hear first that they are closing, so that wait ends at once."""
        self.buzzers.closing()
        self.stop()
        self.buzzers.close()

    # --- the referee's thread ---------------------------------------------------------------

    def _arm(
        self, armed: frozenset[int], own_card: int | None, window: Window, posted: float, landed: bool, moved: bool
    ) -> None:
        stuck = self.buzzers.arm(armed, waited=self._clock() - posted)
        before, self._arbiter = self._arbiter, Arbiter(
            armed, settle=self.settle, own_card=own_card, stuck=stuck, opened=self.buzzers.opened_at,
            early=self.early, window=window,
        )
        # The window open until now closes for another card's: its presses as the card landed are for it.
        carried = [] if not landed or before.window in (None, window) else [
            (seat, edge, edge - self._offset, moved) for seat, edge in before.presses().items()
        ]
        self._unseen = set(stuck - self._down)
        self._offset = float("-inf")
        self._restart = None
        self._called = None
        self._due = None
        loose = [(press.seat, press.edge_time, handled, False) for press, handled in self._loose]
        self._loose = []
        for seat, edge_time, handled, moved_here in carried + loose:
            if moved_here or self._in_time(edge_time, handled, posted):
                self._arbiter.release(seat)  # held since a press that counts: not stuck
                self._count(seat, edge_time, before_tap=True)
            else:  # too long before this card to be for it, and its own window is gone
                self._tell(Ignored(seat, edge_time, EARLY, window=window))

    def _in_time(self, edge_time: float, handled: float, posted: float) -> bool:
        """A press before the arm may count for the window armed at ``posted``: at most ``early`` before it."""
        opened = self._arbiter.opened
        if opened is None:
            return posted - handled <= self.early
        return edge_time >= opened - self.early

    def _disarm(self) -> None:
        if self._arbiter.decision is not None:
            self._called = self._arbiter
        self._arbiter = Arbiter(settle=self.settle)
        self._restart = None
        self._due = None
        loose, self._loose = self._loose, []
        for press, _handled in loose:
            self._tell(press)  # pressed before a window closed, for none: nothing can take it now
        self.buzzers.disarm()

    def _reopened(self, edge_time: float) -> None:
        """The box armed again on its own clock (it restarted, and we sent ``A`` again): the window opens then,
        unless it holds presses already, and with them the clock it opened on (``_restarted``)."""
        if self._arbiter.armed and self._arbiter.decision is None and self._restart is None:
            self._arbiter.opened = edge_time

    def _restarted(self, edge_time: float) -> None:
        """The box's clock started again at ``edge_time``. A window with presses keeps its own clock: the new
        clock's edges are put on it by our clock and the offset, in the order they reach us, so a press on
        the new clock neither beats an earlier one on the old clock nor reads as made before the card."""
        if self._arbiter.deadline is not None:
            self._restart = (edge_time, self._clock() + self._offset)

    def _claim(self, seat: int, window: Window) -> None:
        """A press at the edge clock's now; without a reading, our clock and the offset the presses gave
        (the keyboard stamps its keys on our clock, so no offset is ours)."""
        edge_now = self.buzzers.edge_clock()
        offset = self._offset if self._offset > float("-inf") else 0.0
        edge_time = edge_now if edge_now is not None else self._clock() + offset
        if window != self._arbiter.window:
            if self._on_ignored is not None:
                self._on_ignored(Ignored(seat, edge_time, TOO_LATE, window=window))
            return
        self._count(seat, edge_time, claim=True)

    def _report_to(self, on_decision: DecisionHandler | None, on_ignored: IgnoredHandler | None) -> None:
        self._on_decision, self._on_ignored = on_decision, on_ignored

    def _press(self, seat: int, edge_time: float) -> None:
        self._down.add(seat)
        if self._restart is not None:
            restarted, then = self._restart
            edge_time = then + edge_time - restarted
        if self._listener is not None:
            self._listener(seat, edge_time)
            return
        if seat in self._unseen:
            self._unseen.discard(seat)
            opened = self._arbiter.opened
            if opened is None or edge_time >= opened - self.early:
                self._arbiter.release(seat)  # pressed as the card landed, or while the arm was on its way: not stuck
        self._count(seat, edge_time)

    def _count(self, seat: int, edge_time: float, *, before_tap: bool = False, claim: bool = False) -> None:
        ignored = self._arbiter.press(seat, edge_time, before_tap=before_tap, claim=claim)
        if ignored is None:
            # The edge clock's now when the backend can read it (GPIO), else this edge: GPIO hands a press
            # over only once confirmed, so the edge alone would put the decision a confirmation late.
            edge_now = self.buzzers.edge_clock()
            self._offset = max(self._offset, (edge_time if edge_now is None else edge_now) - self._clock())
            deadline = self._arbiter.deadline
            assert deadline is not None  # a valid press sets it
            self._due = deadline - self._offset  # our clock's time when the edge clock reaches the deadline
            return
        if ignored.reason in (NOT_ARMED, OWN_CARD) and not claim:
            contested = self._called.press(seat, edge_time) if self._called is not None else None
            if isinstance(contested, Contested):
                ignored = contested  # earlier than the called winner's press: it deserves to be told so
            elif not before_tap and self.early > 0:
                self._loose.append((ignored, self._clock()))  # it may count for the card that lands next
                return
        self._tell(ignored)

    def _tell(self, ignored: Ignored) -> None:
        if self._on_ignored is not None:
            self._on_ignored(ignored)

    def _release(self, seat: int) -> None:
        self._down.discard(seat)
        self._unseen.discard(seat)
        self._arbiter.release(seat)

    def _run(self) -> None:
        while (command := self._next_command()) is not None:
            try:
                command()
            except Exception:  # one failed write must not leave the table without a referee
                log.exception("Referee: a buzzer command failed; carrying on")

    def _next_command(self) -> Callable[[], None] | None:
        """The next command posted, or the decision or a loose press's notice once due; None once stopped."""
        due = min((t for t in (self._due, self._loose_due()) if t is not None), default=None)
        if due is not None and self._clock() >= due:
            return self._tick
        wait = None if due is None else max(0.0, due - self._clock())
        try:
            return self._commands.get(timeout=wait)
        except queue.Empty:
            return self._tick

    def _loose_due(self) -> float | None:
        """When the oldest loose press can no longer count for a card, on our clock."""
        return self._loose[0][1] + self.early if self._loose else None

    def _tick(self) -> None:
        self._decide()
        while self._loose and self._clock() >= self._loose[0][1] + self.early:
            self._tell(self._loose.pop(0)[0])

    def _decide(self) -> None:
        """Ask the arbiter once our clock says the deadline may have passed on the edge clock."""
        if self._due is None or self._clock() < self._due:
            return
        now = self._clock() + self._offset
        decision = self._arbiter.poll(now)
        if decision is None:
            deadline = self._arbiter.deadline
            assert deadline is not None  # a due time is only set by a valid press
            self._due = self._clock() + deadline - now  # our estimate lags: wait the rest
            return
        self._due = None
        self.buzzers.show_winner(decision.tie if decision.winner is None else (decision.winner,))
        if self._on_decision is not None:
            self._on_decision(decision)
