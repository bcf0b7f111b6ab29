"""What every kind of buzzer offers: presses with edge times, lights, a notice.

A backend only reports presses (seat, edge time in seconds on its own clock)
and lights seats; deciding who was first is the :class:`~.referee.Referee`'s
job. Callbacks may come from any thread: GPIO and serial backends call them
from their own threads, so a UI must hop to its main loop before drawing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection

from companion.errors import CompanionError

PressHandler = Callable[[int, float], None]


class BuzzerError(CompanionError):
    """The buzzers cannot start; the message says what to do."""


class Buzzers(ABC):
    """Seat buttons of one kind: GPIO, a USB box or the keyboard.

    ``notice`` is a line for the screen when something is not as configured
    (no GPIO, so the keyboard stands in; the box is unplugged; timing only as
    good as callback time), else "". ``opened_at`` is the moment the last
    :meth:`arm` opened its window, on the edge clock (None when unknown).
    """

    notice: str = ""
    kind: str = "buzzers"

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.on_press: PressHandler | None = None
        self.on_release: PressHandler | None = None
        self.on_opened: Callable[[float], None] | None = None
        """Called with the edge clock's time when the buttons armed again by themselves (a box that
        restarted mid-window): the window opens then."""
        self.on_restarted: Callable[[float], None] | None = None
        """Called with the edge clock's time when that clock started again (a box replugged): the edges
        from then on are on the new clock, which the ones before cannot be compared with."""
        self.opened_at: float | None = None
        self.on_notice: Callable[[str], None] | None = None
        """Called, from the backend's thread, with a notice that comes up after start-up and is said once (a
        box whose firmware cannot pulse the seat to play's light); ``notice`` has it too."""
        self._turn: int | None = None
        """The seat to play, whose light pulses (``show_turn``) unless a challenge's winner is shown."""
        self._deciding = False
        """A winner's light is shown (``show_winner``): it alone is lit, and nothing pulses."""

    def arm(self, seats: Collection[int], waited: float = 0.0) -> frozenset[int]:
        """Light the armed seats; return the seats whose button is down already.

        A button down before the window opens is stuck (or leaned on): it
        cannot press again until it comes up, so the caller reports it.
        ``waited`` is how long ago, in seconds, the window opened at the
        table (the arm waited that long in the referee's queue): the
        opening is put back by that much on the edge clock, so a press made
        while the arm was on its way still counts.
        """
        now = self.edge_clock()
        self.opened_at = None if now is None else now - waited
        self._deciding = False
        self._show(seats)
        return self.held()

    def edge_clock(self) -> float | None:
        """Now, on the clock edge times are given in; None when it cannot be read."""
        return None

    def show_winner(self, seats: Collection[int]) -> None:
        """The winner's light (all tied seats' lights) on, every other off; the seat to play's stops
        pulsing until the next arm or disarm."""
        self._deciding = True
        self._show(seats)
        self._beep()

    def disarm(self) -> None:
        self._deciding = False
        self._show(())

    def show_turn(self, seat: int | None) -> None:
        """The light of the seat to play (its buzzer; None: none) pulses slowly, on GPIO's LEDs and on a
        buzzer box whose firmware speaks protocol 3; the keyboard has no lights at all."""
        self._turn = seat
        self._show_turn()

    def pulsing(self) -> int | None:
        """The seat whose light pulses now: the seat to play, unless a winner is shown (None: none)."""
        return None if self._deciding else self._turn

    def _show_turn(self) -> None:
        """The seat to play has changed: make ``pulsing`` seen (lights that cannot pulse do nothing)."""

    def bounces(self) -> dict[int, int]:
        """Bounce edges swallowed so far, by seat (only GPIO sees them)."""
        return {}

    def glitches(self) -> dict[int, int]:
        """Falling edges not confirmed as presses so far, by seat (only GPIO sees them)."""
        return {}

    def closing(self) -> None:
        """The buzzers are about to close: a wait on the device (the box's answer to an arm) ends now,
        so whoever closes them is not kept waiting for a device that may never answer."""

    @abstractmethod
    def held(self) -> frozenset[int]:
        """Seats whose button is down right now."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _show(self, seats: Collection[int]) -> None:
        """Lights on for these seats, off for the rest."""

    def _beep(self) -> None:
        """Only GPIO may have a piezo; elsewhere the screen makes the noise."""

    def _pressed(self, seat: int, edge_time: float) -> None:
        handler = self.on_press
        if handler is not None:
            handler(seat, edge_time)

    def _released(self, seat: int, edge_time: float) -> None:
        handler = self.on_release
        if handler is not None:
            handler(seat, edge_time)

    def __enter__(self) -> Buzzers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
