"""The review screens at 10,000 and 100,000 saved games, each against the store's own queries in the same run.

Run: python benchmarks/review.py [--games 10000 100000] [--runs 5]. Needs a
display; without one it starts Xvfb (as benchmarks/ui.py does).

A database of that many games is made by playing 200 random games
(``simulate``) and copying their rows, a day apart, until the count is reached:
playing 100,000 games would take hours, and copies are as heavy for every query
as games of their own. In one process with the real app in a real window
(800x480), for each figure the app's time and the store's time alone:

- open the list: Home to the Saved games screen showing its first rows, against
  ``count_games`` and the first ``games_page``;
- open a player's page (the player with the most games), against the page's queries (its kept
  figures and the newest games of its chart);
- open a game's page with its chart and timeline, against ``Store.load`` and the replay;
- frame times while the list scrolls from top to bottom over 300 frames
  (rows read a page at a time as it goes), against frames with nothing moving;
- rebuild every rating (and the CPU time it took), against reading the scores it uses.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from ui import confined, size_window, with_display  # noqa: E402  (the same window set-up as the UI figures)

from companion.store import Store  # noqa: E402
from companion.store.ratings import ratings  # noqa: E402
from companion.store.review import (  # noqa: E402
    buzz_figures,
    count_games,
    figures,
    games_page,
    head_to_heads,
    nemesis,
    player_lines,
    results,
    rival,
    score_race,
    timeline,
)
from companion.store.simulate import simulate  # noqa: E402

SEED_GAMES = 200
TABLES = ("games", "game_seats", "actions", "scores", "challenge_buzz")
SWIPE = 40
"""Pixels the list moves a frame while it scrolls."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def median_of(fn: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """The median time of ``runs`` calls; with ``clock=time.process_time`` the CPU this process spent, which other
    jobs on a shared machine slow less than the time on the wall."""
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def filled(path: Path, games: int) -> None:
    """``SEED_GAMES`` played games, copied until there are ``games``: each copy shifted by a day per round."""
    with Store.open(path) as store:
        simulate(store, SEED_GAMES, 1, datetime(2020, 1, 1, tzinfo=UTC))
        conn = store.db.conn
        rounds = -(-games // SEED_GAMES)
        conn.execute("BEGIN IMMEDIATE")
        for n in range(1, rounds):
            offset = n * SEED_GAMES
            keep = min(SEED_GAMES, games - offset)
            conn.execute(
                "INSERT INTO games (id, profile, variants, options, seats, end_card, first, started_at, ended_at,"
                " end_reason, winners, note) SELECT id + ?, profile, variants, options, seats, end_card, first,"
                " strftime('%Y-%m-%dT%H:%M:%f+00:00', started_at, ? || ' days'),"
                " strftime('%Y-%m-%dT%H:%M:%f+00:00', ended_at, ? || ' days'), end_reason, winners, note"
                " FROM games WHERE id <= ?", [offset, n * 9, n * 9, keep])
            for table in TABLES[1:]:
                columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
                chosen = ", ".join("game_id + ?" if c == "game_id" else c for c in columns)
                conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM {table}"
                             " WHERE game_id <= ?", [offset, keep])
        conn.execute("COMMIT")
        conn.execute("ANALYZE")


class Review:
    """The real app in its window, on the filled database, frames run one at a time."""

    def __init__(self, path: Path) -> None:
        from kivy.base import EventLoop

        from companion.config import Backend, BuzzerConfig, Config, StoreConfig
        from companion.ui.app import SpicyApp

        self.app = SpicyApp(Config(store=StoreConfig(db=path), buzzers=BuzzerConfig(backend=Backend.KEYBOARD)))
        self.app._run_prepare()
        self.loop = EventLoop
        self.cpu = 0.0
        """The UI thread's CPU seconds in the last ``shown``, from ``act`` to its frame."""
        self.step(5)

    def step(self, frames: int = 1) -> list[float]:
        times = []
        for _ in range(frames):
            start = time.perf_counter()
            self.loop.idle()
            times.append(time.perf_counter() - start)
        return times

    def shown(self, act: Callable[[], object], done: Callable[[], bool]) -> float:
        """Seconds from ``act`` to the end of the first frame after which ``done()`` holds; the UI thread's
        CPU seconds in them are kept in ``cpu``."""
        self.app.show("home")
        self.step(3)
        start, cpu = time.perf_counter(), time.thread_time()
        act()
        for _ in range(300):
            self.step()
            if done():
                self.cpu = time.thread_time() - cpu
                return time.perf_counter() - start
        raise RuntimeError("the screen never showed it")

    def tap(self, act: Callable[[], object], done: Callable[[], bool], runs: int) -> str:
        """``shown`` ``runs`` times: the median wall time and, beside it, the median CPU time of the UI thread
        (this process's one thread that draws), which a Pi's slower cores multiply and other jobs do not."""
        walls, cpus = [], []
        for _ in range(runs):
            walls.append(self.shown(act, done))
            cpus.append(self.cpu)
        return f"{ms(statistics.median(walls))}, UI thread CPU {ms(statistics.median(cpus))}"


