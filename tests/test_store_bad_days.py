"""Bad days for the file: deleted under a running game, locked by another program, and games given up."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from datetime import datetime, UTC
from pathlib import Path

import pytest
from store_helpers import KNOWN, fill, small_disk, undo_migrations_from

from companion.random_play import long_game
from companion.rules import FIVE_SPICES, new_setup
from companion.rules.transcript import replay_transcript
from companion.table.session import Session
from companion.store import Store, StoreError
from companion.store.cli import describe_game
from companion.store.simulate import simulate

HOLD_THE_WRITE_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(60)
"""


def test_a_database_deleted_under_a_running_game_is_written_anew_and_nothing_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    plan = long_game(30)
    store = Store.open(db)
    told = []
    store.on_notice = told.append
    older = Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]))
    session = Session.new(store, plan.setup)
    for action in plan.log[:10]:
        session.apply(action)
    for leftover in tmp_path.iterdir():  # rm games.db*
        leftover.unlink()
    for action in plan.log[10:15]:
        session.apply(action)
    assert len(told) == 1 and "was deleted while the app ran" in told[0]
    assert db.exists()
    store.close()
    with Store.open(db) as reopened:
        assert reopened.load(session.game_id).game().log == plan.log[:15]
        assert reopened.load(older.game_id).game().setup.names == ("Ana", "Ben")
        assert reopened.unfinished_game() == session.game_id


def test_a_file_put_in_place_of_the_open_one_is_left_alone_and_said(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    plan = long_game(10)
    store = Store.open(db)
    session = Session.new(store, plan.setup)
    session.apply(plan.log[0])
    db.rename(tmp_path / "elsewhere.db")
    db.write_bytes(b"someone else's")
    with pytest.raises(StoreError, match="another file was put in its place"):
        session.apply(plan.log[1])
    assert db.read_bytes() == b"someone else's"
    store.close()


def test_a_deleted_database_that_cannot_be_written_anew_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    plan = long_game(10)
    store = Store.open(folder / "games.db")
    session = Session.new(store, plan.setup)
    for leftover in folder.iterdir():
        leftover.unlink()
    folder.rmdir()
    folder.write_text("a file where the folder was")
    with pytest.raises(StoreError, match="no new file could be written"):
        session.apply(plan.log[0])
    assert session.game.log == ()
    with pytest.raises(StoreError, match="nothing can be saved"):
        session.apply(plan.log[0])


def test_a_write_lock_held_by_another_program_is_said_at_once_and_the_tap_can_be_retried(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    plan = long_game(10)
    store = Store.open(db, busy_timeout=0.5)
    session = Session.new(store, plan.setup)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_WRITE_LOCK, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        started = time.monotonic()
        with pytest.raises(StoreError, match="the database is busy"):
            session.apply(plan.log[0])
        assert time.monotonic() - started < 5  # the wait is the store's, not SQLite's default nor the config's
        assert session.game.log == ()
    finally:
        holder.kill()
        holder.wait()
    session.apply(plan.log[0])  # the retry
    store.close()
    with Store.open(db) as reopened:
        assert reopened.load(session.game_id).game().log == plan.log[:1]


def test_a_full_disk_refuses_a_new_game_with_a_reason(tmp_path: Path) -> None:
    with small_disk(tmp_path / "small") as disk, Store.open(disk / "games.db") as store:
        fill(disk)
        with pytest.raises(StoreError, match="full"):
            Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]))
        assert store.query("SELECT count(*) FROM games") == [(0,)]


def test_an_abandoned_game_stays_in_the_history_and_is_not_resumed(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]))
        assert store.unfinished_game() == session.game_id
        store.abandon(session.game_id, "2026-12-01T20:00:00.000+00:00")
        assert store.unfinished_game() is None
        (game,) = store.list_games()
        assert game.abandoned_at == "2026-12-01T20:00:00.000+00:00" and game.ended_at is None
        assert describe_game(game).endswith("(abandoned)")
        assert store.query("SELECT count(*) FROM games WHERE abandoned_at IS NOT NULL") == [(1,)]


def test_only_the_most_recent_game_is_resumed_and_not_an_older_unfinished_one(tmp_path: Path) -> None:
    game = replay_transcript(KNOWN)
    with Store.open(tmp_path / "games.db") as store:
        Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]), clock=lambda: "2026-12-01T19:00:00.000+00:00")
        later = Session.new(store, game.setup, clock=lambda: "2026-12-01T20:00:00.000+00:00")
        for action in game.log:
            later.apply(action)
        assert later.state.ended
        assert store.unfinished_game() is None


def test_the_upgrade_marks_games_left_for_a_later_one_as_abandoned(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        left = Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]), clock=lambda: "2026-12-01T19:00:00.000Z")
        live = Session.new(store, new_setup(FIVE_SPICES, ["Cy", "Dee"]), clock=lambda: "2026-12-01T20:00:00.000Z")
    conn = sqlite3.connect(db)  # the file as the version before abandoned games left it
    undo_migrations_from(conn, "m011_game_abandoned")
    conn.close()
    with Store.open(db) as store:
        marked = dict(store.query("SELECT id, abandoned_at FROM games"))
        assert marked == {left.game_id: "2026-12-01T20:00:00.000Z", live.game_id: None}
        assert store.unfinished_game() == live.game_id


PLAY_THEN_DIE = """
import os, sys
from companion.random_play import long_game
from companion.table.session import Session
from companion.store import Store, StoreError
plan = long_game(20)
session = Session.new(Store.open(sys.argv[1]), plan.setup)
for action in plan.log[:10]:
    session.apply(action)
print("played", flush=True)
sys.stdin.readline()  # the other file is in place now
try:
    session.apply(plan.log[10])
except StoreError as exc:
    print(exc, flush=True)
os._exit(0)  # killed: nothing is closed
"""


def test_a_database_moved_into_place_while_the_app_runs_keeps_every_game(tmp_path: Path) -> None:
    """The running app's WAL, left beside a file moved over its database, is not applied to that file."""
    db, other = tmp_path / "games.db", tmp_path / "other.db"
    with Store.open(other) as store:
        simulate(store, 30, seed=8, start=datetime(2026, 11, 1, 18, 0, tzinfo=UTC))
        games = store.list_games()
    app = subprocess.Popen([sys.executable, "-c", PLAY_THEN_DIE, str(db)], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    assert app.stdout is not None and app.stdin is not None
    assert app.stdout.readline() == "played\n"
    other.rename(db)
    app.stdin.write("\n")
    app.stdin.flush()
    said = app.stdout.read()
    assert app.wait(10) == 0 and "another file was put in its place while the app ran" in said
    assert not db.with_name("games.db-wal").exists() and not db.with_name("games.db-shm").exists()
    with Store.open(db) as store:
        assert store.check() == [] and store.list_games() == games
