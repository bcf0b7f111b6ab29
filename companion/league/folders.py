"""Club night: each game that ends at this table goes into its league folder; the other tables' come in.

The league folder (``[league] folder``) holds one folder a table, ``tables/<id>``.
This table writes only its own (Syncthing sends it, ``companion.league.syncthing``) and
reads only the others' (Syncthing receives them), so no file is ever written by
two tables and there is nothing to merge::

    table.json                 this table's id and name, made once
    seen.json                  the other tables' files read already: each is read once, and named once if refused
    tables/<id>/table.json     that table's id, name and Syncthing device
    tables/<id>/games/<uid>.json       a game that ended there (finished or abandoned), its JSON export
    tables/<id>/players/<when>-<n>.json  a rename, a merge or a retirement of a player there

A game is written under a ``.partial`` name and renamed (``backup.written``), so
Syncthing never sends half a file. Another table's games come in through the
restore's own plan (``backup.plan_arrivals``): the uid and the log decide, so a
game is never doubled and a longer log of the same game extends it. They come
in a batch a transaction, and the batch is marked seen only after it is
committed: a kill at any moment leaves whole games, and the next import goes on
where it stopped. A file that is not one of ours (a link, a FIFO, too large,
not JSON, another program's, a newer format) is left where it is, never
imported, and named once.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import TABLE_ID, LeagueConfig
from companion.errors import CompanionError, Reason
from companion.files import LEAGUE, FileRefused, read_file
from companion.rules import action_from_dict
from companion.store.backup import UNREADABLE, Arrival, _create, _problem, _sync, plan_arrivals, restore, written
from companion.store.db import Store, StoreError, now
from companion.store.export import GAME_FORMAT, GAME_KIND, json_text
from companion.store.records import BuzzTime, Logged, SavedGame, setup_from_row, to_json

TABLE_KIND = "spicy-companion table"
PLAYER_KIND = "spicy-companion player"
FORMAT = 1
"""The format of this table's ``table.json`` and of a player's record; a newer one is refused, not guessed."""
BATCH = 200
"""Games a transaction when importing: a kill loses at most one batch's work, never half a game."""
SEEN_EVERY = 10
"""Batches between two writes of ``seen.json``: a file of 100,000 names is not rewritten after every batch."""
UID = re.compile(r"[0-9a-f-]{36}(?:-\d+)?(?:~[0-9a-f]{16})?")
NAME_LENGTH = 40
"""A table's name at most (``[league] table_name`` and the League screen alike)."""
CHANGES = ("rename", "merge", "retire", "unretire")
"""What a player's record says happened; a rename and a merge both mean "``name`` is now ``to``"."""


class LeagueError(CompanionError):
    """The league folder cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class Table:
    id: str
    name: str


@dataclass
class Imported:
    """What one import did: the games added and extended, the player changes, and the files refused."""

    added: int = 0
    extended: int = 0
    already: int = 0
    players: int = 0
    """Renames, merges and retirements applied here."""
    notices: list[Reason] = field(default_factory=list)
    """Each file refused, named the first time it is met (a file changed since is named again)."""


class Refused(Exception):
    """A league file that is not read; the reason says why, for the notice."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason


def _write_json(folder: Path, name: str, data: object) -> Path:
    """A whole file or none under ``name``: written as ``.partial``, flushed, then renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    with written(folder, name) as partial:
        with open(_create(partial), "w", encoding="utf-8") as file:
            file.write(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=1))
        _sync(partial, os.O_RDWR | os.O_NOFOLLOW)
    return folder / name


def read_json(path: Path) -> Any:
    """The JSON of a league file, or ``Refused``: never through a link, never a FIFO, never too large."""
    try:
        return json.loads(read_file(path, LEAGUE, follow=False).decode("utf-8"))
    except FileRefused as exc:
        raise Refused(exc.reason) from None
    except RecursionError:
        raise Refused(Reason("it is nested too deeply")) from None
    except UnicodeDecodeError:
        raise Refused(Reason("it is not UTF-8 text")) from None
    except ValueError as exc:
        raise Refused(Reason("it is not JSON ({problem})", problem=str(exc))) from None
    except OSError as exc:
        raise Refused(Reason("it could not be read: {problem}", problem=str(exc.strerror or exc))) from None


def _ours(data: Any, kind: str, newest: int) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise Refused(Reason("it is not a Spicy Companion league file"))
    version = data.get("format")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Refused(Reason("it is not a Spicy Companion league file"))
    if version > newest:
        raise Refused(Reason("it was written by a newer Spicy Companion (format {format}): update this table",
                             format=version))
    return data


def own_table(config: LeagueConfig) -> Table:
    """This table's id (made once and kept in the league folder, unless the config sets it) and name."""
    path = config.folder / "table.json"
    kept: dict[str, Any] = {}
    try:
        kept = _ours(read_json(path), TABLE_KIND, FORMAT)
        table_id = str(kept["id"])
    except (Refused, KeyError):
        if path.exists() or path.is_symlink():
            raise LeagueError("{path} is not this table's league file: move it aside, and the table makes a new "
                              "one", path=str(path)) from None
        table_id = uuid.uuid4().hex[:12]
        _write_json(config.folder, "table.json", {"kind": TABLE_KIND, "format": FORMAT, "id": table_id})
    table_id = config.table_id or table_id
    if not TABLE_ID.fullmatch(table_id):
        raise LeagueError("{path} names the table {id}, which is not a table id: move it aside", path=str(path),
                          id=table_id)
    name = kept.get("name")
    name = name if isinstance(name, str) and 0 < len(name) <= NAME_LENGTH and name.isprintable() else ""
    return Table(table_id, name or config.table_name or f"Table {table_id[:4]}")


