"""One live game: the rules' game plus its saved log.

An action is saved before ``apply`` returns, so whatever the screen shows as
done survives a power cut; a refused action raises before anything is written.
Resuming is replaying the saved log with the same fold as always; a long game
saves a snapshot every few hundred actions (``companion.store.snapshots``) so
that resuming folds only the actions since the last one that agrees with the log.
The seating is saved with the game, and a challenge taken but not yet called
(the buzz) as it happens, so a power cut loses neither.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from companion.rules import Action, Game, IllegalAction, Setup, State
from companion.table.seating import Seating
from companion.store import BuzzTime, Store, now, snapshots


class Session:
    def __init__(
        self, store: Store, game_id: int, game: Game, *, clock: Callable[[], str] = now, snapshot_upto: int = 0,
        seating: Seating | None = None, started_at: str = "", last_at: str = "",
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        self.clock = clock
        self.snapshot_upto = snapshot_upto
        """How many actions the game's last saved snapshot covers: the next one holds the steps since."""
        self.seating = seating or Seating.default(len(game.setup.names))
        self.started_at = started_at
        self.last_at = last_at or started_at
        """When the last action was saved: at the end, the game lasted from ``started_at`` to here."""

    @classmethod
    def new(
        cls, store: Store, setup: Setup, *, clock: Callable[[], str] = now, seating: Seating | None = None
    ) -> Session:
        """Start and save a new game with its seating (``rules.new_setup`` has checked the set-up);
        StoreError saves nothing."""
        seating = seating or Seating.default(len(setup.names))
        started_at = clock()
        game_id = store.new_game(setup, started_at, seating)
        return cls(store, game_id, Game.start(setup), clock=clock, seating=seating, started_at=started_at)

    @classmethod
    def resume(cls, store: Store, game_id: int | None = None, *, clock: Callable[[], str] = now) -> Session | None:
        """The given game, or else the unfinished one, rebuilt from its log; None when there is none."""
        if game_id is None:
            game_id = store.unfinished_game()
            if game_id is None:
                return None
        saved = store.load(game_id)
        game, snapshot_upto = saved.resume()
        return cls(store, game_id, game, clock=clock, snapshot_upto=snapshot_upto, seating=store.seating(game_id),
                   started_at=saved.started_at, last_at=saved.log[-1].at if saved.log else "")

    def length(self) -> timedelta:
        """How long the game has gone on, to its last saved action."""
        return elapsed(self.started_at, self.last_at)

    @property
    def state(self) -> State:
        return self.game.state

    def apply(self, action: Action, buzz_time: BuzzTime | None = None) -> State:
        """The state after ``action``, saved (with ``buzz_time``, how a challenge was won by buzzer);
        IllegalAction or StoreError leave game and file as they were."""
        game = self.game.apply(action)
        snapshot = snapshots.take(game, self.snapshot_upto) if snapshots.due(len(game.log)) else None
        at = self.clock()
        self.store.record(self.game_id, len(game.log), at, action, game, snapshot, buzz_time)
        self.game = game
        self.last_at = at
        if snapshot:
            self.snapshot_upto = snapshot.upto
        return game.state

    def keep_buzz(self, seat: int) -> None:
        """``seat`` takes the challenge of the card on top: saved now, before spice or number is called."""
        entry = self.game.window_entry
        if entry is not None:
            self.store.keep_buzz(self.game_id, entry, seat)

    def drop_buzz(self) -> None:
        self.store.drop_buzz(self.game_id)

    def saved_buzz(self) -> int | None:
        """The seat whose buzz was saved for the card on top, if any (resuming after a power cut)."""
        saved = self.store.buzz(self.game_id)
        if saved is None or saved[0] != self.game.window_entry or not 0 <= saved[1] < len(self.state.seats):
            return None
        return saved[1]


class Unsaved:
    """What a table shown read-only answers where a live session saves a buzz: none is saved, none is kept.

    Its table takes no press (a deal before Start, a saved game's replay), so these are never asked to keep
    one; each kind says in its own ``apply`` why it refuses an action.
    """

    def saved_buzz(self) -> int | None:
        return None

    def keep_buzz(self, seat: int) -> None:
        """Nothing is saved."""

    def drop_buzz(self) -> None:
        """Nothing is saved."""


class Preview(Unsaved):
    """A game set up and not yet started: its deal, shaped as a live session as the table view reads it
    (``seating``, ``state``, ``game``), refusing every action and saving nothing.

    The table is built on it while the table deals (``TableScreen.ahead``): "Start the game" then saves the
    real game and opens it on a table whose panels, pad and sheets are made, and changes only what differs.
    """

    def __init__(self, setup: Setup, seating: Seating) -> None:
        self.game = Game.start(setup)
        self.seating = seating

    @property
    def state(self) -> State:
        return self.game.state

    def length(self) -> timedelta:
        return timedelta(0)

    def apply(self, action: Action, buzz_time: BuzzTime | None = None) -> State:
        raise IllegalAction("the game has not started: start it to play")


def minutes_played(length: timedelta) -> int:
    """A game's length in whole minutes, to the nearest and at least 1: the end screen and the BG Stats
    link say the same number (one rounded up, the other to the nearest, said 3 and 4 of one game)."""
    return max(1, round(length.total_seconds() / 60))


def elapsed(started_at: str, last_at: str) -> timedelta:
    """From one saved time stamp to another; zero when a time cannot be read."""
    try:
        return datetime.fromisoformat(last_at) - datetime.fromisoformat(started_at)
    except ValueError:
        return timedelta(0)
