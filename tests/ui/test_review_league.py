"""Club night on the review screens, by touch in a real window: one table's games on Players and Tonight, each
game's table on Saved games, and the strip that says how the league stands (with a real Syncthing).

The store holds this table's games and another table's taken in through the league folder (``two_tables``);
what the screens show is checked against the games' rows read with SQL.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from datetime import datetime, timedelta, UTC
from pathlib import Path

from scenes_review import two_tables
from test_syncthing import free_port

from companion.config import LeagueConfig
from companion.league.folders import League
from companion.store.review import HERE
from companion.league.syncthing import Syncthing, start_league

Q_BY_PLAYER = ("SELECT players.name, count(*), sum(scores.winner) FROM scores JOIN players ON players.id ="
               " scores.player_id JOIN games ON games.id = scores.game_id WHERE {where} GROUP BY players.id")


def by_player(path: Path, where: str = "1", params: tuple[object, ...] = ()) -> dict[str, tuple[int, int]]:
    with sqlite3.connect(path) as db:
        return {name: (games, wins) for name, games, wins in db.execute(Q_BY_PLAYER.format(where=where), params)}


def shown_players(screen) -> dict[str, str]:
    return {row["name"]: row["figures"] for row in screen.ids.list.data}


def figures_text(games: int, wins: int) -> str:
    return (f"{games} game{'s' if games != 1 else ''} · {wins} win{'s' if wins != 1 else ''} · "
            f"{round(100 * wins / games)}%")


def test_players_show_the_league_then_each_tables_by_touch(ui) -> None:
    ui.start()
    table_1 = two_tables(ui)
    ui.app.show("players")
    ui.step(3)
    screen = ui.app.screen("players")
    choice = screen.ids.table_choice
    path = ui.app.store.path
    assert choice.opacity == 1 and choice.text == "All tables"
    league = by_player(path)
    assert shown_players(screen) == {name: figures_text(*counts) for name, counts in league.items()}
    ui.tap(choice)
    assert choice.text == "Table 2" and choice.table == HERE
    here = by_player(path, "games.table_id IS NULL")
    assert shown_players(screen) == {name: figures_text(*counts) for name, counts in here.items()}
    ui.tap(choice)
    assert choice.text == "Table 1" and choice.table == table_1
    there = by_player(path, "games.table_id = ?", (table_1,))
    assert shown_players(screen) == {name: figures_text(*counts) for name, counts in there.items()}
    assert there != here
    ui.tap(choice)
    assert choice.table is None and shown_players(screen) == {
        name: figures_text(*counts) for name, counts in league.items()}


def tap_player(ui, name: str) -> None:
    """A tap on the player's row in the Players list (scrolled down to it if needed): their page opens."""
    from companion.ui.screens.players import PlayerRow

    if not any(r.name == name for r in ui.find_all(PlayerRow)):
        ui.app.screen("players").ids.list.scroll_y = 0
        ui.step(3)
    ui.tap(next(r for r in ui.find_all(PlayerRow) if r.name == name))
    ui.until(lambda: ui.app.root.current == "player")


def page_rows(page) -> dict[str, str]:
    return dict(page.rows)


def test_a_players_page_shows_the_league_then_one_tables_games_by_touch(ui) -> None:
    """From Players to a player's page by touch: the league's games, a row a table saying how many were there;
    a tap on the table button and the page counts that table's games alone; the chart and the versus list
    follow it. Opened from Players filtered to a table, the page opens at that table."""
    from companion.ui.screens.games import profile_title

    ui.start()
    table_1 = two_tables(ui, here=8, there=10)
    path = ui.app.store.path
    with sqlite3.connect(path) as db:
        profiles = sorted({row[0] for row in db.execute("SELECT DISTINCT profile FROM games")})
    for profile in profiles:  # a player with games under these rules at both tables
        league = by_player(path, "games.profile = ?", (profile,))
        here = by_player(path, "games.profile = ? AND games.table_id IS NULL", (profile,))
        there = by_player(path, "games.profile = ? AND games.table_id = ?", (profile, table_1))
        both = sorted((n for n in league if n in here and n in there), key=lambda n: -league[n][0])
        if both:
            name = both[0]
            break
    ui.app.show("players")
    ui.step(3)
    players = ui.app.screen("players")
    tap_player(ui, name)
    page = ui.app.screen("player")
    ui.step(2)
    ui.tap(next(b for b in page.ids.profiles.children if b.text == profile_title(profile)))
    ui.step(2)
    choice = page.ids.table_choice
    assert page.profile == profile and choice.opacity == 1 and choice.text == "All tables"
    rows = page_rows(page)
    assert rows["Games"] == str(league[name][0]) and rows["Games at Table 1"] == str(there[name][0])
    assert rows["Games at Table 2"] == str(here[name][0])
    chart = len(page.ids.chart.series[0][1])
    ui.tap(choice)
    ui.step(2)
    rows = page_rows(page)
    assert choice.text == "Table 2" and rows["Games"] == str(here[name][0])
    assert rows["Wins"].startswith(f"{here[name][1]} · ")
    assert "Games at Table 1" not in rows and rows["Games at Table 2"] == str(here[name][0])
    assert len(page.ids.chart.series[0][1]) == here[name][0] < chart
    ui.tap(choice)
    ui.step(2)
    rows = page_rows(page)
    assert choice.table == table_1 and rows["Games"] == str(there[name][0]) and "Games at Table 2" not in rows
    ui.tap(page.ids.versus_tab)
    ui.step(2)
    with sqlite3.connect(path) as db:
        met = {other for (other,) in db.execute(
            "SELECT DISTINCT theirs.name FROM scores AS mine JOIN scores AS other ON other.game_id = mine.game_id"
            " JOIN players AS me ON me.id = mine.player_id JOIN players AS theirs ON theirs.id = other.player_id"
            " JOIN games ON games.id = mine.game_id WHERE me.name = ? AND theirs.name != ? AND games.table_id = ?",
            [name, name, table_1])}
    assert {button.text for button in page.ids.opponents.children} == met
    ui.tap(choice)
    ui.step(2)
    assert choice.table is None and page_rows(page)["Games"] == str(league[name][0])

    ui.tap(page.ids.header.ids.back)
    ui.until(lambda: ui.app.root.current == "players")
    ui.tap(players.ids.table_choice)  # Players at this table: the page opens there
    ui.step(3)
    tap_player(ui, name)
    assert choice.table == HERE and page_rows(page)["Games"] == str(here[name][0])


