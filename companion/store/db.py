"""The one SQLite file that keeps every game: opened safely, written one action at a time.

Durability comes from SQLite, not from us: WAL with ``synchronous=FULL`` makes a
committed transaction survive a power cut, and each action is its own
transaction, so an acknowledged action is never lost and a half-written one
never exists. A damaged file is moved aside rather than repaired, so the app
starts and whoever wants the old games can still try to rescue them.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, TypeVar

from sqlite_utils import Database

from companion import __version__
from companion.errors import CompanionError, Name
from companion.files import DATABASE, FileRefused, file_size
from companion.rules import Action, Challenge, Game, IllegalAction, Setup, check_name
from companion.rules.errors import Reason
from companion.table.seating import Seating
from companion.store.facts import REVIEW_COLUMNS, seat_facts
from companion.store.records import (
    FIX_ROW,
    BadRow,
    BuzzTime,
    SavedGame,
    SavedLog,
    actions_from_rows,
    logged_from_row,
    names_from_json,
    setup_from_row,
    setup_row,
    to_json,
)
from companion.store.schema import BY_PLAYER, KNOWN, MIGRATIONS
from companion.store.snapshots import Snapshot, Taken, log_hash, no_cyclic_gc, rules_hash

BUSY = Reason("the database is busy: another program is writing to it; close it and try again")
RESCUE = Reason(
    "nothing more is saved in it; 'spicy-companion games check' says what is wrong, "
    "and moving the file aside starts a fresh one"
)
APPLICATION_ID = 0x53504359
"""'SPCY' in the file's header: how a damaged file is known to be ours, and so safe to move aside."""
SQLITE_HEADER = b"SQLite format 3\x00"
NOTE_LENGTH = 200
"""A game's note is a line, not a diary: it shows in the list's row."""
Found = TypeVar("Found")


class StoreError(CompanionError):
    """The database cannot do what was asked; the message says why, for a person.

    Built from a template and its parameters (paths, SQLite's own words) so the
    screen can say it in the chosen language.
    """


class Damaged(Exception):
    """The file is ours but SQLite cannot read it, or its record of migrations is broken."""


def now() -> str:
    """The time stamps in the database: UTC, ISO 8601, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
    problem: str | None = None
    """Why the row cannot be read (edited by hand); the list shows it and goes on."""
    abandoned_at: str | None = None
    """When the table gave the game up unfinished (``Store.abandon``); None for a finished or live one."""


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
    uid: str | None = None
    """The game's identity when it comes from elsewhere (a restored backup); None gives a new one."""
    seating: Seating | None = None
    """The seat colours and buzzers it was played with, when known (a restored backup)."""
    note: str | None = None
    """The players' line about it, kept as it was (a restored backup)."""
    abandoned_at: str | None = None
    """When the table gave it up, for an unfinished game that was abandoned (a restored backup)."""
    buzz_times: Mapping[int, BuzzTime] = field(default_factory=dict)
    """How its challenges decided by buzzer were won, by the action's ``seq`` (a restored backup)."""
    arrived_at: str | None = None
    """When a restore brought it: start-up does not reopen it, nor does a new game abandon it."""


@dataclass(frozen=True, slots=True)
class Extension:
    """More of a game this file has: its log here, then more actions (a restore from a table that played on)."""

    game_id: int
    upto: int
    """How many of its actions are here already; the ones after are added."""
    recorded: Recorded
    """The whole game as it came, from its first action."""


