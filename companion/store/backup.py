"""Games leave the table: a backup of the database, every game exported, and a restore that merges.

A backup is SQLite's online backup, so a game being played meanwhile is copied
as it stood after its last saved action. Everything is written under a
``.partial`` name and renamed only once it is complete and synced, so a stick
pulled out, full or read-only leaves no file that looks whole; the message says
which of those it was. A restore reads a copy of the backup taken off the stick
first (in the temporary folder, or beside the database when that has too little
room), works out what it would add (games whose ``uid`` this database does not
have; players are matched by name), and then adds all of it in one transaction:
a restore that fails changes nothing here. A backup cut short, damaged or
another program's is refused under its name on the stick, never the copy's.

A game's identity is its uid and its log. A game this database has, brought
with a longer log that begins with the one here (another table played on), is
extended; one whose log parts from the one here is kept beside it, under the
uid and a ``~`` and a hash of its log, so restoring either again finds it by its
log and never doubles it. A restored game that is unfinished is not reopened by
start-up (``arrived_at``): the table resumes it from its page.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from companion.errors import CompanionError, Reason
from companion.rules import IllegalAction
from companion.files import BACKUP, MB, FileRefused, file_size
from companion.store.db import (
    APPLICATION_ID,
    SQLITE_HEADER,
    Extension,
    Recorded,
    Store,
    StoreError,
    application_id,
    now,
)
from companion.table.seating import Seating
from companion.store.export import FORMATS, export_text
from companion.store.records import SavedGame
from companion.store.schema import derived_uid

BACKUP_PREFIX = "spicy-companion-backup-"
EXPORT_PREFIX = "spicy-companion-games-"
SQLITE_SIDECARS = ("-journal", "-wal", "-shm")
"""The files SQLite keeps beside a database it writes (here the backup being written)."""
STEP_PAGES = 256
"""Pages copied between two looks at the live database: a game saving meanwhile waits for one step only."""

Progress = Callable[[int, int], None]
"""Told how far a backup or an export has got: done and total (pages, games), for a screen's bar."""
UNREADABLE = (StoreError, IllegalAction, RecursionError, TypeError, ValueError)
"""What reading one game edited by hand can raise (nested too deep, a value of the wrong type): that game is
left out, named, and the others go on."""
BESIDE = "~"
"""Between a game's uid and the hash of a log that parts from it: the uid of the game kept beside it."""


class TakeHomeError(CompanionError):
    """A backup, an export or a restore could not be done; the message says why and that nothing here changed."""


def stamp(at: datetime | None = None) -> str:
    """The local date and time in a file name: sorts in order, and reads as a date on any stick."""
    return (at or datetime.now()).strftime("%Y-%m-%d-%H%M%S")


# --- writing to a stick or a folder ---------------------------------------------


def _writable_folder(folder: Path) -> Path:
    if not folder.is_dir():
        raise TakeHomeError("{folder} is not there: plug the stick in again, or choose another folder",
                            folder=str(folder))
    if not os.access(folder, os.W_OK):
        raise TakeHomeError("{folder} is read-only: nothing was written; use another stick or folder",
                            folder=str(folder))
    return folder


def _write_failed(exc: BaseException, folder: Path, target: Path) -> TakeHomeError:
    """The one message for a write that stopped: the stick went away, is full, is read-only, or else."""
    number = getattr(exc, "errno", None)
    text = str(exc)
    if not folder.is_dir() or number in (errno.EIO, errno.ENODEV, errno.ENXIO):  # a folder still there is not gone
        return TakeHomeError(
            "{folder} went away while {file} was being written: the stick was pulled out or failed; "
            "nothing on this Pi changed; plug it in again and start over", folder=str(folder), file=target.name)
    if number in (errno.ENOSPC, errno.EDQUOT) or "full" in text:
        return TakeHomeError("{folder} is full: {file} did not fit; nothing on this Pi changed; "
                             "make room on it or use another stick", folder=str(folder), file=target.name)
    if number in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text or "read-only" in text:
        return TakeHomeError("{folder} is read-only: nothing was written; use another stick or folder",
                             folder=str(folder))
    return TakeHomeError("{file} could not be written in {folder}: {problem}; nothing on this Pi changed; "
                         "choose a folder on a stick or a disk", file=target.name, folder=str(folder),
                         problem=getattr(exc, "strerror", None) or text)


