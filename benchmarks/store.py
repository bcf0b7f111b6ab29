"""Storage figures for docs/PERFORMANCE.md: durable commits, resume, set-up's players, list and stats at scale.

Run: python benchmarks/store.py [--games 10000 100000]. Everything happens in a
fresh temporary folder on the same disk as /tmp; each figure comes with a
baseline measured in the same run (the way it was done before, or a plain
query), and the machine's load average beside it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import astuple
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from companion.rules import Game
from companion.table.session import Session
from companion.store import Store
from companion.random_play import endless_game, long_game
from companion.store.backup import backup, export_all, plan_restore, restore
from companion.store.schema import PLAYER_STATS
from companion.store.simulate import simulate

T = TypeVar("T")


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


def load() -> str:
    """The machine's load average over the last minute, printed beside each figure (a shared machine is noisy)."""
    return f"load {os.getloadavg()[0]:.1f}"


def median_ms(times: list[float]) -> str:
    return ms(statistics.median(times))


def resume(folder: Path, game: Game) -> None:
    """Resume through the snapshots the live game saved, against folding the whole log (the way before them)."""
    path = folder / "resume.db"
    with Store.open(path) as store:
        session = Session.new(store, game.setup)
        for action in game.log:
            session.apply(action)
        (snapshots,) = store.query("SELECT count(*) FROM snapshots")[0]

    def open_and_resume() -> None:
        with Store.open(path) as store:
            resumed = Session.resume(store)
            assert resumed is not None and resumed.snapshot_upto == len(game.log)

    def open_and_replay() -> None:
        with Store.open(path) as store:
            saved = store.load(1)
            assert len(Game.replay(saved.setup, [entry.action for entry in saved.log]).log) == len(game.log)

    for _ in range(2):  # alternating, so both meet the same load
        times, replays = timed(open_and_resume, 5), timed(open_and_replay, 5)
        print(f"resume a {len(game.log):,}-action game from its {snapshots} snapshots (open, read, rebuild): median "
              f"{median_ms(times)}, max {ms(max(times))} ({load()})")
        print(f"  baseline, the same game folded from its whole log (open, read, Game.replay): median "
              f"{median_ms(replays)} ({load()}); ratio {statistics.median(replays) / statistics.median(times):.1f}x")


def many_games(folder: Path, games: int, base: int) -> Path:
    """A database of ``games`` games: ``base`` simulated, then copied over and over an hour apart.

    Simulating 100,000 games takes about 20 minutes here; the copies go through the
    same triggers as saved games. Kept for the whole run (the 100,000 one grows from the 10,000 one).
    """
    path = folder / f"many-{games}.db"
    if path.exists():
        return path
    seed = folder / f"many-{base}.db"
    if not seed.exists():
        with Store.open(seed) as store:
            start = time.perf_counter()
            simulate(store, base, seed=1, start=datetime(2000, 1, 1, tzinfo=UTC))
            print(f"simulate {base:,} games to copy from: {time.perf_counter() - start:.1f} s ({load()})")
    smaller = max((p for p in folder.glob("many-*.db") if int(p.stem.split("-")[1]) < games),
                  key=lambda p: int(p.stem.split("-")[1]))
    shutil.copy(smaller, path)
    with Store.open(path) as store:
        (have,) = store.query("SELECT count(*) FROM games")[0]
        start = time.perf_counter()
        conn = store.db.conn
        conn.execute("BEGIN IMMEDIATE")
        for offset in range(have, games, base):
            copies = min(base, games - offset)
            hours = f"+{offset} hours"
            conn.execute(
                "INSERT INTO games (id, profile, variants, options, seats, end_card, first, started_at, ended_at,"
                " end_reason, winners, uid) SELECT id + ?, profile, variants, options, seats, end_card, first,"
                f" {STAMP.format('started_at')}, {STAMP.format('ended_at')}, end_reason, winners,"
                " uid || '-copy-' || ? FROM games WHERE id <= ?", [offset, hours, hours, offset, copies])
            conn.execute("INSERT INTO game_seats SELECT game_id + ?, seat, player_id FROM game_seats"
                         " WHERE game_id <= ?", [offset, copies])
            conn.execute("INSERT INTO actions SELECT game_id + ?, seq, at, action FROM actions WHERE game_id <= ?",
                         [offset, copies])
            columns = ", ".join(column.name for column in store.db["scores"].columns)
            conn.execute(f"INSERT INTO scores ({columns}) SELECT game_id + ?, {columns.split(', ', 1)[1]}"
                         " FROM scores WHERE game_id <= ?", [offset, copies])
        conn.execute("COMMIT")
        (actions,) = store.query("SELECT count(*) FROM actions")[0]
    print(f"copied to {games:,} games ({actions:,} actions, {path.stat().st_size / 1e6:.0f} MB) in "
          f"{time.perf_counter() - start:.1f} s ({load()})")
    return path


