"""Shared by the store and session tests: a known game and the kill -9 child."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any
from contextlib import contextmanager
from pathlib import Path

from companion.random_play import WEIGHTS, random_action, random_setup
from companion.rules import FIVE_SPICES, Game, Redo, Setup, Undo, action_from_dict, engine, new_setup
from companion.table.session import Session
from companion.store import Store, snapshots
from companion.store.schema import KNOWN as MIGRATION_NAMES
from companion.store.schema import (AT_TABLE_PHASES, AT_TABLES, PAGE_TOTALS, PAST_CHANGES, RECORD_COLUMNS, TRIGGER_PHASES,
                                     _totals_trigger)

# Cy catches Ben bluffing, Ben survives Ana's challenge, Ben's challenge on Ana is
# undone, then the World's End card shows.
KNOWN = """\
rules spicy
seats Ana Ben Cy
end-card 27
play Ana chili 2
play Ben chili 6
challenge Cy spice
reveal pepper 6
play Ben chili 1
challenge Ana number
reveal chili 1
play Ana wasabi 3
challenge Ben spice
undo
end-card-drawn
"""
KNOWN_FACTS = {  # name: (challenges made, won, caught bluffing, survived)
    "Ana": (1, 0, 0, 0),
    "Ben": (0, 0, 1, 1),
    "Cy": (1, 1, 0, 0),
}

def damaged_database(path: Path, page: int = 0) -> bytes:
    """A database of ours with one page overwritten by noise (0: the schema, after the file's header).

    Returns the damaged file's bytes.
    """
    with Store.open(path) as store:
        Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]))
    data = bytearray(path.read_bytes())
    start = max(100, page * 4096)
    data[start:(page + 1) * 4096] = random.Random(page).randbytes((page + 1) * 4096 - start)
    path.write_bytes(bytes(data))
    return bytes(data)


def write_plan(path: Path, game: Game) -> None:
    """What the crash child plays: the set-up and the actions, as JSON."""
    setup = game.setup
    path.write_text(json.dumps({"names": list(setup.names), "actions": [a.to_dict() for a in game.log]}))


def read_plan(path: Path) -> tuple[Setup, list]:
    plan = json.loads(path.read_text())
    return new_setup(FIVE_SPICES, plan["names"]), [action_from_dict(a) for a in plan["actions"]]


def crash_child(db: str, plan_path: str) -> None:
    """Resume (or start) the planned game and print ``ack N`` once action N is committed."""
    setup, actions = read_plan(Path(plan_path))
    store = Store.open(Path(db))
    session = Session.resume(store) or Session.new(store, setup)
    for action in actions[len(session.game.log):]:
        session.apply(action)
        print(f"ack {len(session.game.log)}", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    crash_child(*sys.argv[1:])


@contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A real small disk: an 800 KiB tmpfs mounted at ``folder`` for as long as it is used (needs root)."""
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=800k", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode:
        raise RuntimeError(f"the full-disk tests mount a small tmpfs, which needs root: {mounted.stderr.decode()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> None:
    """Write zeros into ``folder`` until its disk is full."""
    try:
        with (folder / "filler").open("wb") as filler:
            while True:
                filler.write(bytes(4096))
                filler.flush()
    except OSError:
        pass  # full


def spoil(path: Path) -> None:
    """Two games of a backup edited by hand: one action nested too deep to read, one with a seat that is text."""
    deep = '{"action":"play","seat":0,"spice":' + "[" * 100_000 + "]" * 100_000 + ',"number":2}'
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = ? WHERE game_id = 2 AND seq = 1", [deep])
        db.execute("UPDATE actions SET action = json_set(action, '$.seat', 'x') WHERE game_id = 3 AND seq = 1")


UNDO_MIGRATION = {
    "m009_game_uid": ["DROP INDEX idx_games_uid", "ALTER TABLE games DROP COLUMN uid"],
    "m010_review": [
        *(f"ALTER TABLE scores DROP COLUMN {column}" for column in (
            "spice_challenges", "spice_challenges_won", "number_challenges", "number_challenges_won",
            "biggest_stack", "survival_streak", "declared")),
        "ALTER TABLE games DROP COLUMN note",
        "ALTER TABLE players DROP COLUMN retired_at",
    ],
    "m011_game_abandoned": ["ALTER TABLE games DROP COLUMN abandoned_at"],
    "m012_challenge_buzz_times": ["DROP TABLE challenge_buzz"],
    "m013_player_page_totals": [
        *(f"DROP TRIGGER {table}_{phase}" for table in ("player_totals", "player_scores", "player_spices",
                                                        "player_pairs") for phase in TRIGGER_PHASES),
        "DROP TABLE player_scores", "DROP TABLE player_spices", "DROP TABLE player_pairs",
        *(f"DROP TRIGGER player_buzzes_{name}" for name in ("insert", "delete", "update", "seat")),
        "DROP TABLE player_buzzes",
        *(f"ALTER TABLE player_totals DROP COLUMN {column}" for column in PAGE_TOTALS),
        *(_totals_trigger(f"player_totals_{phase}", when, row, sign)
          for phase, (when, row, sign) in TRIGGER_PHASES.items()),
    ],
    "m014_game_arrived": ["ALTER TABLE games DROP COLUMN arrived_at"],
    "m015_merge_undo": ["DROP TABLE merge_undo"],
    "m016_kept_ratings": [*(f"DROP TRIGGER kept_ratings_{name}" for name in PAST_CHANGES),
                          "DROP TABLE player_ratings", "DROP TABLE rating_state"],
    "m017_game_table": ["DROP INDEX idx_games_table", "ALTER TABLE games DROP COLUMN table_id",
                        "DROP TABLE league_tables"],
    "m018_record_indexes": [*(f"DROP INDEX idx_scores_{column}" for column in RECORD_COLUMNS),
                            "DROP INDEX idx_games_minutes"],
    "m019_kept_at_table": [*(f"DROP TRIGGER kept_at_table_{name}" for name in (*AT_TABLE_PHASES, "moved_out", "moved_in")),
                           "DROP TRIGGER player_buzzes_table", *(f"DROP TABLE {kept.table}" for kept in AT_TABLES),
                           "DROP INDEX idx_player_buzzes_table_from_tap", "DROP INDEX idx_player_buzzes_table_margin",
                           "ALTER TABLE player_buzzes DROP COLUMN table_id"],
}
"""How to take each later migration back out of a file, so a test can make a database from before it."""


def undo_migrations_from(db: sqlite3.Connection, name: str) -> None:
    """Make the file as an app from before migration ``name`` left it: that one and every later one undone."""
    later = MIGRATION_NAMES[MIGRATION_NAMES.index(name):]
    for undone in reversed(later):
        for statement in UNDO_MIGRATION[undone]:
            db.execute(statement)
        db.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [undone])
    db.execute(f"PRAGMA user_version = {len(MIGRATION_NAMES) - len(later)}")
    db.commit()


def played(path: Path, game: Game, upto: int | None = None) -> Session:
    """``game``'s log (up to ``upto``) played at a table, one action at a time: saved with its snapshots."""
    with Store.open(path) as store:
        session = Session.new(store, game.setup)
        for action in list(game.log)[:upto]:
            session.apply(action)
    return session


def edit(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


def random_long_game(seed: int, length: int) -> Game:
    """Any profile, undo and redo included, going on past its end by undoing it."""
    rng = random.Random(seed)
    game = Game.start(random_setup(rng))
    weights = dict(WEIGHTS) | {Undo: 0.6, Redo: 0.3}  # often enough to leave redoable steps at a snapshot
    while len(game.log) < length:
        game = game.apply(Undo() if game.state.ended else random_action(game, rng, weights))
    return game


def rewrite_snapshot(path: Path, upto: int, change: Callable[[dict], None]) -> None:
    """The snapshot ending at ``upto`` changed by hand, its checksum made to match: it agrees with the log
    and with the rules, so only reading it back can tell."""
    conn = sqlite3.connect(path)
    (payload,) = conn.execute("SELECT payload FROM snapshots WHERE upto = ?", [upto]).fetchone()
    data = json.loads(payload)
    change(data)
    changed = json.dumps(data)
    conn.execute("UPDATE snapshots SET payload = ?, checksum = ? WHERE upto = ?",
                 [changed, snapshots._checksum(changed), upto])
    conn.commit()
    conn.close()


def missing_field(data: dict) -> None:
    """A snapshot's first state missing a field."""
    data["steps"][0][2] = data["steps"][0][2][:-1]


class StatesMade:
    """Counts the states made from now on: each ``engine.apply`` and each state read back from a snapshot."""

    def __init__(self, patch: Any) -> None:
        """``patch``: the test's ``MonkeyPatch``, which puts both back."""
        self.count = 0
        for owner, name in ((engine, "apply"), (snapshots._Decoder, "state")):
            patch.setattr(owner, name, self._counting(getattr(owner, name)))

    def _counting(self, make: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            self.count += 1
            return make(*args)

        return counted
