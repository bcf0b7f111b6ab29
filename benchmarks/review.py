"""The review screens at 10,000 and 100,000 saved games, each against the store's own queries in the same run.

Run: python benchmarks/review.py [--games 10000 100000] [--baseline 1000] [--runs 5] [--replay-actions 20000].
Needs a display; without one it starts Xvfb (as benchmarks/ui.py does).

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
- Replay, from its tap on a game's page to the first step drawn, wall time and the UI thread's CPU time,
  for the longest Spicy game of the newest 100 (about 100 actions) and for a 20,000-action game played
  at a table (so saved with its snapshots), each against the same game's page opening, measured in
  turn with it; then a step forward, a step back and a jump to the next challenge, each to the end of
  its frame, against a frame with nothing moving;
- frame times while the list scrolls from top to bottom over 300 frames
  (rows read a page at a time as it goes), against frames with nothing moving;
- open the Players list, a game finished since each open (its rating folded into the kept ones): wall
  time and the UI thread's CPU time, against the same at ``--baseline`` games (1,000), in turn in the
  same app;
- rate every game again, as the first open after a change of the past does (and the CPU time it took),
  against reading the scores it uses.

With ``--league N`` (100,000 by default; 0: none), club night at that size: N games of another table
("Table 1") as Syncthing delivers them, one JSON file each in its folder (200 played games' exports, copied
with new uids, nine days apart a round), taken in by ``League.import_tables`` into a store of 200 games of
its own, against the same import of ``--league-baseline`` (2,000) files in the same run, per game; then in
the real app the league screens, each against the same screen on the baseline's league store, in turn
in the same app: the Players list of the whole league and of one table (a tap of its table button), a
player's page (the player with the most games), the same page at "Table 1" (as from Players showing that
table) and at this table (its button tapped), Tonight, Tonight of one table, and Records of the whole league,
of this table and of Table 1 (its button tapped once, twice). ``--games`` with no
number measures club night alone.

The load average (1 minute) over the run is printed after the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any
from datetime import datetime, timedelta, UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from ui import Load, confined, size_window, with_display  # noqa: E402  (the same window set-up as the UI figures)

from companion.random_play import endless_game  # noqa: E402
from companion.table.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.store.ratings import ratings  # noqa: E402
from companion.store.review import (  # noqa: E402
    HERE,
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
    tables,
    timeline,
)
from companion.store.simulate import recorded_games, simulate  # noqa: E402

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


def made(path: Path, games: int) -> None:
    """``filled``, saying how long it took."""
    started = time.perf_counter()
    filled(path, games)
    print(f"  ({games:,} games made in {time.perf_counter() - started:.0f} s)", file=sys.stderr)


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

    def __init__(self, path: Path, league: Path | None = None) -> None:
        from kivy.base import EventLoop

        from companion.config import Backend, BuzzerConfig, Config, LeagueConfig, StoreConfig
        from companion.ui.app import SpicyApp

        self.app = SpicyApp(Config(store=StoreConfig(db=path), buzzers=BuzzerConfig(backend=Backend.KEYBOARD),
                                   league=LeagueConfig(folder=league or path.with_suffix(".league"))))
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

    def shown(self, act: Callable[[], object], done: Callable[[], bool]) -> tuple[float, float]:
        """``timed`` from Home: a screen opened as a table opens it."""
        self.app.show("home")
        self.step(3)
        return self.timed(act, done)

    def timed(self, act: Callable[[], object], done: Callable[[], bool]) -> tuple[float, float]:
        """Seconds on the wall and of the UI thread's CPU from ``act`` to the end of the first frame after which
        ``done()`` holds: the CPU is what a Pi's slower cores multiply, and what other jobs here add nothing to."""
        wall, cpu = time.perf_counter(), time.thread_time()
        act()
        for _ in range(300):
            self.step()
            if done():
                return time.perf_counter() - wall, time.thread_time() - cpu
        raise RuntimeError("the screen never showed it")

    def tap(self, act: Callable[[], object], done: Callable[[], bool], runs: int) -> str:
        """``shown`` ``runs`` times: the median wall time and, beside it, the median CPU time of the UI thread
        (this process's one thread that draws), which a Pi's slower cores multiply and other jobs do not."""
        wall, cpu = medians([self.shown(act, done) for _ in range(runs)])
        return f"{ms(wall)}, UI thread CPU {ms(cpu)}"


