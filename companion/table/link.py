"""The table's link to the referee: seats to buzzers and back, and each decision kept to its own card.

The referee knows buzzers (places in the wiring) and windows; the table knows
seats and the card on top. This module is the one place that turns one into
the other, with the game's ``Seating``: it arms ``buzzer_of(seat)`` for the
window the table names, and reads a decision or an ignored press as seats, or
as nothing when it names another window (a card played or undone since) or a
buzzer no seat is bound to. No Kivy: the view calls it on the UI thread, and
its tests run without a window.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from itertools import count

from companion.buzzers import Contested, Decision, Ignored, Referee
from companion.buzzers.arbiter import TOO_LATE, Window
from companion.table.seating import Seating
from companion.store.records import BuzzTime
from companion.table.model import Buzz


_UNKNOWN = object()
"""What the referee is armed for when the link cannot say (a decision taken): anything differs from it."""


@dataclass(frozen=True)
class Press:
    """A press that did not take the challenge, by seat: why (the arbiter's reason), and when it was an
    earlier press that came after the decision (contested), by how much and ahead of whom."""

    seat: int
    reason: str
    ahead_ms: float | None = None
    winner: int | None = None


class RefereeLink:
    """Arms, disarms and claims for the table; reads what the referee reports back for the open window."""

    def __init__(self, referee: Referee | None, seating: Seating) -> None:
        self.referee = referee
        self.seating = seating
        self.window: Window = None
        """The open window, one number per opening of a card's window (the referee's ``Window``);
        a report naming another one is dropped."""
        self._card: int | None = None
        """The card followed, by its place in the log (``Game.window_entry``)."""
        self._newest = -1
        """The latest place in the log of a card followed: a card laid since comes after it (a redo does not)."""
        self._openings = count()
        self._armed: object = _UNKNOWN
        """What the referee was last told for the open window (its window, seats and card's player, or None
        for nothing armed): a refresh that changes none of it arms nothing again."""
        self._decision: Decision | None = None
        """The open window's decision, read as seats: what its challenge's buzz time is made of."""
        self._margin: float | None = None
        """Milliseconds from the winning press to the next seat's press seen so far, for ``_decision``."""
        self._turn: int | None = None
        """The buzzer whose light the referee was last told to pulse."""

    def report_to(self, on_decision: Callable[[Decision], None] | None,
                  on_ignored: Callable[[Ignored], None] | None = None) -> None:
        if self.referee is not None:
            self.referee.report_to(on_decision, on_ignored)

    def close(self) -> None:
        """Stop listening (the app's referee keeps the buzzers for the next game)."""
        self.show_turn(None)
        if self.referee is not None:
            self.referee.disarm()
            self.referee.report_to(None)
            self.referee = None

    def show_turn(self, seat: int | None) -> None:
        """The seat to play's light pulses (None: nobody is to play)."""
        buzzer = None if seat is None else self.seating.buzzer_of(seat)
        if self.referee is not None and buzzer != self._turn:
            self._turn = buzzer
            self.referee.show_turn(buzzer)

    def follow(
        self, card: int | None, armed: Collection[int], own_card: int | None, buzzed: bool, moved: bool = False
    ) -> None:
        """The table changed: ``armed`` seats may challenge the card laid at ``card`` (its place in the log),
        unless someone has ``buzzed`` already (then the referee's decision stands and later presses stay
        later).

        A card that leaves the top and comes back (an undo, then a redo) opens a new window: what was
        decided in the one that closed stays there. A refresh that leaves the same card on top (an adjust,
        a language switch) keeps the window as it is, with the presses it holds. Only a card just laid takes
        the presses made as it landed in the window below it (``Referee.arm``'s ``landed``), or all of them
        when the table ``moved`` the challenge there.
        """
        landed = card is not None and card > self._newest
        if card != self._card:
            self._card = card
            self._newest = max(self._newest, -1 if card is None else card)
            self.window = None if card is None else next(self._openings)
        if self.referee is None:
            return
        if not armed or not buzzed:
            self._decision = self._margin = None  # a window opened again, or closed: its decision is gone
        if buzzed:
            self._armed = _UNKNOWN  # decided: dropping the buzz opens the window again
            return
        target = (self.window, frozenset(armed), own_card) if armed else None
        if target == self._armed:
            return
        self._armed = target
        if armed:
            self.referee.arm(
                [self.seating.buzzer_of(seat) for seat in armed],
                own_card=None if own_card is None else self.seating.buzzer_of(own_card),
                window=self.window,
                landed=landed,
                moved=moved and landed,
            )
        else:
            self.referee.disarm()

    def claim(self, seat: int) -> bool:
        """A challenge taken at the screen, through the same arbiter as the buzzers; False with no referee
        (the table decides it at once)."""
        if self.referee is None:
            return False
        self.referee.claim(self.seating.buzzer_of(seat), self.window)
        return True

    def buzz(self, decision: Decision) -> Buzz | None:
        """The decision as seats, or None when it is for another card."""
        if decision.window != self.window:
            return None
        self._decision, self._margin = decision, None
        if decision.tie:
            self._margin = 0.0
        for press in decision.later:
            self._next_press(press.seat, press.delay_ms)
        for ignored in decision.ignored:
            self._heard(ignored)
        later = tuple(
            (seat, p.delay_ms) for p in decision.later if (seat := self.seat_of(p.seat)) is not None
        )
        return Buzz(self.seat_of(decision.winner), later, self._seats(decision.tie), self._seats(decision.before_tap))

    def stuck(self, decision: Decision) -> tuple[int, ...]:
        """Seats whose buttons were held down through the window."""
        return self._seats(decision.stuck)

    def press(self, ignored: Ignored) -> Press | None:
        """The ignored press as a seat, or None: for another card, or on a buzzer no seat is bound to."""
        seat = self.seat_of(ignored.seat)
        if seat is None or ignored.window not in (None, self.window):
            return None
        self._heard(ignored)
        if isinstance(ignored, Contested):
            winner = None if ignored.winner is None else self.seat_of(ignored.winner)
            return Press(seat, ignored.reason, ignored.ahead_ms, winner)
        return Press(seat, ignored.reason)

    def buzz_time(self, seat: int) -> BuzzTime | None:
        """How ``seat`` won the open window's challenge by buzzer; None when it was not a buzzer's win
        (a claim at the screen, no referee, a decision gone with its window)."""
        decision = self._decision
        if decision is None or decision.claimed or decision.window != self.window:
            return None
        if seat not in self._seats((decision.winner,) if decision.winner is not None else decision.tie):
            return None
        return BuzzTime(decision.from_tap_ms, self._margin)

    def _heard(self, ignored: Ignored) -> None:
        """A press too late for the decided window may still be the next press after the winning one."""
        decision = self._decision
        if decision is not None and ignored.reason == TOO_LATE and ignored.window == decision.window:
            self._next_press(ignored.seat, (ignored.edge_time - decision.first_edge) * 1000)

    def _next_press(self, buzzer: int, after_ms: float) -> None:
        decision = self._decision
        assert decision is not None
        if buzzer in (decision.winner, *decision.tie) or self.seat_of(buzzer) is None or after_ms < 0:
            return
        self._margin = after_ms if self._margin is None else min(self._margin, after_ms)

    def seat_of(self, buzzer: int | None) -> int | None:
        return None if buzzer is None else self.seating.seat_of(buzzer)

    def _seats(self, buzzers: Collection[int]) -> tuple[int, ...]:
        return tuple(seat for b in buzzers if (seat := self.seat_of(b)) is not None)
