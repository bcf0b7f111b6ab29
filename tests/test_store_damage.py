"""Damaged, foreign, newer, read-only and misnamed database files: a clear answer, and nothing lost or replaced."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_helpers import COMMAND, run
from sqlite_utils import Database
from store_helpers import KNOWN, damaged_database

from companion.cli import main
from companion.random_play import long_game
from companion.rules import SPICY, Play, new_setup
from companion.table.session import Session
from companion.store import Recorded, Store, StoreError
from companion.store.ratings import ratings, rebuilt
from companion.store.schema import MIGRATIONS
from companion.store.simulate import simulate

MIGRATION_NAMES = [m.name for m in MIGRATIONS.pending(Database(memory=True))]


def saved_game(path: Path) -> None:
    with Store.open(path) as store:
        Session.new(store, new_setup(SPICY, ["Ana", "Ben"])).apply(Play(0, "chili", 1))


def configured(tmp_path: Path, db: Path) -> Path:
    """A config file naming ``db``: the configured path, where a damaged file of ours may be moved aside."""
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndb = "{db}"\n')
    return config


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- someone else's file --------------------------------------------------------------------------


def test_a_text_file_given_as_db_is_refused_and_left_alone(capsys, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: chili, wasabi\n")
    before = files(tmp_path)
    for argv in (["games"], ["simulate", "--games", "1"]):
        code, out, err = run(capsys, *argv, "--db", str(notes))
        assert (code, out) == (2, "")
        assert err == f"spicy-companion: {notes} is not a Spicy Companion database (it is not an SQLite file at all):" \
                      " check the path; nothing was changed\n"
    code, _, err = run(capsys, "--config", str(configured(tmp_path, notes)), "games")
    assert code == 2 and "nothing was changed" in err
    assert files(tmp_path) == before | {"config.toml": files(tmp_path)["config.toml"]}


def test_another_programs_sqlite_database_is_refused_and_left_alone(capsys, tmp_path: Path) -> None:
    other = tmp_path / "music.db"
    with Database(other) as db:
        db["tracks"].insert({"title": "Chili Con Carne"})
    before = other.read_bytes()
    code, _, err = run(capsys, "--config", str(configured(tmp_path, other)), "games", "import", "-")
    assert code == 2 and "is another program's SQLite database (tables: tracks)" in err
    assert other.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "music.db"]


# --- damage ---------------------------------------------------------------------------------------


def test_a_damaged_file_given_with_db_is_refused_not_moved(capsys, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged = damaged_database(db)
    code, _, err = run(capsys, "games", "--db", str(db))
    assert code == 2 and f"{db} is damaged (" in err and "games check" in err
    assert files(tmp_path) == {"games.db": damaged}


def damaged_inside(db: Path) -> None:
    """A sound file whose actions table then loses its root page: found only when a command reads the log."""
    with Store.open(db) as store:
        store.save([Recorded(long_game(300), "2025-01-01T20:00:00.000+00:00", ["2025-01-01T20:01:00.000+00:00"] * 300)])
    (root,) = Database(db).execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'").fetchone()
    data = bytearray(db.read_bytes())
    data[root * 4096 - 4096 + 8: root * 4096] = b"\xff" * (4096 - 8)
    db.write_bytes(bytes(data))


def test_damage_inside_the_file_is_reported_and_stops_writing(capsys, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged_inside(db)
    with Store.open(db) as store:
        assert store.read_only is None
        with pytest.raises(StoreError, match="is damaged"):
            store.load(1)
        with pytest.raises(StoreError, match="nothing can be saved in .*: it is damaged"):
            store.add_player("Cy")
        assert store.players() == ["Ana", "Ben", "Cy", "Dee"]


def test_damage_found_once_stops_writing_in_later_runs_until_moved_aside(capsys, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged_inside(db)
    code, out, err = run(capsys, "games", "--db", str(db))  # the games table is sound
    assert code == 0 and "Ana, Ben, Cy, Dee  (unfinished)" in out
    code, _, err = run(capsys, "games", "show", "1", "--db", str(db))
    assert code == 2 and "is damaged (database disk image is malformed)" in err and "games check" in err
    code, _, err = run(capsys, "games", "check", "--db", str(db))
    assert code == 2 and "failed the integrity check" in err and "games check" in err
    code, _, err = run(capsys, "simulate", "--games", "1", "--db", str(db))
    assert code == 2 and err.startswith(f"spicy-companion: nothing can be saved in {db}: it was found damaged (")
    with Store.open(db, move_damaged=False) as store:
        assert store.read_only and "found damaged" in store.read_only
        assert store.query("SELECT count(*) FROM games") == [(1,)]

    code, out, err = run(capsys, "--config", str(configured(tmp_path, db)), "games")
    assert code == 0 and out == "no saved games\n" and "it was moved to games.db.corrupt-" in err
    assert not (tmp_path / "games.db.damaged").exists() and len(list(tmp_path.glob("games.db.corrupt-*.damaged"))) == 1
    code, _, err = run(capsys, "simulate", "--games", "1", "--db", str(db))
    assert (code, err) == (0, "")
def test_check_says_a_sound_file_is_sound(capsys, tmp_path: Path) -> None:
    saved_game(tmp_path / "games.db")
    code, out, err = run(capsys, "games", "check", "--db", str(tmp_path / "games.db"))
    assert (code, out, err) == (0, f"{tmp_path / 'games.db'}: no damage found\n", "")


@pytest.mark.parametrize("damage", ["dropped", "emptied", "out of order"])
def test_a_broken_migrations_table_is_damage(capsys, tmp_path: Path, damage: str) -> None:
    db = tmp_path / "games.db"
    saved_game(db)
    with Database(db) as raw:
        if damage == "dropped":
            raw["_sqlite_migrations"].drop()
        elif damage == "emptied":
            raw.execute("DELETE FROM _sqlite_migrations")
        else:
            raw.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [MIGRATION_NAMES[0]])
        raw.conn.commit()
    code, out, err = run(capsys, "--config", str(configured(tmp_path, db)), "games")
    assert code == 0 and out == "no saved games\n"
    assert "was damaged and could not be read: it was moved to games.db.corrupt-" in err
    (moved,) = tmp_path.glob("games.db.corrupt-*[0-9]")
    assert Database(moved)["games"].count == 1


def test_a_damaged_file_in_a_read_only_folder_is_reported_not_a_traceback(tmp_path: Path) -> None:
    with read_only_folder(tmp_path) as folder:
        db = folder / "games.db"
        folder.chmod(0o755)
        damaged = damaged_database(db)
        folder.chmod(0o555)
        config = tmp_path / "config.toml"
        config.write_text(f'[store]\ndb = "{db}"\n')
        done = as_unprivileged("--config", str(config), "games")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{db} is damaged" in done.stderr and "cannot be moved aside (Permission denied)" in done.stderr
        assert files(folder) == {"games.db": damaged}


def test_disk_full_after_moving_aside_shows_the_notice_and_leaves_no_empty_database(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged = damaged_database(db)

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (32768, 32768))  # room for the shared-memory file only

    done = subprocess.run([COMMAND, "--config", str(configured(tmp_path, db)), "games"], preexec_fn=no_room,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert "was damaged and could not be read: it was moved to games.db.corrupt-" in done.stderr
    assert "but no fresh database could be started" in done.stderr
    assert not db.exists() and not list(tmp_path.glob("games.db-*"))
    (moved,) = tmp_path.glob("games.db.corrupt-*")
    assert moved.read_bytes() == damaged


def test_an_upgrade_that_meets_a_row_edited_by_hand_says_so_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with Database(db) as raw:
        MIGRATIONS.apply(raw, stop_before="m002_challenge_stats")
        raw["games"].insert({"profile": "spicy", "variants": "[]", "options": "{}", "seats": "Ana and Ben",
                             "end_card": 27, "first": 0, "started_at": "2025", "ended_at": "2025"})
    with pytest.raises(StoreError, match=r"old.db cannot be upgraded: a row cannot be read \(column seats is not JSON"):
        Store.open(db)
    with Database(db) as raw:
        assert [row["name"] for row in raw["_sqlite_migrations"].rows] == ["m001_tables"]
        assert "challenges_made" not in raw["scores"].columns_dict and raw["games"].count == 1


# --- a newer version's file ---------------------------------------------------------------------


def newer(db: Path, how: str) -> None:
    with Database(db) as raw:
        if how == "user_version":
            raw.execute(f"PRAGMA user_version = {len(MIGRATION_NAMES) + 1}")
        else:
            raw["_sqlite_migrations"].insert(
                {"migration_set": "spicy-companion", "name": "m099_future", "applied_at": "2031-01-01"})
            raw["app"].upsert({"key": "schema_by", "value": "2.4.0"}, pk="key")
        raw.conn.commit()


@pytest.mark.parametrize("how", ["user_version", "unknown migration"])
def test_a_newer_versions_file_is_read_but_never_written(capsys, tmp_path: Path, how: str) -> None:
    db = tmp_path / "games.db"
    game_txt = tmp_path / "game.txt"
    game_txt.write_text(KNOWN)
    run(capsys, "games", "import", str(game_txt), "--db", str(db))
    newer(db, how)
    before = db.read_bytes()
    code, out, _ = run(capsys, "games", "--db", str(db))
    assert code == 0 and out.startswith("#1 ")
    assert run(capsys, "stats", "--db", str(db))[0] == 0
    code, out, _ = run(capsys, "games", "export", "1", "--db", str(db))
    assert code == 0 and out.endswith("undo\nend-card-drawn\n")
    code, out, err = run(capsys, "games", "import", str(game_txt), "--db", str(db))
    made_by = "Spicy Companion 2.4.0" if how != "user_version" else "a newer Spicy Companion"
    assert (code, out) == (2, "")
    assert f"nothing can be saved in {db}: it was made by {made_by}, newer than this version (0.1.0)" in err
    assert "update the app" in err
    with Store.open(db) as store:
        with pytest.raises(StoreError, match="newer than this version"):
            Session.new(store, new_setup(SPICY, ["Cy", "Dee"]))
    assert db.read_bytes() == before


# --- a read-only folder -------------------------------------------------------------------------


@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[Path]:
    with read_only_folder(tmp_path) as folder:
        folder.chmod(0o755)
        db = folder / "games.db"
        game_txt = folder / "game.txt"
        game_txt.write_text(KNOWN)
        assert main(["games", "import", str(game_txt), "--db", str(db)]) == 0
        folder.chmod(0o555)
        yield db


def test_reading_commands_work_in_a_read_only_folder(read_only_db: Path) -> None:
    before = files(read_only_db.parent)
    for argv, expected in ((["games"], "winner: Cy"), (["stats"], "Cy"), (["games", "show", "1"], "(winner)"),
                           (["games", "export", "1"], "end-card-drawn"), (["games", "check"], "no damage found")):
        done = as_unprivileged(*argv, "--db", str(read_only_db))
        assert (done.returncode, done.stderr) == (0, "") and expected in done.stdout, argv
    assert files(read_only_db.parent) == before


def test_writing_commands_in_a_read_only_folder_say_why_they_cannot(read_only_db: Path) -> None:
    before = files(read_only_db.parent)
    for argv in (["games", "import", str(read_only_db.with_name("game.txt"))], ["simulate", "--games", "1"]):
        done = as_unprivileged(*argv, "--db", str(read_only_db))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr == (f"spicy-companion: nothing can be saved in {read_only_db}: the folder"
                               f" {read_only_db.parent} is read-only; choose a database in a folder you can write"
                               " (--db)\n")
    done = as_unprivileged("simulate", "--games", "1", "--db", str(read_only_db.with_name("new.db")))
    assert done.returncode == 2 and f"cannot create {read_only_db.with_name('new.db')}: the folder" in done.stderr
    assert files(read_only_db.parent) == before


RATINGS_READ_ONLY = """
import sys
from pathlib import Path
from companion.store import Store
from companion.store.ratings import ratings, rebuilt