def _remove(*paths: Path) -> None:
    """Partial files or folders go; a link of such a name goes itself, never what it points to.

    On a stick already gone there is nothing to remove.
    """
    for path in paths:
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)  # which never follows a link inside either
            else:
                path.unlink(missing_ok=True)
        except OSError:
            pass


def _create(path: Path) -> int:
    """A new file, never a link's target: a crafted stick may hold a link under the very name written."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)


def _sync(path: Path, flags: int) -> None:
    descriptor = os.open(path, flags | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@contextmanager
def written(folder: Path, name: str) -> Iterator[Path]:
    """Yields the ``.partial`` path to write; renamed to ``name`` only when the block ends without error.

    Whatever a stick already holds under those names (SQLite's journals
    included, which it would open through a link) goes first, and the block
    creates what it writes with ``mkdir`` or ``_create``, which fail rather
    than follow a link: nothing is written outside the stick's folder.
    """
    folder = _writable_folder(folder)
    target = folder / name
    partial = folder / (name + ".partial")
    leftovers = [partial, *(partial.with_name(partial.name + suffix) for suffix in SQLITE_SIDECARS)]
    _remove(*leftovers)
    try:
        yield partial
        partial.rename(target)
        _sync(folder, os.O_RDONLY | os.O_DIRECTORY)
    except (OSError, sqlite3.Error) as exc:
        _remove(*leftovers)
        raise _write_failed(exc, folder, target) from None
    except BaseException:
        _remove(*leftovers)
        raise


def backup(store: Store, folder: Path, at: datetime | None = None, name: str | None = None,
           progress: Progress | None = None) -> Path:
    """A copy of every game in ``folder`` (as ``name``, else a dated name), taken while the app may be
    saving: SQLite's online backup."""
    name = name or f"{BACKUP_PREFIX}{stamp(at)}.db"
    with written(Path(folder), name) as partial:
        os.close(_create(partial))
        copy = sqlite3.connect(partial)
        try:
            step = None if progress is None else lambda _status, left, total: progress(total - left, total)
            store.db.conn.backup(copy, pages=STEP_PAGES, progress=step)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
            problems = [text for (text,) in copy.execute("PRAGMA quick_check") if text != "ok"]
            if problems:
                raise sqlite3.DatabaseError(f"the copy does not read back ({problems[0]})")
        finally:
            copy.close()
        _sync(partial, os.O_RDWR | os.O_NOFOLLOW)
    return Path(folder) / name


@dataclass
class Exported:
    folder: Path
    games: int
    left_out: list[Reason] = field(default_factory=list)
    """Games that could not be read (a row edited by hand): named, and the others exported."""


def export_all(store: Store, folder: Path, formats: tuple[str, ...] = tuple(FORMATS),
               game_ids: list[int] | None = None, at: datetime | None = None,
               progress: Progress | None = None) -> Exported:
    """Every game (or those of ``game_ids``) in one dated folder: a sub-folder a format, a file a game."""
    name = f"{EXPORT_PREFIX}{stamp(at)}"
    ids = game_ids if game_ids is not None else [row[0] for row in store.query("SELECT id FROM games ORDER BY id")]
    uids = {game_id: uid for uid, game_id in store.uids().items()}
    left_out: list[Reason] = []
    count = 0
    with written(Path(folder), name) as partial:
        partial.mkdir()
        for format in formats:
            (partial / format).mkdir()
        for done, game_id in enumerate(ids):
            if progress is not None:
                progress(done, len(ids))
            try:
                saved = store.load(game_id)
                texts = {format: export_text(saved, uids[game_id], format) for format in formats}
            except UNREADABLE as exc:
                left_out.append(Reason("game #{game} was left out: {problem}", game=game_id, problem=_problem(exc)))
                continue
            for format, text in texts.items():
                path = partial / format / f"game-{game_id:05d}.{FORMATS[format]}"
                with open(_create(path), "w", encoding="utf-8", newline="") as file:
                    file.write(text)
            count += 1
        os.sync()  # one flush for thousands of small files, rather than one a file
    return Exported(Path(folder) / name, count, left_out)