class Store:
    def __init__(
        self, db: Database, path: Path, notice: Reason | None = None, read_only: Reason | None = None,
        busy_timeout: float = 2.0,
    ) -> None:
        self.db = db
        self.path = path
        self.notice = notice
        """Something the person should read once, e.g. that a damaged file was moved aside."""
        self.read_only = read_only
        """Why nothing can be saved in this file (newer schema, read-only folder, damage found); None if it can."""
        self.busy_timeout = busy_timeout
        self.opened = _identity(path)
        """The file this connection writes (device, inode): a file deleted or replaced under it is noticed."""
        self.on_notice: Callable[[Reason], None] | None = None
        """Told what the store had to work around while running (the file deleted and written anew)."""

    @classmethod
    def open(cls, path: Path, busy_timeout: float = 2.0, move_damaged: bool = True) -> Store:
        """Open (or create, or upgrade) the database.

        A damaged file is moved aside, and a fresh one started, only when its header
        says it is ours and ``move_damaged`` allows it (the configured path, not a
        path typed for once); any other file is left exactly as it was.
        """
        path = _usable(Path(path))
        try:
            with _folder_lock(path, busy_timeout, needed=False):
                return cls._open(path, busy_timeout, move_damaged=move_damaged)
        except Damaged as damage:
            if not move_damaged:
                raise _damaged(path, damage.args[0]) from None
            try:
                with _folder_lock(path, busy_timeout, needed=True):
                    return cls._open_or_move_aside(path, busy_timeout)
            except OSError as exc:
                raise StoreError(
                    "{path} is damaged ({damage}) and cannot be moved aside ({problem}); "
                    "move it yourself to start a fresh one",
                    path=str(path), damage=damage.args[0], problem=str(exc.strerror),
                ) from None

    @classmethod
    def _open_or_move_aside(cls, path: Path, busy_timeout: float) -> Store:
        """Under the lock, the damage is looked at again: another process may have moved the file aside
        and started the fresh one meanwhile, and that fresh one must not be moved aside in turn."""
        try:
            return cls._open(path, busy_timeout, move_damaged=True)
        except Damaged as damage:
            if application_id(_header(path)) != APPLICATION_ID:
                raise _damaged(path, damage.args[0]) from None
            moved = _move_aside(path)
        notice = Reason("{path} was damaged and could not be read: it was moved to {moved}",
                        path=str(path), moved=moved.name)
        try:
            return cls._open(path, busy_timeout, Reason("{notice} and a fresh database was started", notice=notice))
        except (Damaged, StoreError) as exc:
            _remove_fresh(path)
            raise StoreError(
                "{notice}, but no fresh database could be started: {problem}", notice=notice, problem=exc.args[0]
            ) from None

    @classmethod
    def _open(
        cls, path: Path, busy_timeout: float, notice: Reason | None = None, move_damaged: bool = False
    ) -> Store:
        _refuse_theirs(path)
        found = _damage_found(path)
        if found and move_damaged:
            raise Damaged(found)
        read_only = _why_read_only(path)
        if found and not read_only:
            read_only = Reason("it was found damaged ({damage}); moving it aside starts a fresh one", damage=found)
        if read_only and not path.exists():
            raise StoreError("cannot create {path}: {why}", path=str(path), why=read_only)
        try:
            db = _connect(path, busy_timeout, read_only is None)
        except sqlite3.Error as exc:
            raise _opening_failed(exc, path) from None
        try:
            newer = _prepare(db, path, read_only is None)
        except sqlite3.Error as exc:
            db.close()
            raise _opening_failed(exc, path) from None
        except BaseException:
            db.close()
            raise
        return cls(db, path, notice, newer or read_only, busy_timeout)

    @classmethod
    def copy_in_memory(cls, path: Path, busy_timeout: float = 2.0) -> Store:
        """The database at ``path`` as it is, copied into memory and brought up to date there: what a dry
        run plans against, so that it writes nothing to the file, not even the upgrade an older one gets."""
        path = _usable(Path(path))
        _refuse_theirs(path)
        found = _damage_found(path)
        if found:
            raise _damaged(path, found)
        copy = _connect(Path(":memory:"), 0.0, writable=True)
        try:
            source = _connect(path, busy_timeout, writable=False)
            try:
                source.conn.backup(copy.conn)
            finally:
                source.close()
            _prepare(copy, Path(":memory:"), writable=True)
        except sqlite3.Error as exc:
            copy.close()
            raise _opening_failed(exc, path) from None
        return cls(copy, Path(":memory:"))

    @classmethod
    def memory(cls) -> Store:
        """A fresh database that lives in memory, like sqlite-utils' ``Database(memory=True)``: for fast tests."""
        path = Path(":memory:")
        db = _connect(path, 0.0, writable=True)
        _prepare(db, path, writable=True)
        return cls(db, path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def cannot_save(self) -> Reason | None:
        """Why nothing will be saved, as the sentence to show (the app shows it at start); None when it can be."""
        if not self.read_only:
            return None
        return Reason("nothing can be saved in {path}: {why}", path=str(self.path), why=self.read_only)

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; refused before it starts when this file must not be written."""
        if self.cannot_save:
            raise StoreError(self.cannot_save)
        self.follow_the_file()
        try:
            with _transaction(self.db.conn) as conn:
                yield conn
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def read_then_keep(
        self, read: Callable[[sqlite3.Connection], Found], keep: Callable[[sqlite3.Connection, Found], None]
    ) -> Found:
        """``read`` in one read transaction, then ``keep`` what was worked out from it in that same transaction:
        for figures kept only to save working them out again (the kept ratings).

        What ``read`` sees is the database at one moment, whoever writes meanwhile (WAL), and SQLite refuses
        at once a write in a transaction that began before another program's commit: so what is kept always
        matches the rows it was worked out from, and a crash leaves it as it was or wholly written. When it
        cannot be kept (the file read-only, busy, written since the read, full), what was read is returned
        all the same and nothing is raised: the next call works it out again. Damage is said, as on any read.
        """
        if not self.cannot_save:
            with suppress(StoreError):  # a file put in its place: cannot_save says so now, and nothing is kept
                self.follow_the_file()
        conn = self.db.conn
        try:
            try:
                conn.execute("BEGIN")
                found = read(conn)
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
            try:
                if not self.cannot_save:
                    keep(conn, found)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if _is_damage(exc):
                    raise self._failed(exc) from None
            return found
        finally:
            if conn.in_transaction:
                conn.rollback()

    def follow_the_file(self) -> None:
        """Before a write, and before another connection opens ``path`` (a worker's own store): is the file
        there still the one this connection writes?

        SQLite goes on writing a deleted file through its open descriptor, so every
        action after a deletion would look saved and be lost when the app stops. A
        deleted file is written anew from the open one (every game it holds, the live
        one too) and the app is told. A file put in its place by someone else is left
        alone, and nothing more is written (``_let_go``).
        """
        if self.opened is None:
            return
        try:
            found = _identity(self.path)
        except OSError:
            return  # a folder that cannot be looked into: SQLite says what is wrong
        if found == self.opened:
            return
        if found is not None:
            self._let_go()
            self._stop_saving(Reason("another file was put in its place while the app ran; restart the app to use it"))
        self._write_anew()

    def _let_go(self) -> None:
        """Another file is at ``path`` now, and this connection's WAL is still beside it under its name: the
        next open would apply it to that file and destroy its games. The WAL's frames go into the file this
        connection has (a checkpoint) and the connection is closed, which removes the WAL under that name; a
        WAL or shared-memory file still there is moved aside, not deleted. Then reading goes on in the file put
        there, as it is (read-only), and nothing is written."""
        with suppress(sqlite3.Error):
            self.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        for suffix in ("-wal", "-shm"):
            left = self.path.with_name(self.path.name + suffix)
            with suppress(OSError):
                if left.exists():
                    left.rename(self.path.with_name(f"{self.path.name}.replaced-{stamp}{suffix}"))
        with suppress(sqlite3.Error, StoreError):
            if _not_ours(_header(self.path), self.path) is None:
                self.db = _connect(self.path, self.busy_timeout, writable=False)
        self.opened = _identity(self.path)  # let go once: the file there now is the one read

    def _write_anew(self) -> None:
        """Copy the open (deleted) database into a new file at ``path`` and go on in that one."""
        fresh = self.path.with_name(self.path.name + ".new")
        try:
            _usable(self.path)
            fresh.unlink(missing_ok=True)
            copy = sqlite3.connect(fresh)
            try:
                self.db.conn.backup(copy)
            finally:
                copy.close()
            self.db.close()  # its WAL's name goes with it, before a new file takes the name
            fresh.rename(self.path)
            store = Store._open(self.path, self.busy_timeout)
        except (OSError, sqlite3.Error, StoreError, Damaged) as exc:
            with suppress(OSError):
                fresh.unlink(missing_ok=True)
            problem = exc.strerror if isinstance(exc, OSError) else str(exc)
            self._stop_saving(Reason(
                "it was deleted while the app ran, and no new file could be written ({problem}); "
                "what is on the table is not saved", problem=str(problem),
            ))
        self.db, self.opened = store.db, store.opened
        if self.on_notice is not None:
            self.on_notice(Reason(
                "{path} was deleted while the app ran: every game it held, this one too, "
                "was written into a new file there", path=str(self.path),
            ))

    def _stop_saving(self, why: Reason) -> None:
        self.read_only = why
        raise StoreError("nothing can be saved in {path}: {why}", path=str(self.path), why=why) from None

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        """The message for a failed statement; damage found now also stops any further writing."""
        if _is_damage(exc):
            self._found_damage(str(exc))
            return _damaged(self.path, str(exc))
        return _error(exc, self.path)

    def check(self) -> list[str]:
        """SQLite's integrity check: the problems it finds (none: the file is sound); damage stops writing."""
        try:
            problems = [text for (text,) in self.db.conn.execute("PRAGMA integrity_check") if text != "ok"]
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems:
            self._found_damage(Reason("the integrity check found {count} problems", count=len(problems)))
        return problems

    def _found_damage(self, reason: str) -> None:
        """No more writing in this file, now or in any later run: a note beside it keeps the reason.

        The next open at the configured path moves file and note aside; with ``--db``
        the file stays readable (``show``, ``export``, ``check``) but is not written.
        """
        self.read_only = Reason("it is damaged ({damage})", damage=reason)
        try:
            _damage_note(self.path).write_text(reason + "\n", encoding="utf-8")
        except OSError:
            pass  # a read-only folder: nothing is written there anyway

    # --- writing ---------------------------------------------------------------

    def add_player(self, name: str) -> int:
        """A player profile before any game, named as a seat would be."""
        try:
            name = check_name(name, "player")
        except IllegalAction as exc:
            raise StoreError(exc.reason) from None
        with self._writing() as conn:
            if conn.execute("SELECT 1 FROM players WHERE name = ?", [name]).fetchone():
                raise StoreError("there is already a player named {name}", name=Name(name))
            return _player_id(conn, name, now())

    def rename_player(self, name: str, new_name: str) -> None:
        """The player and every game they sat at take the new name: lists, pages and exports all say it."""
        try:
            new_name = check_name(new_name, "player")
        except IllegalAction as exc:
            raise StoreError(exc.reason) from None
        with self._writing() as conn:
            player = _named(conn, name)
            if new_name != name and conn.execute("SELECT 1 FROM players WHERE name = ?", [new_name]).fetchone():
                raise StoreError("there is already a player named {name}: merge the two instead", name=Name(new_name))
            conn.execute("UPDATE players SET name = ? WHERE id = ?", [new_name, player])
            _rename_in_games(conn, player, name, new_name)

    def games_of(self, name: str) -> int:
        """How many games ``name`` sat at, finished or not: what a rename or a merge rewrites."""
        return int(self.query(
            "SELECT count(*) FROM game_seats JOIN players ON players.id = game_seats.player_id"
            " WHERE players.name = ?", [name])[0][0])

    def merge_players(self, name: str, into: str) -> None:
        """``name``'s games become ``into``'s (the same person under two names); ``name`` is gone after, and
        ``undo_merge`` can bring them back until the next game starts.

        Refused when both sat at one game: that game would have one player in two seats.
        """
        with self._writing() as conn:
            gone, kept = _named(conn, name), _named(conn, into)
            if gone == kept:
                raise StoreError("{name} cannot be merged into themselves", name=Name(name))
            shared = conn.execute(
                "SELECT min(a.game_id) FROM game_seats AS a JOIN game_seats AS b ON b.game_id = a.game_id"
                " WHERE a.player_id = ? AND b.player_id = ?", [gone, kept]).fetchone()[0]
            if shared is not None:
                raise StoreError("{name} and {into} both sat at game #{game}: they are two players, not one",
                                 name=Name(name), into=Name(into), game=shared)
            games = [game for (game,) in conn.execute(
                "SELECT game_id FROM game_seats WHERE player_id = ? ORDER BY game_id", [gone])]
            conn.execute("DELETE FROM merge_undo")
            conn.execute(
                "INSERT INTO merge_undo (gone_id, gone_name, gone_created_at, gone_last_played, gone_retired_at,"
                " kept_id, kept_last_played, games) SELECT gone.id, gone.name, gone.created_at, gone.last_played,"
                " gone.retired_at, kept.id, kept.last_played, ? FROM players AS gone, players AS kept"
                " WHERE gone.id = ? AND kept.id = ?", [to_json(games), gone, kept])
            _rename_in_games(conn, gone, name, into)
            conn.execute("UPDATE game_seats SET player_id = ? WHERE player_id = ?", [kept, gone])
            conn.execute("UPDATE scores SET player_id = ? WHERE player_id = ?", [kept, gone])  # totals follow
            for table, column in BY_PLAYER:  # the kept figures followed the scores: all zero now
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", [gone])
            conn.execute(
                "UPDATE players SET last_played = nullif(max(coalesce(last_played, ''),"
                " coalesce((SELECT last_played FROM players WHERE id = ?), '')), '') WHERE id = ?", [gone, kept])
            conn.execute("DELETE FROM players WHERE id = ?", [gone])

    def merge_to_undo(self, into: str) -> str | None:
        """The player last merged into ``into``, while that merge can still be undone; else None."""
        rows = self.query("SELECT gone_name FROM merge_undo JOIN players ON players.id = merge_undo.kept_id"
                          " WHERE players.name = ?", [into])
        return str(rows[0][0]) if rows else None

    def undo_merge(self, into: str) -> str:
        """Take the last merge into ``into`` back: the merged player, their games and their figures return as
        they were. Returns their name; refused once a game has started since, or when the name is taken."""
        with self._writing() as conn:
            row = conn.execute(
                "SELECT gone_id, gone_name, gone_created_at, gone_last_played, gone_retired_at, kept_id,"
                " kept_last_played, games FROM merge_undo WHERE kept_id = ?", [_named(conn, into)]).fetchone()
            if row is None:
                raise StoreError("no merge into {name} can be undone: a merge is undone only until the next game"
                                 " starts", name=Name(into))
            gone, name, created, last_played, retired, kept, kept_last_played, games = row
            if conn.execute("SELECT 1 FROM players WHERE name = ?", [name]).fetchone():
                raise StoreError("there is already a player named {name}: rename them first", name=Name(name))
            taken = conn.execute("SELECT 1 FROM players WHERE id = ?", [gone]).fetchone()  # by a restore or an import
            back = conn.execute(  # since: the merged player then comes back under a new id
                "INSERT INTO players (id, name, created_at, last_played, retired_at) VALUES (?, ?, ?, ?, ?)",
                [None if taken else gone, name, created, last_played, retired])
            assert back.lastrowid is not None  # an insert's
            gone = back.lastrowid
            ids = json.loads(games)
            marks = ", ".join("?" * len(ids))
            for table in ("game_seats", "scores"):  # the kept figures follow, by their triggers
                conn.execute(f"UPDATE {table} SET player_id = ? WHERE player_id = ? AND game_id IN ({marks})",
                             [gone, kept, *ids])
            _rename_in_games(conn, gone, into, name)
            conn.execute("UPDATE players SET last_played = ? WHERE id = ?", [kept_last_played, kept])
            conn.execute("DELETE FROM merge_undo")
            return str(name)

    def retire_player(self, name: str, retired: bool = True) -> None:
        """A retired player keeps every game and every figure; the Players list shows them apart.
        ``retired=False`` brings them back."""
        with self._writing() as conn:
            conn.execute("UPDATE players SET retired_at = ? WHERE id = ?",
                         [now() if retired else None, _named(conn, name)])

    def set_note(self, game_id: int, note: str) -> str | None:
        """A line the players keep with a game ("Ben's birthday"); an empty one takes the note away.

        Returns the note as kept (spaces trimmed), or None for no note.
        """
        kept = " ".join(note.split()) or None
        if kept is not None and len(kept) > NOTE_LENGTH:
            raise StoreError("a note is at most {most} characters; this one has {count}", most=NOTE_LENGTH,
                             count=len(kept))
        with self._writing() as conn:
            if conn.execute("UPDATE games SET note = ? WHERE id = ?", [kept, game_id]).rowcount == 0:
                raise StoreError("there is no game {game}", game=game_id)
        return kept

    def abandon(self, game_id: int, at: str) -> bool:
        """Give up an unfinished game: it stays in the history, marked abandoned, and is not reopened.

        False when there was no such unfinished game (ended or abandoned meanwhile).
        """
        with self._writing() as conn:
            return conn.execute(
                "UPDATE games SET abandoned_at = ? WHERE id = ? AND ended_at IS NULL AND abandoned_at IS NULL",
                [at, game_id],
            ).rowcount > 0

    def new_game(self, setup: Setup, started_at: str, seating: Seating | None = None) -> int:
        """Save a new game and, in the same transaction, where everyone sits (colours, buzzers).

        Any game still unfinished was left for this one, and is marked abandoned: otherwise,
        once the new game ended, start-up would reopen an older game the table had walked away from.
        A game a restore brought is not the table's to walk away from: it stays unfinished on its page.
        """
        with self._writing() as conn:
            conn.execute(
                "UPDATE games SET abandoned_at = ? WHERE ended_at IS NULL AND abandoned_at IS NULL"
                " AND arrived_at IS NULL", [started_at]
            )
            conn.execute("DELETE FROM merge_undo")  # a merge is undone only until the next game starts
            return _insert_game(conn, setup, started_at, seating)

    def keep_buzz(self, game_id: int, entry: int, seat: int) -> None:
        """``seat`` took the challenge of the card laid by log entry ``entry``; not yet called."""
        with self._writing() as conn:
            conn.execute("INSERT OR REPLACE INTO game_buzz (game_id, entry, seat) VALUES (?, ?, ?)",
                         [game_id, entry, seat])

    def drop_buzz(self, game_id: int) -> None:
        """Nobody challenges after all (Cancel): the window is open again."""
        with self._writing() as conn:
            conn.execute("DELETE FROM game_buzz WHERE game_id = ?", [game_id])

    def record(
        self, game_id: int, seq: int, at: str, action: Action, game: Game, snapshot: Taken | None = None,
        buzz_time: BuzzTime | None = None,
    ) -> None:
        """Append one accepted action; ``game`` is the game after it (to finish or reopen the row).

        A ``snapshot`` taken after it is saved in the same transaction, checked against
        the rows it covers as they are now; later ones it replaces are deleted. So is a
        challenge's ``buzz_time``, how it was won by buzzer.
        """
        ending = _ending(game)
        with self._writing() as conn:
            conn.execute(
                "INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                [game_id, seq, at, to_json(action.to_dict())],
            )
            if snapshot:
                _save_snapshot(conn, game_id, snapshot)
            if buzz_time is not None:
                _save_buzz_times(conn, game_id, [(seq, action, buzz_time)])
            conn.execute("DELETE FROM game_buzz WHERE game_id = ?", [game_id])  # called, or no longer on top
            conn.execute("UPDATE games SET arrived_at = NULL WHERE id = ? AND arrived_at IS NOT NULL", [game_id])
            (was_ended,) = conn.execute("SELECT ended_at IS NOT NULL FROM games WHERE id = ?", [game_id]).fetchone()
            if ending and not was_ended:
                _finish(conn, game_id, ending, at)
            elif was_ended and not ending:
                _reopen(conn, game_id)

    def save(self, games: Iterable[Recorded], extended: Iterable[Extension] = ()) -> list[int]:
        """Many whole games in one transaction: one fsync instead of one per action; and more of games
        this file has (``extended``, a restore). Returns the numbers of the games added, then extended.

        Every row is worked out before the write lock is taken, so a live game
        saving meanwhile waits only for the inserts. A game extended whose log here
        changed since the restore was planned is left as it is.
        """
        rows = [(recorded, *_rows(recorded)) for recorded in games]
        more = [(extension, *_rows(extension.recorded)) for extension in extended]
        ids = []
        with self._writing() as conn:
            for recorded, actions, ending in rows:
                game_id = _insert_game(conn, recorded.game.setup, recorded.started_at, recorded.seating, recorded.uid)
                _append(conn, Extension(game_id, 0, recorded), actions, ending)
                ids.append(game_id)
            for extension, actions, ending in more:
                (upto,) = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                       [extension.game_id]).fetchone()
                if upto == extension.upto:
                    _append(conn, extension, actions, ending)
                    ids.append(extension.game_id)
        return ids

    # --- reading ---------------------------------------------------------------

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.db.conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def unfinished_game(self) -> int | None:
        """The game most recently started that is neither over nor abandoned, and was played here: the one to
        resume. One a restore brought waits on its page."""
        (arrived,) = _or_null(self.db, "games", ("arrived_at",))  # a read-only file from before m014 has none
        rows = self.query(
            f"SELECT id FROM games WHERE ended_at IS NULL AND abandoned_at IS NULL AND {arrived} IS NULL"
            " ORDER BY started_at DESC, id DESC LIMIT 1"
        )
        return rows[0][0] if rows else None

    def load(self, game_id: int) -> SavedGame:
        *setup, started_at, ended_at, kept_note, abandoned_at = self._game_row(game_id)
        buzz_times = self.buzz_times(game_id) if "challenge_buzz" in self.db.table_names() else {}
        with self._readable(game_id), no_cyclic_gc():
            log = self._log_rows(game_id)
            logged = tuple(logged_from_row(*r) for r in log)
            return SavedGame(
                game_id, setup_from_row(*setup), logged, started_at, ended_at,
                tuple(text for _, _, text in log), self._snapshots(game_id), kept_note, abandoned_at, buzz_times,
            )

    def load_log(self, game_id: int) -> SavedLog:
        """What a replay reads (``SavedLog``): ``load`` less what it does not need."""
        *setup, started_at, _, _, _ = self._game_row(game_id)
        with self._readable(game_id), no_cyclic_gc():
            log = self._log_rows(game_id)
            return SavedLog(
                game_id, setup_from_row(*setup), started_at, actions_from_rows(log), tuple([at for _, at, _ in log]),
                tuple([text for _, _, text in log]), self._snapshots(game_id),
            )

    def _game_row(self, game_id: int) -> tuple[Any, ...]:
        """The set-up's columns, then when it started and ended, its note and when it was abandoned."""
        rows = self.query(
            "SELECT profile, variants, options, seats, end_card, first, started_at, ended_at, "
            f"{', '.join(_or_null(self.db, 'games', ('note', 'abandoned_at')))} FROM games WHERE id = ?",
            [game_id],
        )
        if not rows:
            raise StoreError("there is no game {game}", game=game_id)
        return rows[0]

    def _log_rows(self, game_id: int) -> list[tuple[int, str, str]]:
        return self.query("SELECT seq, at, action FROM actions WHERE game_id = ? ORDER BY seq", [game_id])

    def _snapshots(self, game_id: int) -> tuple[Snapshot, ...]:
        if "snapshots" not in self.db.table_names():  # a read-only file from before them
            return ()
        return tuple(Snapshot(*row) for row in self.query(
            "SELECT since, upto, rules, log_hash, checksum, payload FROM snapshots WHERE game_id = ? ORDER BY upto",
            [game_id],
        ))

    @contextmanager
    def _readable(self, game_id: int) -> Iterator[None]:
        """A row of the game that cannot be read, said with what to do."""
        try:
            yield
        except BadRow as exc:
            raise StoreError(
                "game #{game} cannot be read: {problem}; {fix}", game=game_id, problem=str(exc), fix=FIX_ROW
            ) from None

    def seating(self, game_id: int) -> Seating | None:
        """The seating saved with the game; None for one saved without it."""
        rows = self.query("SELECT colour, buzzer FROM game_seats WHERE game_id = ? ORDER BY seat", [game_id])
        if not rows or any(colour is None or buzzer is None for colour, buzzer in rows):
            return None
        return Seating(tuple(colour for colour, _ in rows), tuple(buzzer for _, buzzer in rows))

    def buzz(self, game_id: int) -> tuple[int, int] | None:
        """The saved buzz: (the card's log entry, the seat that took its challenge), or None."""
        rows = self.query("SELECT entry, seat FROM game_buzz WHERE game_id = ?", [game_id])
        return (rows[0][0], rows[0][1]) if rows else None

    def buzz_times(self, game_id: int) -> dict[int, BuzzTime]:
        """How each of the game's challenges decided by buzzer was won, by the action's ``seq``."""
        rows = self.query("SELECT seq, from_tap_ms, margin_ms FROM challenge_buzz WHERE game_id = ?", [game_id])
        return {seq: BuzzTime(from_tap, margin) for seq, from_tap, margin in rows}

    def list_games(self, limit: int | None = None) -> list[GameSummary]:
        """Newest first, with each finished game's scores by seat."""
        return list(self.each_game(limit))

    def each_game(self, limit: int | None = None) -> Iterator[GameSummary]:
        """``list_games`` one row at a time from the cursor (``stream``)."""
        limited = [-1 if limit is None else limit]
        for row in self.stream(f"{SUMMARY} ORDER BY started_at DESC, id DESC LIMIT ?", limited):
            yield _summary(*row)

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[tuple[Any, ...]]:
        """``query`` a row at a time from the cursor: memory stays flat however many rows there are.

        The read transaction lasts as long as the iteration; in WAL mode a live game
        saving meanwhile is not held up by it.
        """
        try:
            yield from self.db.conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def summary(self, game_id: int) -> GameSummary | None:
        """One game as the list shows it (e.g. the unfinished one, for the table to recognise)."""
        rows = self.query(f"{SUMMARY} WHERE id = ?", [game_id])
        return _summary(*rows[0]) if rows else None

    def stats(self) -> list[PlayerStats]:
        """Per player, over finished games: the sums kept per player and profile as games end (``player_totals``)."""
        rows = self.query(
            "SELECT name, games, wins, win_rate, average_score, trophies, challenges_made, challenges_won,"
            " caught_bluffing, survived_challenges FROM player_stats ORDER BY wins DESC, win_rate DESC, name"
        )
        return [PlayerStats(*row) for row in rows]

    def place_games(self, table_id: str, name: str, uids: Sequence[str] = ()) -> int:
        """The games of ``uids`` that came from another table are that table's (``''``: this one), and the
        table is called ``name``: what the review screens say of each game. A game played here keeps no table.
        Returns how many games were given their table."""
        with self._writing() as conn:
            conn.execute("INSERT INTO league_tables (id, name) VALUES (?, ?)"
                         " ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE name != excluded.name",
                         [table_id, name])
            if not table_id or not uids:
                return 0
            return conn.execute(
                "UPDATE games SET table_id = ? WHERE uid IN (SELECT value FROM json_each(?))"
                " AND arrived_at IS NOT NULL AND table_id IS NOT ?", [table_id, json.dumps(list(uids)), table_id],
            ).rowcount

    def uids(self) -> dict[str, int]:
        """Every game's identity and its number here: what a restore compares against."""
        return {uid: game_id for game_id, uid in self.query("SELECT id, uid FROM games")}

    def uid_of(self, game_id: int) -> str:
        rows = self.query("SELECT uid FROM games WHERE id = ?", [game_id])
        if not rows:
            raise StoreError("there is no game {game}", game=game_id)
        return str(rows[0][0])

    def players(self) -> list[str]:
        return [name for (name,) in self.query("SELECT name FROM players ORDER BY id")]

    def recent_players(self, *, retired: bool = False) -> list[str]:
        """Whoever sat down (or was added) most recently first: the set-up screen's list of regulars, where a
        retired player no longer shows; ``retired`` lists them too (their games are still there to find)."""
        rows = self.query(
            "SELECT name FROM players WHERE ? OR retired_at IS NULL"
            " ORDER BY coalesce(last_played, created_at) DESC, id DESC", [retired]
        )
        return [name for (name,) in rows]


SUMMARY = (
    "SELECT id, started_at, ended_at, end_reason, seats, winners,"
    " (SELECT json_group_array(score) FROM (SELECT score FROM scores WHERE game_id = games.id ORDER BY seat)),"
    " abandoned_at FROM games"
)
"""A ``GameSummary``'s columns, for the list and for one game."""


def _summary(
    game_id: int, started: str, ended: str | None, reason: str | None, seats: str, winners: str | None, scores: str,
    abandoned: str | None,
) -> GameSummary:
    try:
        names, won = names_from_json(seats, "seats"), names_from_json(winners or "[]", "winners")
    except BadRow as exc:
        problem = Reason("{problem}; {fix}", problem=str(exc), fix=FIX_ROW)
        return GameSummary(game_id, started, ended, reason, (), (), (), problem, abandoned)
    return GameSummary(game_id, started, ended, reason, names, won, tuple(json.loads(scores)), None, abandoned)


def _identity(path: Path) -> tuple[int, int] | None:
    """The file's device and inode; None when there is none (deleted, or a database in memory)."""
    if str(path) == ":memory:":
        return None
    try:
        found = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return found.st_dev, found.st_ino


def _or_null(db: Database, table: str, columns: tuple[str, ...]) -> list[str]:
    """Each column, or NULL where a file from before it (opened read-only, so not upgraded) lacks it."""
    have = db.table(table).columns_dict
    return [column if column in have else "NULL" for column in columns]


def _usable(path: Path) -> Path:
    """The database path with its folder made; a mistake in it is named rather than met as an OSError."""
    if path.is_dir():
        raise StoreError(
            "{path} is a folder: give a file in it, such as {file}", path=str(path), file=str(path / "games.db")
        )
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise StoreError(
                    "cannot keep the database at {path}: {folder} is a file, not a folder",
                    path=str(path), folder=str(folder),
                )
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            "cannot make the folder {folder} for the database: {problem}",
            folder=str(path.parent), problem=str(exc.strerror),
        ) from None
    try:
        file_size(path, DATABASE)  # a FIFO would hang the first read of the header
    except FileRefused as exc:
        raise StoreError(exc.reason) from None
    except OSError:
        pass  # none yet (a new database), or one SQLite says more about
    return path


