"""kill -9 in the middle of a 200-action game, at 50 random points: nothing acknowledged is lost."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from store_helpers import read_plan, write_plan

from companion.rules import Game
from companion.store import Store
from companion.random_play import long_game

HELPERS = Path(__file__).with_name("store_helpers.py")


def run_until(db: Path, plan: Path, acked: int, kill_at: int | None, rng: random.Random) -> int:
    """Run the child; once it acknowledges ``kill_at``, SIGKILL it a moment later (None: let it finish).

    Returns the last action acknowledged so far, including acks still in the pipe.
    """
    child = subprocess.Popen([sys.executable, str(HELPERS), str(db), str(plan)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith("ack"):
            acked = int(line.split()[1])
        if line == "done\n" or (kill_at is not None and acked >= kill_at):
            break
    if kill_at is not None:
        time.sleep(rng.uniform(0, 0.003))
        child.kill()
    rest, _ = child.communicate()
    acks = [int(line.split()[1]) for line in rest.splitlines() if line.startswith("ack")]
    child.wait()
    return max([acked, *acks])


def test_every_acknowledged_action_survives_kill_9(tmp_path: Path) -> None:
    rng = random.Random(2024)
    db, plan = tmp_path / "games.db", tmp_path / "plan.json"
    write_plan(plan, long_game(200))
    setup, actions = read_plan(plan)
    acked = 0
    for kill_at in sorted(rng.sample(range(1, 200), 50)) + [None]:
        acked = run_until(db, plan, acked, kill_at, rng)
        with Store.open(db) as store:
            assert store.query("PRAGMA integrity_check") == [("ok",)]
            game_id = store.unfinished_game() or store.list_games(1)[0].id
            saved = store.load(game_id)
            logged = [entry.action for entry in saved.log]
            assert acked <= len(logged) <= acked + 1
            assert logged == actions[: len(logged)]
            assert saved.game() == Game.replay(setup, actions[: len(logged)])
            assert store.query("SELECT count(*) FROM games") == [(1,)]
    assert len(logged) == 200
