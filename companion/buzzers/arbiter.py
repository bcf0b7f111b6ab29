"""Who pressed first: the pure decision, with time passed in and never read.

Callbacks reach us late and out of order (a GPIO thread, a serial reader, a
busy UI loop), so the arrival order proves nothing. What counts is the edge
time each press carries. The :class:`Arbiter` therefore waits a short *settle*
time after the earliest edge it knows of before it decides: a press whose edge
came earlier but whose callback came later still wins, as long as it arrives
within the settle time. Keeping the clock outside makes every decision a pure
function of the presses, which is what lets us test it with 10,000 shuffled
trials and prove it to a table arguing about 20 ms.

>>> arbiter = Arbiter(armed={1, 2, 3}, settle=0.030, own_card=0)
>>> arbiter.press(2, 10.012)
>>> arbiter.press(0, 10.000)
Ignored(seat=0, edge_time=10.0, reason='own card', window=None)
>>> arbiter.press(1, 10.005)            # arrives later, pressed earlier
>>> arbiter.poll(10.030) is None        # still settling: 10.005 + 0.030
True
>>> decision = arbiter.poll(10.035)
>>> decision.winner, [(p.seat, format_delay(p.delay_ms)) for p in decision.later]
(1, [(2, '+7 ms')])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

NOT_ARMED = "not armed"
OWN_CARD = "own card"
STUCK = "stuck"
TOO_LATE = "too late"
EARLY = "pressed before the card was played"

Window = int | None
"""Which window a press is judged in: one number per opening of a card's window, given by the table
(``RefereeLink``), so that a card undone and redone opens a new one; None when unsaid."""


@dataclass(frozen=True)
class Ignored:
    """A press that cannot take the challenge, and why (shown to the table)."""

    seat: int
    edge_time: float
    reason: str
    window: Window = field(default=None, kw_only=True)
    """The window the press was judged in, so a table drops one that reaches it after that card."""


@dataclass(frozen=True)
class Contested(Ignored):
    """A press earlier than the winner's whose signal came only after the decision.

    The decision stands (the table has seen it), but the table deserves to
    know: ``reason`` says it in words, with both times.
    """

    winner: int | None  # None when the decision was a tie
    winner_edge: float

    @property
    def ahead_ms(self) -> float:
        return (self.winner_edge - self.edge_time) * 1000


@dataclass(frozen=True)
class LaterPress:
    """A seat that pressed after the winner, ``delay_ms`` after the first edge."""

    seat: int
    delay_ms: float


@dataclass(frozen=True)
class Decision:
    """The outcome of one challenge window.

    ``winner`` is None only for a tie: two or more seats whose edges carry
    exactly the same time. A clock cannot split them, so the table does
    (the screen offers ``tie``). ``stuck`` lists armed seats whose button
    was held down from before the window opened until the decision.
    """

    winner: int | None
    first_edge: float
    later: tuple[LaterPress, ...] = ()
    tie: tuple[int, ...] = ()
    ignored: tuple[Ignored, ...] = ()
    stuck: tuple[int, ...] = ()
    window: Window = None
    """The card the decision is for (see ``Ignored.window``)."""
    before_tap: tuple[int, ...] = ()
    """Seats among the winner, the later ones and the tie whose press came before the claim was tapped
    (the card was on the table, its claim not yet on the screen) and counted all the same."""
    claimed: bool = False
    """The winner took it at the screen (a key, a long press), not by a buzzer's edge."""
    opened: float | None = None
    """When the window opened (the claim's tap), on the edge clock; None when the backend cannot say."""

    @property
    def from_tap_ms(self) -> float | None:
        """From the claim's tap to the winning edge; at most 0 for a slap as the card landed, before the tap.
        None for a claim at the screen, which has no edge, or when the opening is unknown."""
        if self.claimed or self.opened is None:
            return None
        return (self.first_edge - self.opened) * 1000


def format_delay(delay_ms: float, unit: str = "ms") -> str:
    """Show a delay the way players argue about it: "+37 ms", "+0.4 ms"; the screen passes the unit as its
    language writes it ("мс").

    Whole milliseconds are what a table can feel; tenths only matter below one.

    >>> format_delay(37.2), format_delay(1.04), format_delay(0.97), format_delay(0.42), format_delay(0)
    ('+37 ms', '+1 ms', '+1 ms', '+0.4 ms', '+0.0 ms')
    """
    tenths = round(delay_ms, 1)
    return f"+{delay_ms:.0f} {unit}" if tenths >= 1 else f"+{tenths:.1f} {unit}"


