"""Storage figures for docs/PERFORMANCE.md: durable commits, resume, list and stats at scale.

Run: python benchmarks/store.py [--games 10000]. Everything happens in a fresh
temporary folder on the same disk as /tmp; each figure comes with a baseline
measured in the same run.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, UTC
from pathlib import Path

from companion.rules import Game
from companion.session import Session
from companion.store import Store
from companion.random_play import long_game
from companion.store.simulate import simulate


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def commit_one_action(folder: Path, game: Game) -> None:
    with Store.open(folder / "commit.db") as store:
        session = Session.new(store, game.setup)
        times = []
        for action in game.log:
            start = time.perf_counter()
            session.apply(action)
            times.append(time.perf_counter() - start)
    conn = sqlite3.connect(folder / "baseline.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE log (seq INTEGER PRIMARY KEY, at TEXT, action TEXT)")
    baseline = []
    for seq in range(len(game.log)):
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO log VALUES (?, ?, ?)", [seq, "2025-01-01T20:00:00.000+00:00", '{"action":"draw"}'])
        conn.execute("COMMIT")
        baseline.append(time.perf_counter() - start)
    conn.close()
    print(f"commit one action durably ({len(times)} actions): median {ms(statistics.median(times))}, "
          f"p99 {ms(p99(times))}")
    print(f"  baseline, plain sqlite3 insert with the same pragmas: median {ms(statistics.median(baseline))}, "
          f"p99 {ms(p99(baseline))}")


def resume(folder: Path, game: Game) -> None:
    path = folder / "resume.db"
    with Store.open(path) as store:
        session = Session.new(store, game.setup)
        for action in game.log:
            session.apply(action)

    def open_and_resume() -> None:
        with Store.open(path) as store:
            resumed = Session.resume(store)
            assert resumed is not None and len(resumed.game.log) == len(game.log)

    times = timed(open_and_resume, 20)
    replay = timed(lambda: Game.replay(game.setup, game.log), 20)
    print(f"resume a {len(game.log)}-action game (open, read the log, replay): median {ms(statistics.median(times))}, "
          f"max {ms(max(times))}")
    print(f"  baseline, Game.replay of the same log in memory: median {ms(statistics.median(replay))}")


def at_scale(folder: Path, games: int) -> None:
    path = folder / "many.db"
    with Store.open(path) as store:
        start = time.perf_counter()
        simulate(store, games, seed=1, start=datetime(2024, 1, 1, tzinfo=UTC))
        made = time.perf_counter() - start
        (actions,) = store.query("SELECT count(*) FROM actions")[0]
    size = path.stat().st_size / 1e6
    print(f"simulate {games} games ({actions} actions, {size:.0f} MB): {made:.1f} s")
    with Store.open(path) as store:
        everything = timed(store.list_games, 10)
        page = timed(lambda: store.list_games(50), 10)
        stats = timed(store.stats, 10)
        scan = timed(lambda: store.query("SELECT count(*), sum(length(seats)) FROM games"), 10)
    print(f"list all {games} games: median {ms(statistics.median(everything))}; the newest 50 (the CLI default): "
          f"median {ms(statistics.median(page))}")
    print(f"stats over {games} games: median {ms(statistics.median(stats))}")
    print(f"  baseline, one scan of the games table: median {ms(statistics.median(scan))}")


WRITER = """
import sys
from datetime import datetime, timezone
from pathlib import Path
from companion.store import Store
from companion.store.simulate import recorded_games
path, count, batch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
games = list(recorded_games(count, 5, datetime(2024, 1, 1, tzinfo=timezone.utc)))
with Store.open(path, busy_timeout=30) as store:
    print("ready", flush=True)
    for i in range(0, count, batch):
        store.save(games[i:i + batch])
"""


def live_save_beside_a_writer(folder: Path, game: Game, games: int = 400) -> None:
    """A live game saving every 20 ms while another process saves ``games`` games, a batch per transaction."""

    def saves(batch: int | None) -> list[float]:
        path = folder / f"beside-{batch}.db"
        with Store.open(path, busy_timeout=30) as store:
            session = Session.new(store, game.setup)
            writer = None
            if batch:
                writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(games), str(batch)],
                                          stdout=subprocess.PIPE, text=True)
                assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
            times: list[float] = []
            for action in game.log:
                if writer and writer.poll() is not None or not writer and len(times) == 100:
                    break
                start = time.perf_counter()
                session.apply(action)
                times.append(time.perf_counter() - start)
                time.sleep(0.02)
            if writer:
                writer.wait()
        return times

    for batch, label in ((10, "10 games a transaction (simulate now)"), (500, "all in one transaction (before)"),
                         (None, "baseline, nothing else writing")):
        times = saves(batch)
        print(f"live save beside another process saving {games} games, {label}: median "
              f"{ms(statistics.median(times))}, p90 {ms(statistics.quantiles(times, n=10)[8])}, max {ms(max(times))}"
              f" ({len(times)} saves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000, help="saved games for list and stats (default 10000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commit_one_action(folder, long_game(500))
        live_save_beside_a_writer(folder, long_game(1000))
        resume(folder, long_game(1000))
        at_scale(folder, args.games)


if __name__ == "__main__":
    main()
