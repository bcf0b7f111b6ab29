"""The one SQLite file that keeps every game: opened safely, written one action at a time.

Durability comes from SQLite, not from us: WAL with ``synchronous=FULL`` makes a
committed transaction survive a power cut, and each action is its own
transaction, so an acknowledged action is never lost and a half-written one
never exists. A damaged file is moved aside rather than repaired, so the app
starts and whoever wants the old games can still try to rescue them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from companion.errors import CompanionError
from companion.rules import Action, Game, IllegalAction, Setup, check_name
from companion.store.facts import challenge_facts
from companion.store.records import SavedGame, logged_from_row, setup_from_row, setup_row, to_json
from companion.store.schema import MIGRATIONS

BUSY = "the database is busy: another program is writing to it; close it and try again"


class StoreError(CompanionError):
    """The database cannot do what was asked; the message says why, for a person."""


def now() -> str:
    """The time stamps in the database: UTC, ISO 8601, to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    started_at: str
    ended_at: str | None
    end_reason: str | None
    names: tuple[str, ...]
    winners: tuple[str, ...]
    scores: tuple[int | None, ...]
    """Final scores by seat; empty while the game goes on."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    win_rate: float
    average_score: float | None
    trophies: int
    challenges_made: int
    challenges_won: int
    caught_bluffing: int
    survived_challenges: int


@dataclass(frozen=True, slots=True)
class Recorded:
    """A whole game at once (simulate, import): the game and when each logged action came."""

    game: Game
    started_at: str
    stamps: Sequence[str]


class Store:
    def __init__(self, db: Database, path: Path, notice: str | None = None) -> None:
        self.db = db
        self.path = path
        self.notice = notice
        """Something the person should read once, e.g. that a damaged file was moved aside."""

    @classmethod
    def open(cls, path: Path, busy_timeout: float = 2.0) -> Store:
        """Open (or create, or upgrade) the database; a file that is not one is moved aside."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return cls(_connect(path, busy_timeout), path)
        except sqlite3.OperationalError as exc:
            raise _error(exc, path) from None
        except sqlite3.DatabaseError:
            moved = _move_aside(path)
        except OSError as exc:
            raise StoreError(f"cannot open {path}: {exc.strerror}") from None
        notice = (
            f"{path} was damaged and could not be read: it was moved to {moved.name} "
            "and a fresh database was started"
        )
        try:
            return cls(_connect(path, busy_timeout), path, notice)
        except sqlite3.Error as exc:
            raise _error(exc, path) from None

    @classmethod
    def memory(cls) -> Store:
        """A fresh database that lives in memory, like sqlite-utils' ``Database(memory=True)``: for fast tests."""
        path = Path(":memory:")
        return cls(_connect(path, 0.0), path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taking the write lock up front so a busy file fails before anything is written."""
        conn = self.db.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.rollback()
            raise _error(exc, self.path) from None
        except BaseException:
            conn.rollback()
            raise

    # --- writing ---------------------------------------------------------------

    def add_player(self, name: str) -> int:
        """A player profile before any game, named as a seat would be."""
        try:
            name = check_name(name, "player")
        except IllegalAction as exc:
            raise StoreError(str(exc)) from None
        with self._writing() as conn:
            if conn.execute("SELECT 1 FROM players WHERE name = ?", [name]).fetchone():
                raise StoreError(f"there is already a player named {name}")
            return _player_id(conn, name, now())

    def new_game(self, setup: Setup, started_at: str) -> int:
        with self._writing() as conn:
            return _insert_game(conn, setup, started_at)

    def record(self, game_id: int, seq: int, at: str, action: Action, game: Game) -> None:
        """Append one accepted action; ``game`` is the game after it (to finish or reopen the row)."""
        with self._writing() as conn:
            conn.execute(
                "INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                [game_id, seq, at, to_json(action.to_dict())],
            )
            (was_ended,) = conn.execute("SELECT ended_at IS NOT NULL FROM games WHERE id = ?", [game_id]).fetchone()
            if game.state.ended and not was_ended:
                _finish(conn, game_id, game, at)
            elif was_ended and not game.state.ended:
                _reopen(conn, game_id)

    def save(self, games: Iterable[Recorded]) -> list[int]:
        """Many whole games in one transaction: one fsync instead of one per action."""
        ids = []
        with self._writing() as conn:
            for recorded in games:
                game_id = _insert_game(conn, recorded.game.setup, recorded.started_at)
                conn.executemany(
                    "INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                    [
                        (game_id, seq, at, to_json(action.to_dict()))
                        for seq, (at, action) in enumerate(zip(recorded.stamps, recorded.game.log), start=1)
                    ],
                )
                if recorded.game.state.ended:
                    _finish(conn, game_id, recorded.game, recorded.stamps[-1])
                ids.append(game_id)
        return ids

    # --- reading ---------------------------------------------------------------

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.db.conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _error(exc, self.path) from None

    def unfinished_game(self) -> int | None:
        """The game most recently started and not over: the one to resume."""
        rows = self.query("SELECT id FROM games WHERE ended_at IS NULL ORDER BY started_at DESC, id DESC LIMIT 1")
        return rows[0][0] if rows else None

    def load(self, game_id: int) -> SavedGame:
        rows = self.query(
            "SELECT profile, variants, options, seats, end_card, first, started_at, ended_at FROM games WHERE id = ?",
            [game_id],
        )
        if not rows:
            raise StoreError(f"there is no game {game_id}")
        *setup, started_at, ended_at = rows[0]
        log = self.query("SELECT seq, at, action FROM actions WHERE game_id = ? ORDER BY seq", [game_id])
        return SavedGame(game_id, setup_from_row(*setup), tuple(logged_from_row(*r) for r in log), started_at, ended_at)

    def list_games(self, limit: int | None = None) -> list[GameSummary]:
        """Newest first, with each finished game's scores by seat."""
        rows = self.query(
            "SELECT id, started_at, ended_at, end_reason, seats, winners,"
            " (SELECT json_group_array(score) FROM (SELECT score FROM scores WHERE game_id = games.id ORDER BY seat))"
            " FROM games ORDER BY started_at DESC, id DESC LIMIT ?",
            [-1 if limit is None else limit],
        )
        return [
            GameSummary(
                game_id, started, ended, reason, tuple(json.loads(seats)), tuple(json.loads(winners or "[]")),
                tuple(json.loads(scores)),
            )
            for game_id, started, ended, reason, seats, winners, scores in rows
        ]

    def stats(self) -> list[PlayerStats]:
        """Per player, over finished games: one aggregate over the per-seat facts kept at each game's end."""
        rows = self.query(
            "SELECT name, games, wins, win_rate, average_score, trophies, challenges_made, challenges_won,"
            " caught_bluffing, survived_challenges FROM player_stats ORDER BY wins DESC, win_rate DESC, name"
        )
        return [PlayerStats(*row) for row in rows]

    def players(self) -> list[str]:
        return [name for (name,) in self.query("SELECT name FROM players ORDER BY id")]

    def recent_players(self) -> list[str]:
        """Whoever sat down (or was added) most recently first: the set-up screen's list of regulars."""
        rows = self.query(
            "SELECT players.name FROM players"
            " LEFT JOIN game_seats ON game_seats.player_id = players.id"
            " LEFT JOIN games ON games.id = game_seats.game_id"
            " GROUP BY players.id"
            " ORDER BY max(coalesce(games.started_at, players.created_at)) DESC, players.id DESC"
        )
        return [name for (name,) in rows]


def _connect(path: Path, busy_timeout: float) -> Database:
    conn = sqlite3.connect(path, timeout=busy_timeout)
    try:
        db = Database(conn)
        db.execute("PRAGMA foreign_keys = ON")
        db.enable_wal()
        db.execute("PRAGMA synchronous = FULL")
        MIGRATIONS.apply(db)
    except BaseException:
        conn.close()
        raise
    return db


def _move_aside(path: Path) -> Path:
    """Rename the file (and its WAL and shared-memory files) with a time stamp; nothing is deleted."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    return target


def _error(exc: sqlite3.Error, path: Path) -> StoreError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreError(BUSY)
    if isinstance(exc, sqlite3.IntegrityError) and "actions" in text:
        return StoreError("this game was changed by another program meanwhile: resume it again")
    return StoreError(f"{path}: {text}")


def _player_id(conn: sqlite3.Connection, name: str, at: str) -> int:
    row = conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
    if row:
        return int(row[0])
    cursor = conn.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", [name, at])
    return int(cursor.lastrowid or 0)


def _insert_game(conn: sqlite3.Connection, setup: Setup, started_at: str) -> int:
    row = setup_row(setup) | {"started_at": started_at}
    cursor = conn.execute(
        f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    )
    game_id = int(cursor.lastrowid or 0)
    conn.executemany(
        "INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
        [(game_id, seat, _player_id(conn, name, started_at)) for seat, name in enumerate(setup.names)],
    )
    return game_id


def _finish(conn: sqlite3.Connection, game_id: int, game: Game, at: str) -> None:
    state = game.state
    conn.execute(
        "UPDATE games SET ended_at = ?, end_reason = ?, winners = ? WHERE id = ?",
        [at, state.end_reason, to_json([state.name(i) for i in state.winners]), game_id],
    )
    conn.execute("DELETE FROM scores WHERE game_id = ?", [game_id])
    players = dict(conn.execute("SELECT seat, player_id FROM game_seats WHERE game_id = ?", [game_id]).fetchall())
    conn.executemany(
        "INSERT INTO scores (game_id, seat, player_id, score, won, won_universals, trophies, hand, universals,"
        " winner, challenges_made, challenges_won, caught_bluffing, survived_challenges)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id, i, players[i], state.score(i), seat.won, seat.won_universals, seat.trophies, seat.hand,
                seat.universals, i in state.winners, *facts,
            )
            for i, (seat, facts) in enumerate(zip(state.seats, challenge_facts(game)))
        ],
    )


def _reopen(conn: sqlite3.Connection, game_id: int) -> None:
    """An undo took back the end: the game is unfinished again."""
    conn.execute("UPDATE games SET ended_at = NULL, end_reason = NULL, winners = NULL WHERE id = ?", [game_id])
    conn.execute("DELETE FROM scores WHERE game_id = ?", [game_id])
