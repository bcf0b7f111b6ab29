"""A game as a timeline: the log of everything said, and the states it folds to.

Undo and redo move a cursor along the states; a new action after an undo drops
what could have been redone. Nothing is ever recomputed by hand: a state is only
ever made by ``engine.apply``, so replaying the log always gives the same game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules import engine
from companion.rules.actions import Action, Redo, Undo
from companion.rules.errors import IllegalAction
from companion.rules.state import Setup, State


@dataclass(frozen=True, slots=True)
class Game:
    setup: Setup
    states: tuple[State, ...]
    """``states[i]`` follows the first ``i`` moves; those past the cursor can be redone."""
    moves: tuple[Action, ...]
    cursor: int
    log: tuple[Action, ...] = ()
    """Every action accepted, undo and redo included, in order: what the store saves."""

    @classmethod
    def start(cls, setup: Setup) -> Game:
        return cls(setup, (engine.start(setup),), (), 0)

    @classmethod
    def replay(cls, setup: Setup, log: Iterable[Action]) -> Game:
        game = cls.start(setup)
        for action in log:
            game = game.apply(action)
        return game

    @property
    def state(self) -> State:
        return self.states[self.cursor]

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.states) - 1

    def apply(self, action: Action) -> Game:
        """The game after ``action``, or IllegalAction with the reason; ``self`` never changes."""
        log = self.log + (action,)
        if isinstance(action, Undo):
            if not self.can_undo:
                raise IllegalAction("nothing to undo: the game is at its start")
            return Game(self.setup, self.states, self.moves, self.cursor - 1, log)
        if isinstance(action, Redo):
            if not self.can_redo:
                raise IllegalAction("nothing to redo")
            return Game(self.setup, self.states, self.moves, self.cursor + 1, log)
        state = engine.apply(self.state, action)
        keep = self.cursor + 1
        return Game(self.setup, self.states[:keep] + (state,), self.moves[: self.cursor] + (action,), keep, log)