class Arbiter:
    """One challenge window: armed seats, presses in, one :class:`Decision` out.

    Only each seat's earliest press counts. A press whose edge comes more
    than ``settle`` seconds after the first edge is "too late": it happened
    after the decision moment, even if it reached us before :meth:`poll`.
    This makes the decision depend on the edges alone, never on arrival order.

    ``opened`` is the moment the window opened, on the edge clock. Events
    reach us late (lgpio holds them back about 0.5 ms to sort them), so a
    slap from just before the card was played can arrive after :meth:`arm`;
    its edge time gives it away. None when the backend cannot read its clock
    (the keyboard, whose events arrive in order on the UI's own thread).
    """

    def __init__(
        self,
        armed: Iterable[int] = (),
        *,
        settle: float,
        own_card: int | None = None,
        stuck: Iterable[int] = (),
        opened: float | None = None,
        early: float = 0.0,
        window: Window = None,
    ) -> None:
        if settle <= 0:
            raise ValueError("settle must be a positive number of seconds")
        self.settle = settle
        self.armed = frozenset(armed) - {own_card}
        self.own_card = own_card
        self.opened = opened
        self.early = early
        """How long before ``opened`` a press still counts: the card lands before its claim is tapped."""
        self.window = window
        self._before_tap: set[int] = set()
        self._claimed: set[int] = set()
        self._stuck = set(stuck) & self.armed
        self._presses: dict[int, float] = {}
        self._ignored: list[Ignored] = []
        self._decision: Decision | None = None

    @property
    def deadline(self) -> float | None:
        """Edge time at which the decision is due (None before any valid press)."""
        if not self._presses:
            return None
        return min(self._presses.values()) + self.settle

    @property
    def decision(self) -> Decision | None:
        return self._decision

    def press(self, seat: int, edge_time: float, *, before_tap: bool = False, claim: bool = False) -> Ignored | None:
        """Take one press; return why it is ignored, or None if it may win.

        ``before_tap`` says the press came before the window opened and the
        caller has judged it in time for this card (the keyboard has no edge
        clock to judge it by; the table may move a challenge here), so the
        opening does not refuse it.
        ``claim`` says it was taken at the screen (a key, a long press) at
        ``edge_time``: a press like any other, so an earlier buzzer still
        wins and the rest are later; only a stuck button or the opening
        cannot refuse it, and once decided it is too late, never contested.
        """
        reason = self._reason_to_ignore(seat, edge_time, claim=claim, before_tap=before_tap)
        if reason is None and self._decision is not None:
            if edge_time < self._decision.first_edge and not claim:
                return self._contested(seat, edge_time, self._decision)
            reason = TOO_LATE
        if reason is not None:
            ignored = Ignored(seat, edge_time, reason, window=self.window)
            if self._decision is None:
                self._ignored.append(ignored)
            return ignored
        if seat not in self._presses or edge_time < self._presses[seat]:
            self._presses[seat] = edge_time
            early = before_tap or (self.opened is not None and edge_time < self.opened)
            (self._before_tap.add if early else self._before_tap.discard)(seat)
            (self._claimed.add if claim else self._claimed.discard)(seat)
        return None

    def presses(self) -> dict[int, float]:
        """Each seat's earliest press that took part in the window (made before its decision), by seat."""
        return dict(self._presses)

    def release(self, seat: int) -> None:
        """A stuck button came up: from now on its seat may press again."""
        self._stuck.discard(seat)

    def poll(self, now: float) -> Decision | None:
        """Decide once ``now`` (on the edge clock) has reached the deadline."""
        deadline = self.deadline
        if self._decision is None and deadline is not None and now >= deadline:
            self._decision = self._decide(min(self._presses.values()), deadline)
        return self._decision

    def _reason_to_ignore(
        self, seat: int, edge_time: float, *, claim: bool = False, before_tap: bool = False
    ) -> str | None:
        if seat == self.own_card:
            return OWN_CARD
        if seat not in self.armed:
            return NOT_ARMED
        if claim:
            return None
        if seat in self._stuck:
            return STUCK
        if self.opened is not None and edge_time < self.opened - self.early and not before_tap:
            return EARLY
        return None

    @staticmethod
    def _contested(seat: int, edge_time: float, decision: Decision) -> Contested:
        ahead = format_delay((decision.first_edge - edge_time) * 1000).removeprefix("+")
        reason = (
            f"contested: pressed {ahead} before the winning press, "
            f"but the press reached the referee after the decision"
        )
        return Contested(seat, edge_time, reason, decision.winner, decision.first_edge, window=decision.window)

    def _decide(self, first: float, deadline: float) -> Decision:
        in_time = sorted((edge, seat) for seat, edge in self._presses.items() if edge <= deadline)
        late = [Ignored(seat, edge, TOO_LATE, window=self.window) for seat, edge in self._presses.items()
                if edge > deadline]
        firsts = tuple(seat for edge, seat in in_time if edge == first)
        later = tuple(LaterPress(seat, (edge - first) * 1000) for edge, seat in in_time if edge != first)
        return Decision(
            winner=firsts[0] if len(firsts) == 1 else None,
            first_edge=first,
            later=later,
            tie=firsts if len(firsts) > 1 else (),
            ignored=tuple(sorted(self._ignored + late, key=lambda i: (i.edge_time, i.seat))),
            stuck=tuple(sorted(self._stuck)),
            window=self.window,
            before_tap=tuple(sorted(seat for edge, seat in in_time if seat in self._before_tap)),
            claimed=len(firsts) == 1 and firsts[0] in self._claimed,
            opened=self.opened,
        )