def players_open(review: Review, runs: int, baseline: Path) -> list[tuple[float, float]]:
    """Median seconds from the tap to the Players list drawn, and the UI thread's CPU seconds, with a game
    finished since each open (its rating folded into the kept ones as the list opens): on this file, then
    on ``baseline``'s, in turn.

    Both in this one app, its store swapped while Home shows: the same window, screens and heap, so only
    the games differ (an app started later in the same process carries what the earlier ones left).
    """
    app, here = review.app, review.app.store
    assert here is not None
    with Store.open(baseline) as other:
        stores = (here, other)
        played = [recorded_games(2 * runs + 1, 11, _newest(store) + timedelta(hours=1)) for store in stores]

        def one(which: int) -> tuple[float, float]:
            app.store = stores[which]
            stores[which].save([next(played[which])])
            return review.shown(lambda: app.show("players"), lambda: app.root.current == "players")

        for which in (0, 1):
            one(which)  # the first open rates every game of a new file: see the row after
        opened: list[list[tuple[float, float]]] = [[], []]
        for _ in range(runs):
            for which in (0, 1):
                opened[which].append(one(which))
        app.store = here
    return [medians(opened[which]) for which in (0, 1)]


def _newest(store: Store) -> datetime:
    return datetime.fromisoformat(store.query("SELECT max(started_at) FROM games")[0][0])


def played_at_a_table(path: Path, actions: int) -> int:
    """A five-spices game of ``actions`` actions (its end undone to go on) saved as a table saves it, one action
    at a time with a snapshot every 500: the game's number."""
    game = endless_game(actions)
    with Store.open(path) as store:
        session = Session.new(store, game.setup)
        for action in game.log:
            session.apply(action)
        return session.game_id


def replay_rows(review: Review, games: dict[str, int], runs: int) -> list[tuple[str, str, str, str]]:
    """Replay's opening against its game's page, in turn; then its steps against a still frame."""
    app = review.app
    page = app.screen("game")
    rows = []
    for label, game_id in games.items():
        opened, replayed, load = [], [], Load()

        def open_page(game: int = game_id) -> None:
            page.open(game)
            app.show("game")

        for _ in range(runs):
            app.show("home")
            review.step(3)
            opened.append(review.timed(open_page, lambda: app.root.current == "game"))
            review.step(10)  # the page read a moment: the replay's screen laid out ahead
            replayed.append(review.timed(page.replay, lambda: app.root.current == "replay"))
            load.sample()
        (wall, cpu), (page_wall, page_cpu) = medians(replayed), medians(opened)
        actions = len(app.screen("replay").view.replay.saved.texts)
        rows.append((f"Replay from its tap to the first step drawn, {label} ({actions:,} actions; load {load})",
                     f"{ms(wall)}, CPU {ms(cpu)} (the first: {ms(replayed[0][0])}, CPU {ms(replayed[0][1])})",
                     f"the game's page opening: {ms(page_wall)}, CPU {ms(page_cpu)}; ratio {wall / page_wall:.2f}, "
                     f"CPU {cpu / page_cpu:.2f}", "< 100 ms and at most the page"))
        rows.append(steps_row(review, label))
    return rows