def _header(path: Path) -> bytes:
    """The file's first 100 bytes (SQLite's header); empty when there is no file yet."""
    try:
        with path.open("rb") as file:
            return file.read(100)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise StoreError("cannot read {path}: {problem}", path=str(path), problem=str(exc.strerror)) from None


def application_id(header: bytes) -> int:
    """The program an SQLite file says it belongs to, from its first 100 bytes (0: none said)."""
    return int.from_bytes(header[68:72], "big")


def _refuse_theirs(path: Path) -> None:
    """StoreError when the file at ``path`` is not ours to open: before anything reads or writes it."""
    theirs = _not_ours(_header(path), path)
    if theirs:
        raise StoreError("{problem}: check the path; nothing was changed", problem=theirs)


def _not_ours(header: bytes, path: Path) -> Reason | None:
    """Why a file with this header belongs to someone else; None when it is ours, new or empty."""
    if not header:
        return None
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        return Reason("{path} is not a Spicy Companion database (it is not an SQLite file at all)", path=str(path))
    if application_id(header) not in (0, APPLICATION_ID):
        return Reason("{path} is another program's SQLite database, not Spicy Companion's", path=str(path))
    return None


def _why_read_only(path: Path) -> Reason | None:
    if not os.access(path.parent, os.W_OK):
        return Reason(
            "the folder {folder} is read-only; choose a database in a folder you can write (--db)",
            folder=str(path.parent),
        )
    if path.exists() and not os.access(path, os.W_OK):
        return Reason("the file is read-only; choose a database you can write (--db)")
    return None