class League:
    """This table's league folder: what it sends (its games and player changes) and what it takes in."""

    def __init__(self, config: LeagueConfig) -> None:
        self.root = config.folder
        self.table = own_table(config)
        self.own = self.folder_of(self.table.id)
        self.describe()

    def rename(self, name: str) -> None:
        """This table's name, as set on the League screen: kept in the league folder, so it outlives a restart
        and wins over ``[league] table_name``; the others learn it from its ``table.json``."""
        name = " ".join(name.split())
        if not name or len(name) > NAME_LENGTH or not name.isprintable():
            raise LeagueError("A table's name is one line of 1 to {count} characters", count=NAME_LENGTH)
        path = self.root / "table.json"
        try:
            kept = _ours(read_json(path), TABLE_KIND, FORMAT)
        except Refused:
            raise LeagueError("{path} is not this table's league file: move it aside, and the table makes a new "
                              "one", path=str(path)) from None
        _write_json(self.root, "table.json", {**kept, "name": name})
        self.table = Table(self.table.id, name)
        self.describe(name=name)

    def folder_of(self, table_id: str) -> Path:
        return self.root / "tables" / table_id

    def describe(self, **facts: Any) -> None:
        """This table's ``table.json`` in its own folder, how the others name it, with ``facts`` (its Syncthing
        device, the members it knows); rewritten only when it changes, since each rewrite is sent to all."""
        current = self.described()
        described = {**current, "kind": TABLE_KIND, "format": FORMAT, "id": self.table.id, "name": self.table.name,
                     **facts}
        if described != current:
            _write_json(self.own, "table.json", described)
        if not (self.own / ".stignore").exists():
            (self.own / ".stignore").write_text("*.partial\n", encoding="utf-8")  # Syncthing never sends half a file

    def described(self) -> dict[str, Any]:
        """What this table's ``table.json`` says now."""
        try:
            return _ours(read_json(self.own / "table.json"), TABLE_KIND, FORMAT)
        except Refused:
            return {}

    # --- sending --------------------------------------------------------------

    def publish(self, store: Store, game_id: int) -> Path:
        """The game's JSON export as ``games/<uid>.json``, written again if the game has moved on since."""
        uid = store.uid_of(game_id)
        return _write_json(self.own / "games", f"{uid}.json", json_text(store.load(game_id), uid))

    def publish_ended(self, store: Store) -> list[Path]:
        """Every game played here that ended (finished or abandoned) and is not in the folder yet: what a
        table that was switched off as a game ended catches up on. Games that came from elsewhere are their
        own table's to send."""
        games = self.own / "games"
        there = {path.stem for path in games.glob("*.json")} if games.is_dir() else set()
        rows = store.query("SELECT id, uid FROM games WHERE arrived_at IS NULL"
                           " AND (ended_at IS NOT NULL OR abandoned_at IS NOT NULL) ORDER BY id")
        return [self.publish(store, game_id) for game_id, uid in rows if uid not in there]

    def rename_player(self, store: Store, name: str, new_name: str) -> None:
        store.rename_player(name, new_name)
        self._player_record("rename", name, new_name)

    def merge_players(self, store: Store, name: str, into: str) -> None:
        store.merge_players(name, into)
        self._player_record("merge", name, into)

    def retire_player(self, store: Store, name: str, retired: bool = True) -> None:
        store.retire_player(name, retired)
        self._player_record("retire" if retired else "unretire", name, None)

    def _player_record(self, change: str, name: str, to: str | None) -> Path:
        at = now()
        stamp = re.sub(r"[^0-9]", "", at)
        return _write_json(self.own / "players", f"{stamp}-{uuid.uuid4().hex[:8]}.json",
                           {"kind": PLAYER_KIND, "format": FORMAT, "at": at, "change": change, "name": name, "to": to})

    # --- taking in ------------------------------------------------------------

    def others(self) -> list[Path]:
        tables = self.root / "tables"
        if not tables.is_dir():
            return []
        return sorted(path for path in tables.iterdir()
                      if path.name != self.table.id and TABLE_ID.fullmatch(path.name) and path.is_dir()
                      and not path.is_symlink())

    def import_tables(self, store: Store, batch: int = BATCH) -> Imported:
        """The other tables' games and player changes not taken in yet; each file refused is named once."""
        done = Imported()
        seen = Seen(self.root)
        waiting: list[tuple[str, tuple[int, int], Arrival]] = []
        for key, stat, path in self._files(seen, done, "games"):
            try:
                waiting.append((key, stat, _arrival(path)))
            except Refused as refused:
                done.notices.append(_refusal(path, refused.reason))
                seen.mark(key, stat)
            if len(waiting) >= batch:
                self._take_in(store, waiting, seen, done)
        self._take_in(store, waiting, seen, done)
        self._players(store, seen, done)
        seen.save()
        self.place_tables(store)
        return done

    def table_name(self, table_id: str) -> str:
        """How another table names itself in its ``table.json``; its id's start until that file arrives."""
        try:
            name = _ours(read_json(self.folder_of(table_id) / "table.json"), TABLE_KIND, FORMAT).get("name")
        except Refused:
            name = None
        return name if isinstance(name, str) and name.strip() else f"Table {table_id[:4]}"

    def place_tables(self, store: Store) -> None:
        """Every table's name kept in the store, and each game from another table marked as that table's:
        the games an older version took in had no table, and are found here by their files' names."""
        store.place_games("", self.table.name)
        unplaced = store.query("SELECT 1 FROM games WHERE arrived_at IS NOT NULL AND table_id IS NULL LIMIT 1")
        for folder in self.others():
            games = folder / "games"
            uids = [path.stem for path in games.glob("*.json")] if unplaced and games.is_dir() else []
            store.place_games(folder.name, self.table_name(folder.name), uids)

    def _files(self, seen: Seen, done: Imported, part: str) -> Iterator[tuple[str, tuple[int, int], Path]]:
        """Each file under ``part`` of each other table that changed since it was read, and notices for what
        does not belong there (Syncthing's own hidden files and half-sent ones are passed over)."""
        for folder in self.others():
            for path in sorted((folder / part).iterdir()) if (folder / part).is_dir() else ():
                if path.name.startswith(".") or path.name.endswith(".partial"):
                    continue
                key = f"{folder.name}/{part}/{path.name}"
                try:
                    info = path.lstat()
                except OSError:
                    continue  # gone meanwhile
                stat = (info.st_size, info.st_mtime_ns)
                if seen.has(key, stat):
                    continue
                if path.suffix != ".json":
                    done.notices.append(_refusal(path, Reason("it is not a league file (a name ending in .json)")))
                    seen.mark(key, stat)
                    continue
                yield key, stat, path

    def _take_in(self, store: Store, waiting: list[tuple[str, tuple[int, int], Arrival]], seen: Seen,
                 done: Imported) -> None:
        """One batch: planned and restored in one transaction, then marked seen, kept every ``SEEN_EVERY``
        batches (a kill before that only means those batches are read again, and found here)."""
        if not waiting:
            return
        plan = plan_arrivals(store, self.root, [arrival for _, _, arrival in waiting], len(waiting))
        restore(store, plan)
        tables: dict[str, list[str]] = {}
        for key, _, arrival in waiting:
            tables.setdefault(key.split("/", 1)[0], []).append(arrival.uid)
        for table_id, uids in tables.items():  # read again after a kill here: the next import places them
            store.place_games(table_id, self.table_name(table_id), uids)
        done.added += len(plan.games)
        done.extended += len(plan.extended)
        done.already += plan.already
        done.notices += plan.left_out
        for key, stat, _ in waiting:
            seen.mark(key, stat)
        seen.batches += 1
        if seen.batches % SEEN_EVERY == 0:
            seen.save()
        waiting.clear()

    def _players(self, store: Store, seen: Seen, done: Imported) -> None:
        """Every table's player records, oldest first, applied again each time: a rename that arrives
        before the games it renames still renames them once they are here. A record already applied
        finds nothing left to change."""
        records: list[tuple[str, str, str, str | None]] = []
        for key, stat, path in self._files(seen, done, "players"):
            try:
                records.append(_player(read_json(path)))
            except Refused as refused:
                done.notices.append(_refusal(path, refused.reason))
            seen.mark(key, stat)
        for _at, change, name, to in sorted(records + seen.records()):
            done.players += _apply(store, change, name, to)
        seen.keep_records(records)


