"""Scenes of the review: the saved games' list and filters, a game's page and its score race."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta, UTC
from typing import Any

from scenes import scene
from scenes_setup import goto, save_games

from companion.rules import SPICY, EndCardDrawn, Play, new_setup
from companion.config import LeagueConfig
from companion.table.session import Session
from companion.store import Store
from companion.league.folders import League
from companion.league.syncthing import Standing, league_words

from companion.store.simulate import simulate

START = datetime(2026, 10, 20, 19, tzinfo=UTC)


def simulated(ui: Any, games: int = 40) -> None:
    """Random games an hour apart, saved as a table would, and the two hand-made ones of ``save_games``."""
    simulate(ui.app.store, games, 11, START)
    save_games(ui)


def longest_spicy(ui: Any) -> int:
    """The Spicy game with the most moves: a timeline and a race with something in them."""
    (game_id,) = ui.app.store.query(
        "SELECT id FROM games WHERE profile = 'spicy' AND ended_at IS NOT NULL"
        " ORDER BY (SELECT count(*) FROM actions WHERE game_id = games.id) DESC LIMIT 1")[0]
    return int(game_id)


@scene("games")
def games(ui: Any) -> None:
    simulated(ui)
    goto(ui, "games")


@scene("games-edges")
def games_edges(ui: Any) -> None:
    """Long names, an abandoned game and a note: the rows that have the most to fit."""
    simulated(ui, 3)
    store = ui.app.store
    names = ["Bartholomew-Alexander", "Anastasia Konstantinopoulou", "Zoë", "Maximiliane"]
    long = Session.new(store, new_setup(SPICY, names))
    for action in (Play(0, "chili", 2), Play(1, "chili", 5)):
        long.apply(action)
    store.abandon(long.game_id, START.isoformat())
    won = Session.new(store, new_setup(SPICY, names[:3], end_card=27))
    for action in (Play(0, "chili", 2), Play(1, "chili", 5), EndCardDrawn()):
        won.apply(action)
    store.set_note(won.game_id, "Zoë's first win, after a long evening of bluffs and challenges")
    goto(ui, "games")


@scene("games-filters")
def games_filters(ui: Any) -> None:
    simulated(ui)
    screen = goto(ui, "games")
    ui.tap(screen.ids.filters)
    ui.tap(next(b for b in screen.ids.profile.children if b.text == "Spicy"))


@scene("game")
def game(ui: Any) -> None:
    simulated(ui)
    ui.app.screen("game").open(longest_spicy(ui))
    goto(ui, "game")


@scene("game-race")
def game_race(ui: Any) -> None:
    game(ui)
    page = ui.app.screen("game")
    ui.tap(page.ids.race_button)


def busiest(ui: Any) -> str:
    """The player with the most finished games."""
    return str(ui.app.store.query(
        "SELECT name FROM players JOIN scores ON scores.player_id = players.id GROUP BY players.id"
        " ORDER BY count(*) DESC, name LIMIT 1")[0][0])


@scene("players")
def players(ui: Any) -> None:
    simulated(ui)
    goto(ui, "players")


def player_page(ui: Any) -> Any:
    simulated(ui)
    page = ui.app.screen("player")
    page.open(busiest(ui))
    goto(ui, "player")
    return page


@scene("player")
def player(ui: Any) -> None:
    player_page(ui)


@scene("player-buzzes")
def player_buzzes(ui: Any) -> None:
    """The page scrolled down to the buzz figures, under the bluffing ones."""
    page = player_page(ui)
    page.ids.figures.parent.scroll_y = 0


@scene("player-versus")
def player_versus(ui: Any) -> None:
    page = player_page(ui)
    ui.tap(page.ids.versus_tab)
    ui.tap(page.ids.opponents.children[-1])


@scene("player-manage")
def player_manage(ui: Any) -> None:
    page = player_page(ui)
    ui.tap(page.ids.manage_tab)
    ui.tap(page.ids.merge.children[-1])


@scene("tonight")
def tonight(ui: Any) -> None:
    simulate(ui.app.store, 12, 5, datetime.now(UTC) - timedelta(hours=14))
    goto(ui, "tonight")


def replaying(ui: Any) -> Any:
    """The longest Spicy game's page, then Replay: the table at the deal."""
    game(ui)
    ui.tap(ui.app.screen("game").ids.replay)
    ui.until(lambda: ui.app.root.current == "replay")
    return ui.app.screen("replay")