with Store.open(Path(sys.argv[1])) as store:
    found = ratings(store)
    assert store.cannot_save and found and found == rebuilt(store)
    print(len(found))
"""


def test_the_players_ratings_are_worked_out_in_a_read_only_folder_and_not_kept(tmp_path: Path) -> None:
    """Kept for the games up to a point, then more games: the ratings fold those in, and cannot keep them."""
    with read_only_folder(tmp_path) as folder:
        folder.chmod(0o755)
        with Store.open(folder / "games.db") as store:
            simulate(store, 10, seed=1, start=datetime(2024, 1, 1, tzinfo=UTC))
            ratings(store)
            simulate(store, 3, seed=2, start=datetime(2025, 1, 1, tzinfo=UTC))
            expected = len(rebuilt(store))
        folder.chmod(0o555)
        before = files(folder)
        done = as_unprivileged("-c", RATINGS_READ_ONLY, str(folder / "games.db"), command=sys.executable)
        assert (done.returncode, done.stderr, done.stdout) == (0, "", f"{expected}\n")
        assert files(folder) == before


@contextmanager
def read_only_folder(parent: Path) -> Iterator[Path]:
    folder = parent / "read-only"
    folder.mkdir(mode=0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def as_unprivileged(*argv: str, command: str = COMMAND) -> subprocess.CompletedProcess[str]:
    """Run the command so that file permissions hold: root drops the capabilities that override them."""

    def drop() -> None:
        if os.geteuid() == 0:
            libc = ctypes.CDLL(None, use_errno=True)
            for capability in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
                libc.prctl(24, capability, 0, 0, 0)  # PR_CAPBSET_DROP: gone after exec

    return subprocess.run([command, *argv], preexec_fn=drop, capture_output=True, text=True, timeout=60)


# --- paths ----------------------------------------------------------------------------------------


def test_an_empty_db_path_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["games", "--db", ""])
    assert done.value.code == 2
    assert capsys.readouterr().err == (
        "spicy-companion games: argument --db: give the database file, such as --db games.db"
        " (see spicy-companion games --help)\n"
    )


def test_a_folder_given_as_the_db_is_refused(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "games", "--db", str(tmp_path))
    assert code == 2 and err == f"spicy-companion: {tmp_path} is a folder: give a file in it, such as" \
                                f" {tmp_path / 'games.db'}\n"


def test_a_parent_that_is_a_file_is_named(capsys, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    code, _, err = run(capsys, "games", "--db", str(tmp_path / "notes.txt" / "saves" / "games.db"))
    assert code == 2 and err == (f"spicy-companion: cannot keep the database at {tmp_path}/notes.txt/saves/games.db:"
                                 f" {tmp_path}/notes.txt is a file, not a folder\n")


def test_missing_parent_folders_are_made(capsys, tmp_path: Path) -> None:
    db = tmp_path / "a" / "b" / "games.db"
    assert run(capsys, "simulate", "--games", "1", "--db", str(db))[0] == 0
    assert db.is_file()


def test_a_folder_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    with read_only_folder(tmp_path) as folder:
        done = as_unprivileged("games", "--db", str(folder / "saves" / "games.db"))
        assert done.returncode == 2
        assert done.stderr == f"spicy-companion: cannot make the folder {folder}/saves for the database:" \
                              " Permission denied\n"


def test_a_new_database_is_marked_as_ours(tmp_path: Path) -> None:
    saved_game(tmp_path / "games.db")
    header = (tmp_path / "games.db").read_bytes()[:100]
    assert header[68:72] == b"SPCY"  # the application id
    assert sqlite3.connect(tmp_path / "games.db").execute("PRAGMA user_version").fetchone() == (len(MIGRATION_NAMES),)