def _refusal(path: Path, why: Reason) -> Reason:
    return Reason("{file} was not taken into the league: {why}; it is left as it is", file=str(path), why=why)


def _arrival(path: Path) -> Arrival:
    """A game file read and checked whole (set-up, every action) before the plan compares its log."""
    data = _ours(read_json(path), GAME_KIND, GAME_FORMAT)
    try:
        saved, uid = _saved(data)
    except (*UNREADABLE, KeyError, AttributeError) as exc:
        raise Refused(Reason("it is not a whole game: {problem}", problem=_problem(exc))) from None
    if not UID.fullmatch(uid) or path.stem != uid:
        raise Refused(Reason("its name is not the uid of the game it holds"))
    texts = tuple(to_json(entry.action.to_dict()) for entry in saved.log)
    return Arrival(uid, saved.started_at, texts, lambda: (saved, None),
                   lambda problem: _refusal(path, Reason("it is not a whole game: {problem}", problem=problem)))


def _text(value: Any, empty: bool = False) -> Any:
    if not (isinstance(value, str) or empty and value is None):
        raise TypeError("a text was expected")
    return value


def _saved(data: dict[str, Any]) -> tuple[SavedGame, str]:
    setup = setup_from_row(_text(data["profile"]), to_json(data["variants"]), to_json(data["options"]),
                           to_json(data["seats"]), data["end_card"], data["first"])
    log: list[Logged] = []
    buzz: dict[int, BuzzTime] = {}
    for entry in data["actions"]:
        entry = dict(entry)
        seq, at, times = entry.pop("seq"), _text(entry.pop("at")), entry.pop("buzz", None)
        if seq != len(log) + 1:
            raise ValueError("its actions are not numbered in order")
        log.append(Logged(seq, at, action_from_dict(entry)))
        if times is not None:
            buzz[seq] = BuzzTime(times["from_tap_ms"], times["margin_ms"])
    note = _text(data.get("note"), empty=True)
    saved = SavedGame(0, setup, tuple(log), _text(data["started_at"]), _text(data.get("ended_at"), empty=True),
                      note=note, abandoned_at=_text(data.get("abandoned_at"), empty=True), buzz_times=buzz)
    return saved, _text(data["uid"])