def _connect(path: Path, busy_timeout: float, writable: bool) -> Database:
    """A read-only file is opened as immutable unless a WAL is present.

    SQLite cannot read a WAL database without its shared-memory file, which a
    read-only folder cannot hold; with no WAL file nothing is being written, so
    reading it as immutable is safe.
    """
    if writable:
        conn = sqlite3.connect(path, timeout=busy_timeout)
    else:
        mode = "mode=ro" if path.with_name(path.name + "-wal").exists() else "mode=ro&immutable=1"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True, timeout=busy_timeout)
    try:
        db = Database(conn)
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return db


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE: the write lock up front, so a busy file makes us wait (busy_timeout) or fail
    before anything is written. A deferred transaction that reads first and then writes gets
    "locked" at once, without the wait, when another process writes meanwhile."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise


def _prepare(db: Database, path: Path, writable: bool) -> Reason | None:
    """Check the file is ours, then set WAL and full sync and bring the schema up to date under the
    write lock; or say why this file must not be written. Nothing is written before the check."""
    pending, newer = _schema(db, path)
    if newer or not writable:
        return newer
    db.enable_wal()
    db.execute("PRAGMA synchronous = FULL")
    if not pending:
        return None
    with _transaction(db.conn):
        pending, newer = _schema(db, path)  # another process may have upgraded it meanwhile
        if pending:
            try:
                MIGRATIONS.apply(db)
            except sqlite3.OperationalError as exc:
                why = Reason("its tables do not match its record of migrations: {problem}", problem=str(exc))
                raise Damaged(why) from None
            except (ValueError, IllegalAction) as exc:  # an upgrade that reads rows meets one edited by hand
                raise StoreError(
                    "{path} cannot be upgraded: a row cannot be read ({problem}); {fix}",
                    path=str(path), problem=str(exc), fix=FIX_ROW,
                ) from None
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {len(KNOWN)}")
            db.table("app").upsert({"key": "schema_by", "value": __version__}, pk="key")
    return newer


