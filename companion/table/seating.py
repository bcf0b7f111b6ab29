"""Where everyone sits at the table: each seat's colour and the buzzer bound to it.

Saved with its game, in the transaction that saves the game (``Store.new_game``),
so a power cut just after Start brings the game back with its own buzzers, not
the wiring order. The rules' log does not hold it: the rules know seats, not wires.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seating:
    """Each seat's colour (an index into the theme's seat colours) and buzzer (its place in the wiring).

    Buzzers are bound by pressing them at set-up, so the wiring order never has
    to match the seat order; the table arms ``buzzer_of(seat)`` and reads a
    press on buzzer ``b`` as seat ``seat_of(b)``.

    >>> seating = Seating(colours=(0, 1, 2), buzzers=(2, 0, 1))
    >>> seating.buzzer_of(0), seating.seat_of(0), seating.seat_of(5)
    (2, 1, None)
    """

    colours: tuple[int, ...]
    buzzers: tuple[int, ...]

    @classmethod
    def default(cls, seats: int) -> Seating:
        return cls(tuple(range(seats)), tuple(range(seats)))

    def buzzer_of(self, seat: int) -> int:
        return self.buzzers[seat]

    def seat_of(self, buzzer: int) -> int | None:
        return self.buzzers.index(buzzer) if buzzer in self.buzzers else None
