"""A saved game replayed on the table, one standing move at a time, read-only.

A replay shows the game's standing moves (what an undo took back is not among
them, as on the game's timeline), and the table at each is the table model of
that step. It opens at once whatever the game's length: which move stands
where, and which step each move was made on, follow from the log alone
(``companion.rules.tree``), and a step's state is made only when it is shown,
from the snapshots the store keeps (``companion.store.snapshots``: one decoded
as a whole the first time one of its steps is wanted) or by one
``engine.apply`` on the state it was made on. The actions after the last
snapshot (all of a game too short for one, or whose snapshots no longer agree
with its log) are folded at the opening, as resuming folds them, so a log that
no longer replays is said at once.

A replay has the shape of a live session as the table view reads it
(``seating``, ``state``, ``game``) but refuses every action and saves nothing,
so the table can draw it unchanged.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from datetime import timedelta

from companion.rules import Action, Challenge, Copy, Game, IllegalAction, Play, State, Step, engine, start, tree
from companion.table.seating import Seating
from companion.table.session import Unsaved, elapsed
from companion.store import BuzzTime, SavedLog, snapshots
from companion.store.review import Moment, step_moments


class Replay(Unsaved):
    def __init__(self, saved: SavedLog, seating: Seating | None = None) -> None:
        """IllegalAction when the saved log no longer replays."""
        self.saved = saved
        self.setup = saved.setup
        moves = tree(saved.actions)
        self._made_on = moves.made_on
        self._entries = (-1, *moves.standing)
        """The log entry of the move at each position (-1: the deal)."""
        self.challenges = tuple(
            n for n, entry in enumerate(moves.standing, 1) if isinstance(saved.actions[entry], Challenge)
        )
        """The moves that made a challenge, in order: where a jump lands."""
        self._states: dict[int, State] = {-1: start(saved.setup)}
        """The states made so far, by the log entry of the move that made them."""
        self._snapshots = snapshots.agreeing(saved.texts, saved.snapshots)
        """The snapshots that may be read, each covering the entries from its ``since`` to its ``upto``."""
        self._stopped: IllegalAction | None = None
        """Why the log stopped replaying, once a fold met an action it no longer takes."""
        self._fold(self._covered, len(saved.actions))
        self.seating = seating or Seating.default(len(saved.setup.names))
        self.position = 0
        """How many standing moves the table shows: 0 (the deal) to ``last``."""
        self._game = self._game_at(0)

    @property
    def last(self) -> int:
        return len(self._entries) - 1

    @property
    def game(self) -> Game:
        """The game standing at ``position``: its step, with nothing to redo (a replay offers no redo)."""
        return self._game

    @property
    def state(self) -> State:
        return self._game.state

    def length(self) -> timedelta:
        """How long the saved game went on, to its last saved action."""
        saved = self.saved
        return elapsed(saved.started_at, saved.stamps[-1] if saved.stamps else saved.started_at)

    def go(self, position: int) -> int:
        """Move to ``position``, kept between the deal and the last move; the position reached.

        IllegalAction, and the position unchanged, when the log no longer replays there (a snapshot that
        agreed with the log but did not read back, over a log edited by hand)."""
        position = min(max(position, 0), self.last)
        self._game = self._game_at(position)
        self.position = position
        return position

    def next_challenge(self) -> int | None:
        """The first challenge after the position, or None when none is left."""
        found = bisect_right(self.challenges, self.position)
        return self.challenges[found] if found < len(self.challenges) else None

    def previous_challenge(self) -> int | None:
        """The last challenge before the position, or None when there is none before it."""
        found = bisect_left(self.challenges, self.position)
        return self.challenges[found - 1] if found else None

    def moments(self, position: int) -> list[Moment]:
        """What the game's timeline says of the move at ``position`` (nothing at the deal)."""
        if position <= 0:
            return []
        entry = self._entries[position]
        return step_moments(self.saved.stamps[entry], position, self.saved.actions[entry],
                            self._state(self._made_on[entry]), self._state(entry))

    # --- the states, made when they are wanted ---------------------------------------------------

    @property
    def _covered(self) -> int:
        """The log entries before this one are covered by the snapshots."""
        return self._snapshots[-1].upto if self._snapshots else 0

    def _game_at(self, position: int) -> Game:
        """The game standing at ``position``, as the table model reads it: its step, linked back to the
        last card laid (``Game.window_entry`` stops there, and the step before keeps Undo's place) and
        not on to the deal, which would make every state before it."""
        actions, entries = self.saved.actions, self._entries
        first = position
        while first > 0 and not isinstance(actions[entries[first]], (Play, Copy)):
            first -= 1
        step: Step | None = None
        for depth in range(max(first - 1, 0), position + 1):
            entry = entries[depth]
            move: Action | None = actions[entry] if entry >= 0 else None
            step = Step(self._state(entry), move, entry, step, depth)
        assert step is not None
        return Game.restored(self.setup, actions, step, [])

    def _state(self, entry: int) -> State:
        state = self._states.get(entry)
        if state is None:
            self._read(entry)
            state = self._states[entry]
        return state

    def _fold(self, since: int, upto: int) -> None:
        """Every move of the log from ``since`` to ``upto``, applied to the state of the step it was made on."""
        actions, made_on, states = self.saved.actions, self._made_on, self._states
        try:
            for entry in range(since, upto):
                before = made_on.get(entry)
                if before is not None:  # not an undo or a redo
                    states[entry] = engine.apply(self._state(before), actions[entry])
        except IllegalAction as exc:
            self._stopped = exc
            raise

    def _read(self, entry: int) -> None:
        """The states of the snapshot that covers ``entry``. One that does not read back as the steps this
        log makes ends the chain there: the moves it and the later ones covered are folded instead."""
        chain = self._snapshots
        at = bisect_right([snapshot.upto for snapshot in chain], entry)
        if at == len(chain):  # the moves after the snapshots were folded, unless the fold stopped before this one
            assert self._stopped is not None
            raise self._stopped
        try:
            held = snapshots.read(self.setup, self.saved.actions, chain[at]).steps
            if entry not in held:
                raise ValueError(f"it lacks step {entry}")
        except snapshots.UNREADABLE:
            covered, self._snapshots = self._covered, chain[:at]
            self._fold(chain[at].since, covered)
            return
        self._states.update((made, state) for made, (_, state) in held.items())

    # --- what a live session does, refused: a replay changes nothing and saves nothing ---------------

    def apply(self, action: Action, buzz_time: BuzzTime | None = None) -> State:
        raise IllegalAction("this is a replay of a saved game: nothing on it can change")