def _schema(db: Database, path: Path) -> tuple[bool, Reason | None]:
    """Whether migrations are pending, and why not to write (a newer app's schema); Damaged if broken."""
    tables = set(db.table_names())
    applied = [name for (name,) in db.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY id", [MIGRATIONS.name])
    ] if "_sqlite_migrations" in tables else []
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > len(KNOWN) or set(applied) - set(KNOWN):
        made_by = db.execute("SELECT value FROM app WHERE key = 'schema_by'").fetchone() if "app" in tables else None
        who = Reason("a newer Spicy Companion")
        if made_by and made_by[0] != __version__:
            who = Reason("Spicy Companion {version}", version=made_by[0])
        return False, Reason(
            "it was made by {who}, newer than this version ({version}): "
            "update the app to save games in it; reading works",
            who=who, version=__version__,
        )
    if applied != list(KNOWN[: len(applied)]):
        raise Damaged(Reason("its record of migrations is broken: {names}", names=tuple(applied)))
    if not applied and tables - {"_sqlite_migrations"}:
        (owner,) = db.execute("PRAGMA application_id").fetchone()
        if owner == APPLICATION_ID or {"players", "games", "actions"} <= tables:
            raise Damaged(Reason("its record of migrations is missing"))
        raise StoreError(
            "{path} is another program's SQLite database (tables: {tables}): check the path; nothing was changed",
            path=str(path), tables=tuple(sorted(tables)),
        )
    return len(applied) < len(KNOWN), None


