"""A game as a timeline: the log of everything said, and the states it folds to.

Undo and redo move along the standing moves; a new action after an undo drops
what could have been redone. Nothing is ever recomputed by hand: a state is only
ever made by ``engine.apply``, so replaying the log always gives the same game.

Every ``Game`` is immutable to its holders, yet one action costs the same at
the thousandth move as at the first: the standing moves and the undone ones are
linked lists that share their tails, and the log is a list that only ever grows
and that each ``Game`` reads up to its own length.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import overload

from companion.rules import engine
from companion.rules.actions import Action, Copy, Play, Redo, Undo
from companion.rules.errors import IllegalAction
from companion.rules.setup import start
from companion.rules.state import Setup, State


@dataclass(frozen=True, slots=True, eq=False)
class Step:
    """One standing move: the state it made, the move, and the log entry that made it."""

    state: State
    move: Action | None
    """None for the start of the game."""
    entry: int
    """Index in ``Game.log`` of the action that made this step (a redo keeps the original); -1 for the start."""
    before: Step | None = field(default=None, repr=False)
    depth: int = 0
    """How many moves stand up to here (the cursor)."""


@dataclass(frozen=True, slots=True, eq=False)
class _Undone:
    """The steps that can be redone, the next one first."""

    step: Step
    rest: _Undone | None


class Log(Sequence[Action]):
    """A read-only view of the first ``length`` actions of a list that only ever grows."""

    __slots__ = ("_actions", "_length")

    def __init__(self, actions: list[Action], length: int) -> None:
        self._actions = actions
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return self._actions[: self._length][index]
        if not -self._length <= index < self._length:
            raise IndexError("the log has no such entry")
        return self._actions[index % self._length]

    def __iter__(self) -> Iterator[Action]:
        return islice(self._actions, self._length)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"

    def appended(self, action: Action) -> Log:
        """This log and one more action; the list is copied only when another game already grew it."""
        actions = self._actions
        if len(actions) != self._length:
            actions = actions[: self._length]
        actions.append(action)
        return Log(actions, self._length + 1)


MAX_ACTIONS = 50_000
"""The most actions a game may log, undo and redo included: a real game logs a few hundred, and the
longest one the benchmarks play logs 20,000. A log this long is a script gone wrong or a file made to
fill the memory, not a game at the table."""


def _room_for(length: int) -> None:
    if length >= MAX_ACTIONS:
        raise IllegalAction("a game has at most {most} actions, and this one has reached them", most=MAX_ACTIONS)


@dataclass(frozen=True, slots=True, eq=False)
class Game:
    setup: Setup
    current: Step
    undone: _Undone | None
    log: Log
    """Every action accepted, undo and redo included, in order: what the store saves."""

    @classmethod
    def start(cls, setup: Setup) -> Game:
        return cls(setup, Step(start(setup), None, -1), None, Log([], 0))

    @classmethod
    def replay(cls, setup: Setup, log: Iterable[Action]) -> Game:
        """The game ``log`` folds to, or IllegalAction at its first refused action: the same checks as
        ``apply`` at each action, with one ``Game`` at the end instead of one an action."""
        current, undone = Step(start(setup), None, -1), None
        actions: list[Action] = []
        for action in log:
            current, undone = _moved(current, undone, len(actions), action)
            actions.append(action)
        return cls(setup, current, undone, Log(actions, len(actions)))

    @classmethod
    def restored(cls, setup: Setup, log: Sequence[Action], current: Step, redoable: Sequence[Step]) -> Game:
        """A game rebuilt from saved steps instead of folded again (a snapshot of a long game).

        It is the fold of ``log`` only if the steps are the fold's: the store checks its
        snapshots against the log and replays when one disagrees.
        """
        _room_for(len(log) - 1)
        undone = None
        for step in reversed(redoable):
            undone = _Undone(step, undone)
        return cls(setup, current, undone, Log(list(log), len(log)))

    def redoable(self) -> list[Step]:
        """The steps redo would bring back, the next one first."""
        found = []
        undone = self.undone
        while undone is not None:
            found.append(undone.step)
            undone = undone.rest
        return found

    @property
    def state(self) -> State:
        return self.current.state

    @property
    def cursor(self) -> int:
        """How many moves stand: undo lowers it, redo and new moves raise it."""
        return self.current.depth

    @property
    def can_undo(self) -> bool:
        return self.current.before is not None

    @property
    def can_redo(self) -> bool:
        return self.undone is not None

    @property
    def window_entry(self) -> int | None:
        """The card that may be challenged now, named by the place in ``log`` of the action that laid it
        (a redo keeps it); None when no card is on top.

        A buzzer decision carries it, so one that reaches the table after a newer card, or after an
        undo, is known for what it is: every card ever laid has its own place in the log. The card is
        found by the move that laid it, never by the window's contents: a five-spice chain of the same
        spice lays a new card whose window is equal to the one below it.
        """
        window = self.current.state.window
        if window is None:
            return None
        step = self.current
        # Equal, not the same object: a resumed game's states may come from a snapshot, each with its own copy.
        while not isinstance(step.move, (Play, Copy)) and step.before is not None and step.before.state.window == window:
            step = step.before
        return step.entry

    def steps(self) -> list[Step]:
        """The standing moves from the start (``steps()[0]``, no move) to now."""
        found: list[Step] = []
        step: Step | None = self.current
        while step is not None:
            found.append(step)
            step = step.before
        return found[::-1]

    def apply(self, action: Action) -> Game:
        """The game after ``action``, or IllegalAction with the reason; ``self`` never changes."""
        current, undone = _moved(self.current, self.undone, len(self.log), action)
        return Game(self.setup, current, undone, self.log.appended(action))

    def __eq__(self, other: object) -> bool:
        """A game is its set-up and its log: the rest is a fold of them."""
        return isinstance(other, Game) and self.setup == other.setup and self.log == other.log

    def __hash__(self) -> int:
        return hash((self.setup, len(self.log)))


@dataclass(frozen=True, slots=True)
class Tree:
    """The steps a log makes, as entries of the log, worked out without a single state.

    Undo and redo only move along the steps; every other action makes a step on the
    one standing. So which step each move was made on, and which moves stand at the
    end, follow from the log alone: a replay finds any step's state from there (a
    snapshot holds it, or one ``engine.apply`` on the state it was made on) without
    folding the whole game first.
    """

    made_on: dict[int, int]
    """Each move's log entry (every action but undo and redo), and the entry of the step it was made on
    (-1: the start of the game)."""
    standing: tuple[int, ...]
    """The entries of the standing moves at the end, in order: ``Game.steps()[1:]`` by entry."""


def tree(log: Sequence[Action]) -> Tree:
    """The steps of ``log``; IllegalAction where ``Game.apply`` would refuse an undo or a redo, or the log's length."""
    _room_for(len(log) - 1)
    made_on: dict[int, int] = {}
    standing: list[int] = []
    undone: list[int] = []
    for entry, action in enumerate(log):
        if isinstance(action, Undo):
            if not standing:
                raise IllegalAction("nothing to undo: the game is at its start")
            undone.append(standing.pop())
        elif isinstance(action, Redo):
            if not undone:
                raise IllegalAction("nothing to redo")
            standing.append(undone.pop())
        else:
            made_on[entry] = standing[-1] if standing else -1
            standing.append(entry)
            undone.clear()
    return Tree(made_on, tuple(standing))


def _moved(current: Step, undone: _Undone | None, entry: int, action: Action) -> tuple[Step, _Undone | None]:
    """The standing moves and the undone ones after ``action``, entry ``entry`` of the log: undo and redo
    move along them, any other action is a new move and drops what could have been redone."""
    _room_for(entry)
    if isinstance(action, Undo):
        if current.before is None:
            raise IllegalAction("nothing to undo: the game is at its start")
        return current.before, _Undone(current, undone)
    if isinstance(action, Redo):
        if undone is None:
            raise IllegalAction("nothing to redo")
        return undone.step, undone.rest
    return Step(engine.apply(current.state, action), action, entry, current, current.depth + 1), None
