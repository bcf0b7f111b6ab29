"""A saved game replayed on the table, one standing move at a time, read-only.

The saved log is folded once by the rules (``SavedGame.game``, the same fold as
resuming); the replay then walks the game's standing moves (``Game.steps``:
what an undo took back is not among them, as on the game's timeline), and the
table at each is the table model of that step. A replay has the shape of a
live session as the table view reads it (``seating``, ``state``, ``game``) but
refuses every action and saves nothing, so the table can draw it unchanged.
"""

from __future__ import annotations

from datetime import timedelta

from companion.rules import Action, EventKind, Game, IllegalAction, State, Step
from companion.seating import Seating
from companion.session import elapsed
from companion.store import BuzzTime
from companion.store.records import SavedGame


class Replay:
    def __init__(self, saved: SavedGame, seating: Seating | None = None) -> None:
        """CompanionError (IllegalAction, StoreError) when the saved log no longer replays."""
        self.saved = saved
        self.whole = saved.game()
        """The game as saved, every action folded."""
        self.steps: tuple[Step, ...] = tuple(self.whole.steps())
        """The start, then one step per standing move: ``steps[n]`` is the table after ``n`` moves."""
        self.challenges = tuple(
            n for n, step in enumerate(self.steps) if any(e.kind == EventKind.CHALLENGE for e in step.state.events)
        )
        """The moves that made a challenge, in order: where a jump lands."""
        self.seating = seating or Seating.default(len(saved.setup.names))
        self.position = 0
        """How many standing moves the table shows: 0 (the deal) to ``last``."""

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def game(self) -> Game:
        """The game standing at ``position``: its step, with nothing to redo (a replay offers no redo)."""
        return Game(self.whole.setup, self.steps[self.position], None, self.whole.log)

    @property
    def state(self) -> State:
        return self.steps[self.position].state

    def length(self) -> timedelta:
        """How long the saved game went on, to its last saved action."""
        return elapsed(self.saved.started_at, self.saved.log[-1].at if self.saved.log else self.saved.started_at)

    def go(self, position: int) -> int:
        """Move to ``position``, kept between the deal and the last move; the position reached."""
        self.position = min(max(position, 0), self.last)
        return self.position

    def next_challenge(self) -> int | None:
        """The first challenge after the position, or None when none is left."""
        return next((n for n in self.challenges if n > self.position), None)

    def previous_challenge(self) -> int | None:
        """The last challenge before the position, or None when there is none before it."""
        return next((n for n in reversed(self.challenges) if n < self.position), None)

    # --- what a live session does, refused: a replay changes nothing and saves nothing ---------------

    def apply(self, action: Action, buzz_time: BuzzTime | None = None) -> State:
        raise IllegalAction("this is a replay of a saved game: nothing on it can change")

    def saved_buzz(self) -> int | None:
        return None

    def keep_buzz(self, seat: int) -> None:
        """Nothing is saved: a buzz cannot happen on a replay (its table takes no tap, its buzzers are off)."""

    def drop_buzz(self) -> None:
        """Nothing is saved, as for ``keep_buzz``."""