def _damage_note(path: Path) -> Path:
    return path.with_name(path.name + ".damaged")


def _damage_found(path: Path) -> str | None:
    """The reason kept beside a file found damaged by an earlier run, if any."""
    try:
        return _damage_note(path).read_text(encoding="utf-8").strip() or Reason("damage found earlier")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return Reason("damage found earlier")


def _opening_failed(exc: sqlite3.Error, path: Path) -> Exception:
    return Damaged(str(exc)) if _is_damage(exc) else _error(exc, path)


def _is_damage(exc: sqlite3.Error) -> bool:
    """SQLITE_CORRUPT and SQLITE_NOTADB: what a damaged file gives, as opposed to busy, full or missing."""
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _remove_fresh(path: Path) -> None:
    """A fresh database that could not be made (disk full) leaves no empty or half-made file to be taken for one."""
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


@contextmanager
def _folder_lock(path: Path, timeout: float, needed: bool) -> Iterator[None]:
    """Held while a process opens the file (a few milliseconds), and while it moves a damaged one aside.

    Two processes that both saw the damage would otherwise each move a file aside,
    the second one the fresh file the first had begun to write; a process opening
    the file while it is renamed could pair the old file with the fresh one's WAL;
    and two processes creating or upgrading a new file at once could find SQLite
    answering busy at once instead of waiting (a read that turns into a write).
    An flock on the folder rather than on a lock file: nothing is left beside the
    database, and the kernel lets it go when the process ends. Waits as long as
    SQLite waits for a busy file, then says it is busy. Only moving aside
    ``needed`` it: a folder that cannot be opened to lock is opened in as before.
    """
    try:
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        if needed:
            raise
        yield  # a folder that cannot be listed: opening goes on as before, and nothing is moved aside in it
        return
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StoreError(BUSY) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(folder)


