"""Several programs on one database at once: a live game keeps saving while others write and read."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from cli_helpers import COMMAND
from store_helpers import KNOWN

from companion.random_play import long_game
from companion.session import Session
from companion.store import Store

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
        assert store.query("SELECT count(*) FROM _sqlite_migrations") == [(3,)]


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