def steps_row(review: Review, label: str) -> tuple[str, str, str, str]:
    """A step forward, a step back and a jump to the next challenge, 20 of each in turn from the middle of the
    game, each from its call to the end of its frame."""
    view = review.app.screen("replay").view
    still, load = medians([review.timed(lambda: None, lambda: True) for _ in range(60)]), Load()
    view.go(view.last // 2)
    review.step(3)
    times: dict[str, list[tuple[float, float]]] = {"forward": [], "back": [], "next challenge": []}
    for _ in range(20):
        for name, act in (("forward", view.forward), ("back", view.back), ("next challenge", view.next_challenge)):
            times[name].append(review.timed(act, lambda: True))
        load.sample()
    figures = "; ".join(f"{name} {ms(wall)}, CPU {ms(cpu)}" for name, (wall, cpu) in
                        ((name, medians(each)) for name, each in times.items()))
    worst = max(wall for each in times.values() for wall, _ in each)
    return (f"a replay's steps, {label} (load {load})", f"{figures}; the slowest {ms(worst)}",
            f"a frame with nothing moving: {ms(still[0])}, CPU {ms(still[1])}", "one frame (16.7 ms)")


def medians(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(wall for wall, _ in pairs), statistics.median(cpu for _, cpu in pairs)


def figures_for(games: int, runs: int, folder: Path, baseline: int, replay_actions: int) -> list[tuple[str, str, str, str]]:
    """Every figure at ``games`` games, the Players list's beside the same at ``baseline`` games (made already)."""
    path = folder / f"review-{games}.db"
    made(path, games)
    started = time.perf_counter()
    long_id = played_at_a_table(path, replay_actions)
    print(f"  (a {replay_actions:,}-action game played in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
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

    rows += replay_rows(review, {"the longest Spicy game of the newest 100": game_id, "a long game": long_id}, runs)

    (wall, cpu), (base_wall, base_cpu) = players_open(review, runs, folder / f"review-{baseline}.db")
    rows.append(("open the Players list, a game finished since", f"{ms(wall)} (UI thread CPU {ms(cpu)})",
                 f"at {baseline:,} games: {ms(base_wall)} (CPU {ms(base_cpu)});"
                 f" {wall / base_wall:.2f}× wall, {cpu / base_cpu:.2f}× CPU", "≤ 1.5×"))

    def again() -> None:
        store.db.execute("DELETE FROM rating_state")  # what a change of the past does (schema.PAST_CHANGED)
        ratings(store)

    rebuild = median_of(again, max(1, runs // 2))
    cpu = median_of(again, max(1, runs // 2), clock=time.process_time)
    read = median_of(lambda: store.query("SELECT game_id, player_id, winner, score FROM scores"), runs)
    rows.append(("rate every game again (after a change of the past)", f"{rebuild:.2f} s (CPU {cpu:.2f} s)",
                 f"reading the scores it uses: {ms(read)}", "< 5 s"))
    app.stop()
    return rows


# --- club night ------------------------------------------------------------------------


def league_files(folder: Path, games: int) -> Path:
    """``games`` files of another table ("Table 1", id ``t1``) in a league folder, as Syncthing leaves them:
    ``SEED_GAMES`` played games' JSON exports, copied with new uids, each round's games nine days later (their
    actions' stamps as they were, as ``filled`` copies them)."""
    import json
    import uuid

    from companion.store.export import json_text
    from companion.league.folders import FORMAT, TABLE_KIND

    root = folder / "league"
    games_folder = root / "tables" / "t1" / "games"
    games_folder.mkdir(parents=True)
    (root / "tables" / "t1" / "table.json").write_text(json.dumps(
        {"kind": TABLE_KIND, "format": FORMAT, "id": "t1", "name": "Table 1"}), encoding="utf-8")
    with Store.open(folder / "seed.db") as seed:
        simulate(seed, SEED_GAMES, 3, datetime(2020, 1, 1, tzinfo=UTC))
        records = [json.loads(json_text(seed.load(game_id), seed.uid_of(game_id)))
                   for (game_id,) in seed.query("SELECT id FROM games ORDER BY id")]
    for n in range(games):
        record = dict(records[n % SEED_GAMES])
        days = timedelta(days=9 * (n // SEED_GAMES))
        record["uid"] = str(uuid.UUID(int=n + 1))
        for key in ("started_at", "ended_at", "abandoned_at"):
            if record.get(key):
                record[key] = (datetime.fromisoformat(record[key]) + days).isoformat(timespec="milliseconds")
        (games_folder / f"{record['uid']}.json").write_text(json.dumps(record), encoding="utf-8")
    return root


def league_store(folder: Path, games: int) -> tuple[Path, float, Path]:
    """A store of this table's own ``SEED_GAMES`` games with ``games`` of Table 1's taken in: its path, the
    import's seconds, and its league folder."""
    from companion.config import LeagueConfig
    from companion.league.folders import League

    here = folder / f"league-{games}"
    here.mkdir()
    started = time.perf_counter()
    root = league_files(here, games)
    print(f"  ({games:,} league files written in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    path = here / "table-2.db"
    with Store.open(path) as store:
        newest = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(days=9 * ((games - 1) // SEED_GAMES), minutes=30)
        simulate(store, SEED_GAMES, 4, newest)  # this table's own games, the same evenings as the newest round
        league = League(LeagueConfig(table_name="Table 2", table_id="t2", folder=root))
        started = time.perf_counter()
        done = league.import_tables(store)
        took = time.perf_counter() - started
        assert done.added == games and not done.notices, done
        store.db.execute("ANALYZE")
    return path, took, root


def league_figures(games: int, baseline: int, runs: int, folder: Path) -> list[tuple[str, str, str, str]]:
    """The import per game against the baseline's, then each league screen against the same on the baseline's
    store, in turn in one app (its store swapped while Home shows, as ``players_open`` does)."""
    load = Load()
    base_path, base_took, _ = league_store(folder, baseline)
    load.sample()
    path, took, root = league_store(folder, games)
    load.sample()
    rows = [(f"import {games:,} league games, one file each, into a store (load {load})",
             f"{took:.0f} s ({took / games * 1000:.1f} ms a game)",
             f"{baseline:,} games: {base_took:.1f} s ({base_took / baseline * 1000:.1f} ms a game); "
             f"{(took / games) / (base_took / baseline):.2f}× a game", "≤ 1.5× a game")]
    review = Review(path, root)
    app, big = review.app, review.app.store
    assert big is not None
    player = max(player_lines(big), key=lambda line: line.games).name
    players, tonight_screen, page = app.screen("players"), app.screen("tonight"), app.screen("player")
    records_screen = app.screen("records")

    def one_table(screen: Any) -> Callable[[], object]:
        """The table button tapped on a screen open on the whole league (as a touch does, through the button's
        own release): this table's games, from the tap to the frame after the screen refilled."""
        return lambda: screen.ids.table_choice.on_release()

    def two_taps(screen: Any) -> Callable[[], object]:
        """The button tapped twice: the other table's games, most of the league's."""
        return lambda: (screen.ids.table_choice.on_release(), screen.ids.table_choice.on_release())

    def open_page() -> None:
        page.open(player)
        app.show("player")

    def open_page_at_table() -> None:
        """As from Players showing the other table: the page at that table, counted over its seats alone."""
        assert app.store is not None
        page.open(player, next(place.id for place in tables(app.store) if place.id != HERE))
        app.show("player")

    def open_records() -> None:
        """As from Players showing the whole league: its Records button."""
        records_screen.open(None)
        app.show("records")

    def opened(name: str) -> None:
        """The screen open on the whole league first, on the store in use."""
        review.shown(lambda: app.show(name), lambda: app.root.current == name)
        app.screen(name).ids.table_choice.table = None
        review.step(3)

    home = ""
    screens: list[tuple[str, Callable[[], object], Callable[[], bool], str]] = [
        ("the Players list, the whole league", lambda: app.show("players"), lambda: app.root.current == "players",
         home),
        ("the Players list, one table's (its button tapped)", one_table(players), lambda: True, "players"),
        ("a player's page (the player with the most games)", open_page, lambda: app.root.current == "player", home),
        ("the same page at Table 1 (opened from Players at that table)", open_page_at_table,
         lambda: app.root.current == "player", home),
        ("a player's page, this table's (its button tapped)", one_table(page), lambda: True, "player"),
        ("Tonight, the whole league", lambda: app.show("tonight"), lambda: app.root.current == "tonight", home),
        ("Tonight, one table's (its button tapped)", one_table(tonight_screen), lambda: True, "tonight"),
        ("Records, the whole league", open_records, lambda: app.root.current == "records", home),
        ("Records, this table's (its button tapped)", one_table(records_screen), lambda: True, "records"),
        ("Records, Table 1's (the button tapped twice)", two_taps(records_screen), lambda: True, "records"),
    ]
    with Store.open(base_path) as small:
        stores = (big, small)
        for label, act, done, on in screens:
            timed: list[list[tuple[float, float]]] = [[], []]
            screen_load = Load()
            for _ in range(runs):
                for which in (0, 1):
                    app.store = stores[which]
                    if on == home:
                        timed[which].append(review.shown(act, done))
                    else:
                        opened(on)
                        timed[which].append(review.timed(act, done))
                screen_load.sample()
            (wall, cpu), (base_wall, base_cpu) = medians(timed[0]), medians(timed[1])
            rows.append((f"{label} (load {screen_load})", f"{ms(wall)}, UI thread CPU {ms(cpu)}",
                         f"at {baseline:,} league games: {ms(base_wall)} (CPU {ms(base_cpu)}); "
                         f"{wall / base_wall:.2f}× wall, {cpu / base_cpu:.2f}× CPU", "< 300 ms"))
        app.store = big
    app.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--league", type=int, default=100_000, help="league games imported (default 100000; 0: none)")
    parser.add_argument("--league-baseline", type=int, default=2_000,
                        help="the league games the import and the league screens are compared with, in the same run")
    parser.add_argument("--baseline", type=int, default=1_000,
                        help="the games the Players list is compared with, in the same run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--replay-actions", type=int, default=20_000, help="the long game replayed (default 20000)")
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
        load = Load()
        if args.games:
            made(Path(folder) / f"review-{args.baseline}.db", args.baseline)
        for games in args.games:
            for row in figures_for(games, args.runs, Path(folder), args.baseline, args.replay_actions):
                print(f"| {games:,} | " + " | ".join(row) + " |", flush=True)
            load.sample()
        if args.league:
            for row in league_figures(args.league, args.league_baseline, args.runs, Path(folder)):
                print(f"| {args.league:,} league | " + " | ".join(row) + " |", flush=True)
            load.sample()
    print(f"\nThe load average (1 minute) over the run: {load} ({os.cpu_count()} cores).")


if __name__ == "__main__":
    main()