def _move_aside(path: Path) -> Path:
    """Rename the file (and its WAL, shared-memory and damage note) with a time stamp; nothing is deleted."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    path.rename(target)
    for suffix in ("-wal", "-shm", ".damaged"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(target.with_name(target.name + suffix))
    return target


def _damaged(path: Path, damage: str) -> StoreError:
    return StoreError("{path} is damaged ({damage}); {rescue}", path=str(path), damage=damage, rescue=RESCUE)


def _error(exc: sqlite3.Error, path: Path) -> StoreError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreError(BUSY)
    if isinstance(exc, sqlite3.IntegrityError) and "actions" in text:
        return StoreError("this game was changed by another program meanwhile: resume it again")
    return StoreError("{path}: {problem}", path=str(path), problem=text)


def _player_id(conn: sqlite3.Connection, name: str, at: str) -> int:
    row = conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
    if row:
        return int(row[0])
    cursor = conn.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", [name, at])
    return int(cursor.lastrowid or 0)


def _named(conn: sqlite3.Connection, name: str) -> int:
    row = conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
    if row is None:
        raise StoreError("there is no player named {name}", name=Name(name))
    return int(row[0])


def _rename_in_games(conn: sqlite3.Connection, player: int, old: str, new: str) -> None:
    """The names kept in each game's row (its seats and winners, as a transcript or an export gives them)."""
    rows = conn.execute(
        "SELECT id, seats, winners FROM games WHERE id IN (SELECT game_id FROM game_seats WHERE player_id = ?)",
        [player],
    ).fetchall()
    for game_id, seats, winners in rows:
        renamed = [[new if n == old else n for n in names_from_json(text, column)] if text is not None else None
                   for text, column in ((seats, "seats"), (winners, "winners"))]
        conn.execute("UPDATE games SET seats = ?, winners = ? WHERE id = ?",
                     [to_json(renamed[0]), None if renamed[1] is None else to_json(renamed[1]), game_id])