def figures_for(games: int, runs: int, folder: Path) -> list[tuple[str, str, str, str]]:
    path = folder / f"review-{games}.db"
    started = time.perf_counter()
    filled(path, games)
    print(f"  ({games:,} games made in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    review = Review(path)
    app, store = review.app, review.app.store
    assert store is not None, "the app could not open the database"
    player = max(player_lines(store), key=lambda line: line.games).name
    game_id = max((line for line in games_page(store, limit=100) if line.profile == "spicy" and line.ended_at),
                  key=lambda line: line.actions).id  # the longest Spicy game of the newest 100
    rows = []

    games_screen = app.screen("games")
    list_open = review.tap(lambda: app.show("games"), lambda: bool(games_screen.ids.list.data), runs)
    list_query = median_of(lambda: (count_games(store), games_page(store, limit=40)), runs)
    rows.append(("open the list", list_open, f"the store's queries: {ms(list_query)}", "< 300 ms"))

    page = app.screen("player")

    def open_player() -> None:
        page.open(player)
        app.show("player")

    player_open = review.tap(open_player, lambda: app.root.current == "player", runs)
    shown = max(figures(store, player=player), key=lambda f: f.games).profile  # the rules the page opens on

    def player_queries() -> None:
        figures(store, player=player), buzz_figures(store, player), player_lines(store, name=player)
        rival(store, player)
        nemesis(store, player), head_to_heads(store, player), results(store, player, shown)

    player_query = median_of(player_queries, runs)
    rows.append(("open a player's page", player_open, f"the store's queries: {ms(player_query)}", "< 300 ms"))

    game_page = app.screen("game")

    def open_game() -> None:
        game_page.open(game_id)
        app.show("game")

    game_open = review.tap(open_game, lambda: app.root.current == "game", runs)

    def game_query() -> None:
        saved = store.load(game_id)
        game = saved.game()
        timeline(saved, game), score_race(game)

    rows.append(("open a game's page with its chart", game_open,
                 f"load, replay, timeline and race: {ms(median_of(game_query, runs))}", "< 300 ms"))

    app.show("games")
    review.step(5)
    still = review.step(120)
    rows_view = games_screen.ids.list
    frames: list[float] = []
    for i in range(1, 301):  # a brisk swipe, 2,400 px a second at 60 frames a second, reading on as it goes
        below = max(1.0, games_screen._content_height() - rows_view.height)
        rows_view.scroll_y = max(0.0, 1 - SWIPE * i / below)
        frames += review.step()
    rows.append((f"frame times while the list scrolls ({len(rows_view.data)} rows read in 300 frames)",
                 f"p99 {ms(statistics.quantiles(frames, n=100)[98])}, median {ms(statistics.median(frames))}",
                 f"nothing moving: p99 {ms(statistics.quantiles(still, n=100)[98])}", "p99 < 20 ms"))

    rebuild = median_of(lambda: ratings(store), max(1, runs // 2))
    cpu = median_of(lambda: ratings(store), max(1, runs // 2), clock=time.process_time)
    read = median_of(lambda: store.query("SELECT game_id, player_id, winner, score FROM scores"), runs)
    rows.append(("rebuild every rating", f"{rebuild:.2f} s (CPU {cpu:.2f} s)", f"reading the scores it uses: {ms(read)}",
                 "< 5 s"))
    app.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with_display()
    home = tempfile.mkdtemp(prefix="review-bench-")
    os.environ.update(KIVY_NO_ARGS="1", KIVY_USE_DEFAULTCONFIG="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=home,
                      KIVY_METRICS_DENSITY="1", SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=f"{home}/config",
                      XDG_DATA_HOME=f"{home}/data")
    size_window()
    if confined():
        print(confined().lstrip("; "))
    print("| saved games | figure | median | baseline in the same run | target |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for games in args.games:
            for row in figures_for(games, args.runs, Path(folder)):
                print(f"| {games:,} | " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