STAMP = "strftime('%Y-%m-%dT%H:%M:%f+00:00', {}, ?)"
"""A copied game's time stamp, hours later, in the app's own form (so the newest-first order holds)."""
RECENT_BEFORE = (
    "SELECT players.name FROM players"
    " LEFT JOIN game_seats ON game_seats.player_id = players.id"
    " LEFT JOIN games ON games.id = game_seats.game_id"
    " GROUP BY players.id"
    " ORDER BY max(coalesce(games.started_at, players.created_at)) DESC, players.id DESC"
)
"""``recent_players`` before ``players.last_played``: every seat row of every game."""
STATS_BEFORE = (
    "SELECT name, games, wins, win_rate, average_score, trophies, challenges_made, challenges_won,"
    f" caught_bluffing, survived_challenges FROM ({PLAYER_STATS}) ORDER BY wins DESC, win_rate DESC, name"
)
"""``stats`` before ``player_totals``: the aggregate over every seat of every finished game."""
LIST_BEFORE = """
from companion.store import Store
from companion.store.cli import describe_game
with Store.open(sys.argv[1]) as store:
    for game in store.list_games():
        print(describe_game(game))
"""
"""``games --limit 0`` before it streamed: the whole list built, then printed."""
LIST_NOW = """
import runpy
runpy.run_module("companion.cli", run_name="__main__")
"""
"""``spicy-companion games`` as its console script runs it."""
PEAK = """
import sys
sys.argv = sys.argv[1:]
try:
{}
finally:
    peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(int(peak.split()[1]) / 1024, file=sys.stderr)
"""
"""Runs a program and prints its peak memory (MiB) on stderr. Read from /proc: a child's
``ru_maxrss`` starts at its parent's size at the fork, so it would show this benchmark's."""


def child(program: str, *argv: str) -> tuple[float, float]:
    """Seconds and peak memory (MiB) of one process running ``program``, its output thrown away."""
    code = PEAK.format("\n".join("    " + line for line in program.strip().splitlines()))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, "-", *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    return time.perf_counter() - start, float(done.stderr.split()[-1])


def at_scale(folder: Path, games: int, base: int) -> None:
    path = many_games(folder, games, base)
    with Store.open(path) as store:
        count = timed(lambda: store.query("SELECT count(*) FROM games"), 20)
        print(f"at {games:,} games; baseline, SELECT count(*) FROM games: median {median_ms(count)} ({load()})")
        assert store.recent_players() == [name for (name,) in store.query(RECENT_BEFORE)]
        recent, recent_before = timed(store.recent_players, 20), timed(lambda: store.query(RECENT_BEFORE), 5)
        print(f"  set-up's players (recent_players, each tap): median {median_ms(recent)} ({load()}); "
              f"before, every seat of every game: {median_ms(recent_before)} ({load()})")
        stats, stats_before = timed(store.stats, 20), timed(lambda: store.query(STATS_BEFORE), 5)
        assert [astuple(p) for p in store.stats()] == store.query(STATS_BEFORE)
        print(f"  stats: median {median_ms(stats)} ({load()}); before, every seat of every finished game: "
              f"{median_ms(stats_before)} ({load()})")
        page = timed(lambda: store.list_games(50), 20)
        print(f"  the newest 50 games (the games list's default): median {median_ms(page)} ({load()})")
    cli = ["games", "--db", str(path), "--limit"]
    for _ in range(2):  # alternating, so both meet the same load
        now_s, now_mib = zip(*(child(LIST_NOW, *cli, "0") for _ in range(3)), strict=True)
        old_s, old_mib = zip(*(child(LIST_BEFORE, str(path)) for _ in range(3)), strict=True)
        few_s, few_mib = zip(*(child(LIST_NOW, *cli, "50") for _ in range(3)), strict=True)
        print(f"  games --limit 0, printed to /dev/null: median {statistics.median(now_s):.2f} s, "
              f"peak {max(now_mib):.0f} MiB ({load()}); before, the whole list then printed: "
              f"{statistics.median(old_s):.2f} s, {max(old_mib):.0f} MiB; baseline, --limit 50: "
              f"{statistics.median(few_s):.2f} s, {max(few_mib):.0f} MiB")


def once(fn: Callable[[], T]) -> tuple[T, float]:
    """The result of one call and the seconds it took."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def take_home(folder: Path, path: Path) -> None:
    """Backup, export of every game and restore into a fresh database, against a plain copy of the file."""
    stick = folder / "stick"
    stick.mkdir()
    with Store.open(path) as store:
        (games,) = store.query("SELECT count(*) FROM games")[0]
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _, copied = once(lambda: shutil.copyfile(path, stick / "plain-copy.db"))
        written, backed_up = once(lambda: backup(store, stick))
        _, exported = once(lambda: export_all(store, stick))
    with Store.open(folder / "fresh.db") as fresh:
        plan, planned = once(lambda: plan_restore(fresh, written))
        _, restored = once(lambda: restore(fresh, plan))
    print(f"take home {games:,} games: plain file copy {copied:.2f} s (baseline); backup {backed_up:.2f} s "
          f"({backed_up / copied:.1f}x); export all, 3 formats {exported:.1f} s ({exported / copied:.0f}x); "
          f"restore into a fresh database {planned + restored:.1f} s ({(planned + restored) / copied:.0f}x: "
          f"plan {planned:.1f} s, of which replaying every game to check it and score it is most; "
          f"add {restored:.1f} s) ({load()})")


WRITER = """
import sys
from datetime import UTC, datetime
from pathlib import Path
from companion.store import Store
from companion.store.simulate import recorded_games
path, count, batch = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
games = list(recorded_games(count, 5, datetime(2024, 1, 1, tzinfo=UTC)))
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
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000],
                        help="database sizes for set-up's players, stats and the list (default 10000 100000)")
    parser.add_argument("--base", type=int, default=1_000, help="games simulated, then copied (default 1000)")
    parser.add_argument("--actions", type=int, default=20_000, help="the long game to resume (default 20000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commit_one_action(folder, long_game(500))
        live_save_beside_a_writer(folder, long_game(1000))
        resume(folder, endless_game(args.actions))
        for games in sorted(args.games):
            at_scale(folder, games, args.base)
        take_home(folder, many_games(folder, 10_000, args.base))


if __name__ == "__main__":
    main()