def _insert_game(
    conn: sqlite3.Connection, setup: Setup, started_at: str, seating: Seating | None = None, uid: str | None = None
) -> int:
    row = setup_row(setup) | {"started_at": started_at, "uid": uid or str(uuid.uuid4())}
    cursor = conn.execute(
        f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    )
    game_id = int(cursor.lastrowid or 0)
    conn.executemany(
        "INSERT INTO game_seats (game_id, seat, player_id, colour, buzzer) VALUES (?, ?, ?, ?, ?)",
        [
            (game_id, seat, _player_id(conn, name, started_at),
             *((seating.colours[seat], seating.buzzers[seat]) if seating else (None, None)))
            for seat, name in enumerate(setup.names)
        ],
    )
    return game_id


@dataclass(frozen=True, slots=True)
class Ending:
    """What a finished game writes when it ends, worked out before the write lock is taken."""

    reason: str | None
    winners: str
    seats: list[tuple[Any, ...]]
    """Per seat: seat, score, won, won universals, trophies, hand, universals, winner, then the challenge facts
    and the review facts (``REVIEW_COLUMNS``)."""
    challenges: str
    """The ``seq`` of every challenge that stands, as JSON: the buzz times the figures count."""


def _ending(game: Game) -> Ending | None:
    state = game.state
    if not state.ended:
        return None
    return Ending(
        state.end_reason,
        to_json([state.name(i) for i in state.winners]),
        [
            (i, state.score(i), seat.won, seat.won_universals, seat.trophies, seat.hand, seat.universals,
             i in state.winners, *facts.challenge, *facts.review[:-1], to_json(facts.review.declared))
            for i, (seat, facts) in enumerate(zip(state.seats, seat_facts(game), strict=True))
        ],
        to_json([step.entry + 1 for step in game.steps() if isinstance(step.move, Challenge)]),
    )


def _finish(conn: sqlite3.Connection, game_id: int, ending: Ending, at: str) -> None:
    conn.execute(
        "UPDATE games SET ended_at = ?, end_reason = ?, winners = ? WHERE id = ?",
        [at, ending.reason, ending.winners, game_id],
    )
    conn.execute("DELETE FROM scores WHERE game_id = ?", [game_id])
    players = dict(conn.execute("SELECT seat, player_id FROM game_seats WHERE game_id = ?", [game_id]).fetchall())
    conn.executemany(
        "INSERT INTO scores (game_id, seat, player_id, score, won, won_universals, trophies, hand, universals,"
        " winner, challenges_made, challenges_won, caught_bluffing, survived_challenges, "
        + ", ".join(REVIEW_COLUMNS) + ") VALUES (" + ", ".join("?" * (14 + len(REVIEW_COLUMNS))) + ")",
        [(game_id, seat, players[seat], *rest) for seat, *rest in ending.seats],
    )
    conn.execute("UPDATE challenge_buzz SET standing = seq IN (SELECT value FROM json_each(?)) WHERE game_id = ?",
                 [ending.challenges, game_id])


def _rows(recorded: Recorded) -> tuple[list[tuple[int, str, str]], Ending | None]:
    """A whole game's action rows (seq, time, JSON) and its ending, worked out before the write lock."""
    actions = [(seq, at, to_json(action.to_dict()))
               for seq, (at, action) in enumerate(zip(recorded.stamps, recorded.game.log, strict=True), start=1)]
    return actions, _ending(recorded.game)


def _append(conn: sqlite3.Connection, extension: Extension, actions: list[tuple[int, str, str]],
            ending: Ending | None) -> None:
    """The game's actions after ``upto`` (all of a new game's), then its row as its log now leaves it:
    finished or unfinished again, a note kept, abandoned only while unfinished, and when it arrived."""
    game_id, upto, recorded = extension.game_id, extension.upto, extension.recorded
    conn.executemany("INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                     [(game_id, *action) for action in actions[upto:]])
    log = recorded.game.log
    _save_buzz_times(conn, game_id, [(seq, log[seq - 1], buzz) for seq, buzz in recorded.buzz_times.items()
                                     if upto < seq <= len(log)])
    if upto:
        conn.execute("DELETE FROM game_buzz WHERE game_id = ?", [game_id])  # its card is no longer on top
    (was_ended,) = conn.execute("SELECT ended_at IS NOT NULL FROM games WHERE id = ?", [game_id]).fetchone()
    if ending:
        _finish(conn, game_id, ending, recorded.stamps[-1])
    elif was_ended:
        _reopen(conn, game_id)
    conn.execute(
        "UPDATE games SET note = coalesce(note, ?), abandoned_at = CASE WHEN ? THEN NULL ELSE"
        " coalesce(abandoned_at, ?) END, arrived_at = ? WHERE id = ?",
        [recorded.note, ending is not None, recorded.abandoned_at, recorded.arrived_at, game_id],
    )


def _save_buzz_times(conn: sqlite3.Connection, game_id: int, found: Iterable[tuple[int, Action, BuzzTime]]) -> None:
    """Each buzz time with its challenge, by the action's ``seq``; any other action has none."""
    conn.executemany(
        "INSERT OR REPLACE INTO challenge_buzz (game_id, seq, seat, from_tap_ms, margin_ms) VALUES (?, ?, ?, ?, ?)",
        [(game_id, seq, action.seat, buzz.from_tap_ms, buzz.margin_ms) for seq, action, buzz in found
         if isinstance(action, Challenge)],
    )


def _save_snapshot(conn: sqlite3.Connection, game_id: int, snapshot: Taken) -> None:
    texts = [text for (text,) in conn.execute(
        "SELECT action FROM actions WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
        [game_id, snapshot.since, snapshot.upto],
    )]
    conn.execute("DELETE FROM snapshots WHERE game_id = ? AND upto > ?", [game_id, snapshot.since])
    conn.execute(
        "INSERT INTO snapshots (game_id, upto, since, rules, log_hash, checksum, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [game_id, snapshot.upto, snapshot.since, rules_hash(), log_hash(texts), snapshot.checksum, snapshot.payload],
    )


def _reopen(conn: sqlite3.Connection, game_id: int) -> None:
    """An undo took back the end: the game is unfinished again."""
    conn.execute("UPDATE games SET ended_at = NULL, end_reason = NULL, winners = NULL WHERE id = ?", [game_id])
    conn.execute("DELETE FROM scores WHERE game_id = ?", [game_id])
    conn.execute("UPDATE challenge_buzz SET standing = 0 WHERE game_id = ?", [game_id])