# --- restoring -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Incoming:
    """A game in the backup that this database does not have, or has less of."""

    uid: str
    started_at: str
    names: tuple[str, ...]
    finished: bool
    abandoned: bool
    recorded: Recorded
    extends: int | None = None
    """The game here whose whole log this one's begins with: the actions after it are added to that game."""
    moves_here: int = 0
    """With ``extends``: how many of its actions that game has."""
    beside: int | None = None
    """The game here of the same identity whose log parts from this one's: this one is kept beside it."""
    parts_at: int = 0
    """With ``beside``: the first action where the two logs differ."""


@dataclass
class RestorePlan:
    """What a restore would add, worked out before anything is written; shown to the person first."""

    source: Path
    games: list[Incoming]
    """The games to add: new here, or kept beside one whose log parts from theirs."""
    already: int
    """Games of the backup this database has already, as far as their logs go (restored before, or never left)."""
    new_players: list[str]
    left_out: list[Reason] = field(default_factory=list)
    extended: list[Incoming] = field(default_factory=list)
    """Games this database has with a shorter log: theirs goes on where it stops here."""


def backups_in(folder: Path) -> list[Path]:
    """The backups found in a folder, newest first (by name, which holds the date)."""
    try:
        found = [p for p in Path(folder).glob(f"{BACKUP_PREFIX}*.db") if p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name, reverse=True)


def _not_a_backup(path: Path, why: str) -> TakeHomeError:
    return TakeHomeError("{path} is not a Spicy Companion backup ({why}); nothing was changed", path=str(path),
                         why=why)


def plan_restore(store: Store, path: Path, progress: Progress | None = None) -> RestorePlan:
    """Read the backup (a copy of it, taken off the stick first) and say what it would add here."""
    path = Path(path)
    size = _backup_size(path)
    with tempfile.TemporaryDirectory(prefix="spicy-restore-", dir=_room_for_copy(path, size, store.path)) as scratch:
        copy = Path(scratch) / "backup.db"
        try:
            shutil.copyfile(path, copy)
        except OSError as exc:
            raise _unreadable(path, exc) from None
        try:
            with Store.open(copy, move_damaged=False) as source:
                return _plan(store, source, path, progress)
        except StoreError as exc:
            raise _wrong_with(path, copy, exc) from None


def _unreadable(path: Path, exc: OSError) -> TakeHomeError:
    return TakeHomeError("{path} could not be read: {problem}; nothing was changed", path=str(path),
                         problem=str(exc.strerror or exc))


def _backup_size(path: Path) -> int:
    """The size of a file that looks like a backup from its header: refused before anything is copied."""
    try:
        size = file_size(path, BACKUP)
        with path.open("rb") as file:
            header = file.read(100)
    except FileNotFoundError:
        raise TakeHomeError("there is no backup file {path}", path=str(path)) from None
    except FileRefused as exc:
        raise TakeHomeError(exc.reason) from None
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise _not_a_backup(path, Reason("it is not an SQLite file"))
    if application_id(header) not in (0, APPLICATION_ID):
        raise _not_a_backup(path, Reason("it is another program's SQLite database"))
    page = int.from_bytes(header[16:18], "big")
    pages = int.from_bytes(header[28:32], "big")
    whole = (page if page != 1 else 65536) * pages
    if header[24:28] == header[92:96] and size < whole:  # the page count holds only when these two counters agree
        raise TakeHomeError("{path} is cut short: it holds {size} of its {whole} bytes (a copy that did not finish); "
                            "nothing was changed; take the backup again", path=str(path), size=size, whole=whole)
    return size