@scene("replay")
def replay(ui: Any) -> None:
    """A few moves in, then on to the first challenge: the table as it stood, the controls under it."""
    screen = replaying(ui)
    ui.tap(screen.ids.next_challenge)


# --- club night: two tables' games in this table's store -----------------------------


def two_tables(ui: Any, start: datetime = START, here: int = 14, there: int = 20) -> str:
    """This table ("Table 2") with games of its own and Table 1's, taken in through the league folder as
    Syncthing brings them (a copy of Table 1's folder); returns Table 1's id."""
    folder = ui.app.config_.league.folder
    own = League(LeagueConfig(table_name="Table 2", table_id="table-2", folder=folder))
    other = League(LeagueConfig(table_name="Table 1", table_id="table-1", folder=folder.parent / "table-1"))
    with Store.open(folder.parent / "table-1.db") as theirs:
        simulate(theirs, there, 21, start + timedelta(minutes=20))
        other.publish_ended(theirs)
    shutil.copytree(other.own, own.folder_of(other.table.id), dirs_exist_ok=True)
    simulate(ui.app.store, here, 11, start)
    own.import_tables(ui.app.store)
    return other.table.id


def league_strip(ui: Any, screen: Any) -> None:
    """The strip as a league of three tables says it, one table out of reach and another's games arriving (the
    words of ``companion.league.syncthing``; the app's own questions to Syncthing stopped, so they stay)."""
    screen.on_leave()
    screen._asking = True
    now = datetime.now(UTC)
    screen._told(league_words([Standing("Table 1", True, now, 3), Standing("Table 3", False, now - timedelta(days=3), 0)],
                              now))
    ui.step(3)


@scene("league-games")
def league_games(ui: Any) -> None:
    two_tables(ui)
    screen = goto(ui, "games")
    league_strip(ui, screen)


@scene("league-games-filters")
def league_games_filters(ui: Any) -> None:
    table_1 = two_tables(ui)
    screen = goto(ui, "games")
    ui.tap(screen.ids.filters)
    panel = screen.ids.panel
    if panel.children[0].height > panel.height:
        panel.scroll_y = 0  # the tables' choices, under the players', when they are below the screen's edge
    ui.step(3)
    ui.tap(next(b for b in screen.ids.table.children if b.text == "Table 1"))
    assert screen.chosen.table == table_1


@scene("league-players")
def league_players(ui: Any) -> None:
    two_tables(ui)
    screen = goto(ui, "players")
    ui.tap(screen.ids.table_choice)  # this table's players


@scene("league-player")
def league_player(ui: Any) -> None:
    two_tables(ui)
    page = ui.app.screen("player")
    page.open(busiest(ui))
    goto(ui, "player")


def at_table_1(ui: Any, screen: Any) -> None:
    """A league screen's table button tapped twice: past this table's games, to Table 1's."""
    ui.tap(screen.ids.table_choice)
    ui.tap(screen.ids.table_choice)
    ui.step(3)


@scene("league-player-table")
def league_player_table(ui: Any) -> None:
    """A player's page at one table: its button tapped twice, to Table 1's games."""
    league_player(ui)
    at_table_1(ui, ui.app.screen("player"))


@scene("league-tonight")
def league_tonight(ui: Any) -> None:
    two_tables(ui, datetime.now(UTC) - timedelta(hours=9), here=5, there=6)
    goto(ui, "tonight")


@scene("records")
def records(ui: Any) -> None:
    """The records, reached from Players by its button."""
    simulated(ui)
    screen = goto(ui, "players")
    ui.tap(screen.ids.records)
    ui.until(lambda: ui.app.root.current == "records")


@scene("records-empty")
def records_empty(ui: Any) -> None:
    """No finished game yet: one line, not an empty screen."""
    goto(ui, "records")


@scene("league-records")
def league_records(ui: Any) -> None:
    """The league's records, each with the table its game was at."""
    two_tables(ui)
    goto(ui, "records")


@scene("league-records-table")
def league_records_table(ui: Any) -> None:
    """One table's records: the table button tapped twice, to Table 1's."""
    league_records(ui)
    at_table_1(ui, ui.app.screen("records"))