def _player(data: Any) -> tuple[str, str, str, str | None]:
    record = _ours(data, PLAYER_KIND, FORMAT)
    at, change, name, to = (record.get(key) for key in ("at", "change", "name", "to"))
    if not (isinstance(at, str) and change in CHANGES and isinstance(name, str)
            and (isinstance(to, str) if change in ("rename", "merge") else to is None)):
        raise Refused(Reason("it is not a player's record"))
    return at, str(change), name, to


def _apply(store: Store, change: str, name: str, to: str | None) -> int:
    """One record where it still changes something here: 1 if it did. ``name`` now ``to``: renamed, or merged
    into ``to`` when this table knows both; retired or back."""
    players = set(store.players())
    if name not in players:
        return 0
    try:
        if to is None:
            retired = store.query("SELECT retired_at IS NOT NULL FROM players WHERE name = ?", [name])[0][0]
            if bool(retired) == (change == "retire"):
                return 0
            store.retire_player(name, change == "retire")
        elif to in players:
            store.merge_players(name, to)
        else:
            store.rename_player(name, to)
    except StoreError:
        return 0  # e.g. a merge of two players who sat at one game here: both are kept
    return 1


class Seen:
    """The other tables' files read already, by size and time: read once, and named once when refused.

    Kept in ``seen.json`` beside the tables, written whole or not at all; lost, it costs one import that
    finds every game here already.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        try:
            data = read_json(root / "seen.json")
        except Refused:
            data = {}
        files = data.get("files") if isinstance(data, dict) else None
        records = data.get("records") if isinstance(data, dict) else None
        self.files: dict[str, list[int]] = files if isinstance(files, dict) else {}
        self._records: list[list[Any]] = records if isinstance(records, list) else []
        self.batches = 0

    def has(self, key: str, stat: tuple[int, int]) -> bool:
        return self.files.get(key) == list(stat)

    def mark(self, key: str, stat: tuple[int, int]) -> None:
        self.files[key] = list(stat)

    def records(self) -> list[tuple[str, str, str, str | None]]:
        return [(str(at), str(change), str(name), to) for at, change, name, to in
                (record for record in self._records if isinstance(record, list) and len(record) == 4)]

    def keep_records(self, records: list[tuple[str, str, str, str | None]]) -> None:
        self._records += [list(record) for record in records]

    def save(self) -> None:
        _write_json(self.root, "seen.json", {"files": self.files, "records": self._records})