def _room_for_copy(path: Path, size: int, database: Path) -> Path:
    """The first of the temporary folder and the database's own with room for the copy and its upgrade.

    The temporary folder may be memory (64 MB on some systems): a large backup goes beside the database.
    """
    need = size + size // 2 + MB
    places = [Path(tempfile.gettempdir()), database.parent]
    free = [_free(place) for place in places]
    for place, room in zip(places, free, strict=True):
        if room >= need:
            return place
    raise TakeHomeError(
        "{path} ({size} MB) needs {need} MB free to be read, but {first} has {free_first} MB and {second} "
        "{free_second} MB: make room, then restore again; nothing was changed",
        path=str(path), size=-(-size // MB), need=-(-need // MB), first=str(places[0]), free_first=free[0] // MB,
        second=str(places[1]), free_second=free[1] // MB)


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def _wrong_with(path: Path, copy: Path, exc: StoreError) -> TakeHomeError:
    """The store's refusal of the copy, said of the file on the stick: what is wrong with it, not how to rescue
    the copy (the advice for a damaged database is for the Pi's own)."""
    params = exc.reason.params
    if "damage" in params:
        return TakeHomeError("{path} is damaged ({damage}) and cannot be restored; nothing was changed; take the "
                             "backup again, or restore an older one", path=str(path), damage=params["damage"])
    if "tables" in params:
        return _not_a_backup(path, Reason("it is another program's SQLite database, with the tables {tables}",
                                          tables=params["tables"]))
    return TakeHomeError(exc.reason.template, **{key: str(path) if value == str(copy) else value
                                                 for key, value in params.items()})


Logs = dict[str, tuple[int | None, tuple[str, ...]]]
"""The games of one identity, by uid: the game's number here (None: the plan adds it) and its log's rows."""


class _Logs:
    """The action rows of every game of one identity here (and of those the plan adds), by uid: what an
    incoming game's log is compared with. Read once an identity, when a game of the backup has it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.here: dict[str, list[tuple[str, int]]] = {}
        for uid, game_id in store.uids().items():
            self.here.setdefault(_family(uid), []).append((uid, game_id))
        self.known: dict[str, Logs] = {}

    def of(self, family: str) -> Logs:
        if family not in self.known:
            self.known[family] = {uid: (game_id, _texts(self.store, game_id))
                                  for uid, game_id in self.here.get(family, [])}
        return self.known[family]


def _texts(store: Store, game_id: int) -> tuple[str, ...]:
    """A game's log as its rows say it (JSON): two logs are the same game's where their rows are equal."""
    return tuple(text for (text,) in store.query("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                                 [game_id]))


def _family(uid: str) -> str:
    return uid.split(BESIDE, 1)[0]


def _common(one: tuple[str, ...], two: tuple[str, ...]) -> int:
    """How many actions two logs share from their start."""
    n = 0
    for mine, theirs in zip(one, two, strict=False):
        if mine != theirs:
            break
        n += 1
    return n


def _uids(source: Store) -> list[tuple[int, str, str]]:
    """Each game of the backup with its uid, the order the plan reads them in (by start). A game with no uid
    (a file edited by hand) gets the one migration m009 works out from its start and set-up, so restoring it
    again finds it here."""
    rows = source.query(
        "SELECT id, uid, started_at, profile, variants, options, seats, end_card, first FROM games ORDER BY id")
    taken = {uid for _, uid, *_ in rows if uid is not None}
    found = []
    for game_id, uid, *facts in rows:
        if uid is None:
            base, n = derived_uid(facts), 1
            uid = base
            while uid in taken:
                n += 1
                uid = f"{base}-{n}"
            taken.add(uid)
        found.append((game_id, str(uid), str(facts[0])))
    return sorted(found, key=lambda row: (row[2], row[0]))


@dataclass(frozen=True, slots=True)
class Arrival:
    """One game as it comes from elsewhere (a backup's row, a league file): its identity and log first, read
    whole only when the plan finds it is not here yet."""

    uid: str
    started_at: str
    texts: tuple[str, ...]
    """Its log's rows as the store writes them (JSON), compared with the logs here."""
    read: Callable[[], tuple[SavedGame, Seating | None]]
    """The whole game; may raise what ``UNREADABLE`` lists."""
    left_out: Callable[[str], Reason]
    """The sentence for it when it cannot be read, given the problem."""


def _plan(store: Store, source: Store, path: Path, progress: Progress | None) -> RestorePlan:
    rows = _uids(source)

    def arrival(game_id: int, uid: str, started_at: str) -> Arrival:
        return Arrival(uid, started_at, _texts(source, game_id),
                       lambda: (source.load(game_id), source.seating(game_id)),
                       lambda problem: Reason("game #{game} of the backup was left out, unreadable: {problem}",
                                              game=game_id, problem=problem))

    return plan_arrivals(store, path, (arrival(*row) for row in rows), len(rows), progress)


def plan_arrivals(store: Store, source: Path, arrivals: Iterable[Arrival], total: int,
                  progress: Progress | None = None) -> RestorePlan:
    """What a restore of these games would do here: the one plan for a backup and for another table's files
    (the uid and the log decide: a game here is never doubled, a longer log extends it)."""
    known_players = set(store.players())
    plan = RestorePlan(source, [], 0, [])
    logs = _Logs(store)
    arrived = now()
    for done, come in enumerate(arrivals):
        if progress is not None:
            progress(done, total)
        family = logs.of(_family(come.uid))
        if any(_common(come.texts, log) == len(come.texts) for _, log in family.values()):
            plan.already += 1  # this log, or a longer one, is here
            continue
        try:
            saved, seating = come.read()
            game = saved.game()
        except UNREADABLE as exc:
            plan.left_out.append(come.left_out(_problem(exc)))
            continue
        recorded = Recorded(game, come.started_at, [entry.at for entry in saved.log], come.uid, seating,
                            saved.note, saved.abandoned_at, saved.buzz_times, arrived)
        incoming = Incoming(come.uid, come.started_at, saved.setup.names, game.state.ended,
                            saved.abandoned_at is not None, recorded)
        _place(plan, family, incoming, come.texts)
    plan.new_players = sorted({name for g in plan.games for name in g.names} - known_players)
    return plan


def _place(plan: RestorePlan, family: Logs, incoming: Incoming, texts: tuple[str, ...]) -> None:
    """Extending the game here whose whole log this one's begins with; else added, beside the game of the same
    identity it parts from, if there is one."""
    shorter = [(len(log), uid, game_id) for uid, (game_id, log) in family.items()
               if game_id is not None and _common(texts, log) == len(log)]
    if shorter:
        upto, uid, game_id = max(shorter)
        plan.extended.append(replace(incoming, extends=game_id, moves_here=upto))
        family[uid] = (game_id, texts)
        return
    if family:
        incoming = _beside(incoming, family, texts)
    plan.games.append(incoming)
    family[incoming.uid] = (None, texts)


def _beside(incoming: Incoming, family: Logs, texts: tuple[str, ...]) -> Incoming:
    """Under a uid of its own, the identity's, ``~`` and a hash of its log; named beside the game here it
    shares most of its log with."""
    shared, game_id = max((_common(texts, log), game_id or 0) for game_id, log in family.values())
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    uid = f"{_family(incoming.uid)}{BESIDE}{digest}"
    return replace(incoming, uid=uid, recorded=replace(incoming.recorded, uid=uid), beside=game_id or None,
                   parts_at=shared + 1)


def _problem(exc: BaseException) -> str:
    """The sentence of an error met reading one game: the store's own, else what Python said."""
    if isinstance(exc, (StoreError, IllegalAction)):
        return exc.reason
    if isinstance(exc, RecursionError):
        return Reason("its data is nested too deep to read")
    if isinstance(exc, TypeError):
        return Reason("a value in its log is of the wrong kind (text where a number belongs, or the like)")
    return str(exc)


def restore(store: Store, plan: RestorePlan) -> list[int]:
    """Add the planned games and extend the planned ones in one transaction; any that arrived here meanwhile
    are not added twice, and a game whose log here changed meanwhile is not extended."""
    here = store.uids()
    return store.save([g.recorded for g in plan.games if g.uid not in here],
                      [Extension(g.extends, g.moves_here, g.recorded) for g in plan.extended if g.extends is not None])