def test_a_single_tables_players_player_and_tonight_have_no_table_filter(ui) -> None:
    ui.start()
    from companion.store.simulate import simulate

    simulate(ui.app.store, 5, 3, datetime.now(UTC) - timedelta(hours=6))
    ui.app.screen("player").open(ui.app.store.players()[0])
    for name in ("players", "tonight", "player"):
        ui.app.show(name)
        ui.step(3)
        choice = ui.app.screen(name).ids.table_choice
        assert choice.opacity == 0 and choice.width == 0 and choice.disabled
    assert not any(label.startswith("Games at ") for label, _value in ui.app.screen("player").rows)
    assert "at Table" not in ui.app.screen("tonight").since


def test_tonight_shows_each_tables_games_and_one_tables_evening_by_touch(ui) -> None:
    ui.start()
    table_1 = two_tables(ui, datetime.now(UTC) - timedelta(hours=9), here=5, there=6)
    ui.app.show("tonight")
    ui.step(3)
    screen = ui.app.screen("tonight")
    assert "11 games: 6 at Table 1, 5 at Table 2" in screen.since
    ui.tap(screen.ids.table_choice)  # this table's evening
    assert "5 games ·" in screen.since and "at Table" not in screen.since
    with sqlite3.connect(ui.app.store.path) as db:
        seats = sum(len(json.loads(row[0])) for row in db.execute(
            "SELECT seats FROM games WHERE table_id IS NULL AND ended_at IS NOT NULL"))
    assert sum(int(row[2]) for row in screen.standings) == seats
    ui.tap(screen.ids.table_choice)
    assert "6 games ·" in screen.since and screen.ids.table_choice.table == table_1


def test_saved_games_name_each_games_table(ui) -> None:
    ui.start()
    table_1 = two_tables(ui, here=3, there=4)
    ui.app.show("games")
    ui.step(3)
    screen = ui.app.screen("games")
    with sqlite3.connect(ui.app.store.path) as db:
        at = dict(db.execute("SELECT id, coalesce(table_id, '') FROM games"))
    names = {HERE: "Table 2", table_1: "Table 1"}
    assert len(screen.ids.list.data) == 7
    for row in screen.ids.list.data:
        assert row["names"].text.startswith(f"{names[at[row['game_id']]]} · ")
    assert screen.league == ""  # no league on: no strip
    assert screen.ids.league.height == 0


def test_the_strip_says_the_league_state_while_it_is_on_and_nothing_once_it_is_off(ui) -> None:
    folder = Path(tempfile.mkdtemp(prefix="lr-", dir="/tmp"))  # short: a Unix socket's path has at most 107 bytes
    config = LeagueConfig(table_name="Table 2", folder=folder / "league", listen=f"tcp://127.0.0.1:{free_port()}")
    league = League(config)
    syncthing = Syncthing(league.root / "syncthing", config.listen, local_discovery=False)
    try:
        syncthing.start()
        start_league(league, syncthing)
        ui.start(config=ui.config(league=config))
        ui.app.show("games")
        screen = ui.app.screen("games")
        ui.until(lambda: screen.league != "", seconds=15)
        assert screen.league == "League: this table alone so far; another table joins from its Settings, League"
        assert screen.ids.league.height > 0 and screen.ids.league.opacity == 1
        syncthing.stop()
        screen.ask_league()
        ui.until(lambda: screen.league == "League: this table's Syncthing is not running", seconds=15)
        (league.root / "on").unlink()  # the league left
        screen.ask_league()
        ui.until(lambda: screen.league == "", seconds=15)
        ui.step(2)
        assert screen.ids.league.height == 0
    finally:
        syncthing.stop()
        shutil.rmtree(folder, ignore_errors=True)
