"""Several programs on one database at once: a live game keeps saving while others write and read."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

from cli_helpers import COMMAND, run
from store_helpers import KNOWN, damaged_database

from companion.random_play import long_game
from companion.table.session import Session
from companion.store import Store
from companion.store.schema import KNOWN as MIGRATION_NAMES

OPEN_AT_THE_SIGNAL = """
import sys, time
from pathlib import Path
from companion.store import Store
db, go, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
while not go.exists():
    time.sleep(0.001)
with Store.open(db, busy_timeout=10) as store:
    store.add_player(name)
"""


def test_a_new_database_opened_by_many_processes_at_once_waits_instead_of_failing(tmp_path: Path) -> None:
    db, go = tmp_path / "games.db", tmp_path / "go"
    names = [f"P{i}" for i in range(8)]
    children = [
        subprocess.Popen([sys.executable, "-c", OPEN_AT_THE_SIGNAL, str(db), str(go), name], stderr=subprocess.PIPE,
                         text=True)
        for name in names
    ]
    time.sleep(1.0)  # every child imported and waiting
    go.touch()
    errors = [child.communicate(timeout=60)[1] for child in children]
    assert errors == [""] * len(names)
    with Store.open(db) as store:
        assert sorted(store.players()) == names
        assert store.query("SELECT count(*) FROM _sqlite_migrations") == [(len(MIGRATION_NAMES),)]


def test_a_live_game_saves_every_100_ms_while_simulate_import_games_and_stats_run(tmp_path: Path) -> None:
    """The live game's busy timeout is 50 ms: any write lock held longer by the others makes a save fail."""
    db = tmp_path / "games.db"
    transcript = tmp_path / "game.txt"
    transcript.write_text(KNOWN)
    plan = long_game(300)
    store = Store.open(db, busy_timeout=0.05)
    session = Session.new(store, plan.setup)
    others = [
        subprocess.Popen([COMMAND, "simulate", "--games", "40", "--seed", "3", "--db", str(db)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True),
        subprocess.Popen(
            ["sh", "-c", 'for i in 1 2 3; do "$0" games import "$1" --db "$2" && "$0" games --db "$2" '
             '&& "$0" stats --db "$2" || exit 1; done', COMMAND, str(transcript), str(db)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True),
    ]
    saved = 0
    while any(other.poll() is None for other in others):
        session.apply(plan.log[saved])  # a StoreError (busy for more than 50 ms) fails the test here
        saved += 1
        time.sleep(0.1)
    assert [other.communicate()[1] for other in others] == ["", ""]
    assert [other.returncode for other in others] == [0, 0]
    assert saved >= 10
    store.close()
    with Store.open(db) as store:
        assert [entry.action for entry in store.load(session.game_id).log] == list(plan.log[:saved])
        assert store.query("SELECT count(*) FROM games") == [(1 + 40 + 3,)]
        assert store.check() == []


OPEN_DAMAGED_AT_EACH_SIGNAL = """
import os, sys
from pathlib import Path
from companion.store import Store, StoreError
go, name, paths = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
for db in paths:
    os.read(go, 1)  # the test writes to every child's pipe at once: they open this database together
    try:
        with Store.open(Path(db), busy_timeout=10) as store:
            store.add_player(name)
            said = store.notice or "opened"
    except StoreError as exc:
        said = f"refused: {exc}"
    print(said, flush=True)
"""


def test_a_damaged_database_opened_by_many_processes_at_once_is_moved_aside_once(tmp_path: Path) -> None:
    """Each child sees the damage; a second move aside would take the fresh file, and players, with it.

    Twenty rounds, because one round of the race goes wrong only some of the time without the lock.
    """
    damaged = damaged_database(tmp_path / "games.db")
    rounds = [tmp_path / f"round-{n}" / "games.db" for n in range(20)]
    for db in rounds:
        db.parent.mkdir()
        db.write_bytes(damaged)
    names = [f"P{i}" for i in range(6)]
    pipes = [os.pipe() for _ in names]
    children = [
        subprocess.Popen([sys.executable, "-c", OPEN_DAMAGED_AT_EACH_SIGNAL, str(go), name, *map(str, rounds)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pass_fds=(go,))
        for name, (go, _) in zip(names, pipes, strict=True)
    ]
    said = []
    for _ in rounds:
        for _, release in pipes:
            os.write(release, b"x")
        said.append([child.stdout.readline() if child.stdout else "" for child in children])
    for go, release in pipes:
        os.close(go)
        os.close(release)
    assert [child.communicate(timeout=60)[1] for child in children] == [""] * len(names)
    for db, lines in zip(rounds, said, strict=True):
        assert not [line for line in lines if line.startswith("refused")], db
        assert sum("it was moved to games.db.corrupt-" in line for line in lines) == 1, db
        (moved,) = db.parent.glob("games.db.corrupt-*[0-9]")
        assert moved.read_bytes() == damaged
        with Store.open(db) as store:
            assert sorted(store.players()) == names, db


def test_a_move_aside_that_cannot_take_the_lock_says_busy_and_changes_nothing(capsys, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    damaged_database(db)
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\ndb = "{db}"\nbusy_timeout = 0.2\n')
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    folder = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_SH)  # another process opening the database, and stuck there
        code, out, err = run(capsys, "--config", str(config), "games")
    finally:
        os.close(folder)
    assert (code, out) == (2, "")
    assert err == "spicy-companion: the database is busy: another program is writing to it; close it and try again\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    code, out, err = run(capsys, "--config", str(config), "games")
    assert (code, out) == (0, "no saved games\n") and "it was moved to games.db.corrupt-" in err
