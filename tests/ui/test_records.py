"""The Records screen by touch in a real window: reached from Players, each record as the store keeps it
(``records``), a tap opening its game's page, a league's records table by table, the empty store, and Persian.

The store's records are checked against the seats' rows read with SQL too (``best_seat``), so a screen that
showed the store's answer to another question would fail.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, UTC
from pathlib import Path
from typing import Any

from scenes_review import simulated, two_tables
from scenes_setup import save_games

from companion.config import UiConfig
from companion.store.review import HERE, RecordKind, records
from companion.ui.i18n import when

TITLES = {RecordKind.HIGHEST_SCORE: "Highest score", RecordKind.BIGGEST_STACK: "Biggest stack won",
          RecordKind.LONGEST_GAME: "Longest game", RecordKind.MOST_CHALLENGES_WON: "Most challenges won",
          RecordKind.LONGEST_SURVIVAL: "Longest run survived"}
UNITS = {RecordKind.HIGHEST_SCORE: "points", RecordKind.BIGGEST_STACK: "cards", RecordKind.LONGEST_GAME: "min",
         RecordKind.MOST_CHALLENGES_WON: "challenges", RecordKind.LONGEST_SURVIVAL: "challenges"}


def rows(ui: Any) -> dict[str, Any]:
    """The rows on screen, by their title."""
    from companion.ui.screens.records import RecordRow

    return {row.title: row for row in ui.find_all(RecordRow)}


def open_records(ui: Any) -> Any:
    """Players, then its Records button, by touch."""
    players = ui.app.screen("players")
    ui.app.show("players")
    ui.step(3)
    ui.tap(players.ids.records)
    ui.until(lambda: ui.app.root.current == "records")
    ui.step(2)
    return ui.app.screen("records")


def shown_as_kept(ui: Any, table: str | None = None, places: dict[str, str] | None = None) -> None:
    """Every record on screen is the store's: its value in its unit, its holder, its game's date (and table)."""
    found = {record.kind: record for record in records(ui.app.store, table)}
    shown = rows(ui)
    assert set(shown) == set(TITLES.values())
    for kind, title in TITLES.items():
        row, record = shown[title], found.get(kind)
        if record is None:
            assert row.game_id == 0 and row.value == "" and row.game == "No game has set it yet"
            continue
        assert row.value.split(" ")[0] == str(record.value) and row.value.endswith(UNITS[kind])
        assert row.game_id == record.game_id
        assert row.holder == (record.name or "Everyone who played it")
        at = f" · {places[record.table]}" if places else ""
        assert row.game == when(record.started_at) + at


def best_seat(path: Path, column: str, where: str = "1", params: tuple[object, ...] = ()) -> tuple[int, str, int]:
    """The highest of a seat figure, its player and game, read with SQL: the first game to reach it."""
    with sqlite3.connect(path) as db:
        return db.execute(
            f"SELECT scores.{column}, players.name, games.id FROM scores JOIN players ON players.id = scores.player_id"
            f" JOIN games ON games.id = scores.game_id WHERE {where}"
            f" ORDER BY scores.{column} DESC, games.started_at, games.id LIMIT 1", params).fetchone()


def test_records_show_what_the_store_keeps_and_a_tap_opens_that_game(ui: Any) -> None:
    ui.start()
    simulated(ui)
    screen = open_records(ui)
    assert screen.ids.table_choice.opacity == 0 and not screen.empty  # one table's store: no table button
    shown_as_kept(ui)
    path = ui.app.store.path
    score, holder, game_id = best_seat(path, "score")
    top = rows(ui)["Highest score"]
    assert (top.value, top.holder, top.game_id) == (f"{score} points", holder, game_id)
    stack = rows(ui)["Biggest stack won"]
    assert (int(stack.value.split()[0]), stack.holder, stack.game_id) == best_seat(path, "biggest_stack")
    for title in ("Highest score", "Longest game"):
        row = rows(ui)[title]
        ui.tap(row)
        ui.until(lambda: ui.app.root.current == "game")
        page = ui.app.screen("game")
        assert page.game_id == row.game_id
        ui.tap(page.ids.header.ids.back)  # back where the record was tapped, not to Saved games
        ui.until(lambda: ui.app.root.current == "records")
        ui.step(2)


def test_a_record_no_game_has_set_says_so_and_opens_nothing(ui: Any) -> None:
    """One finished game with no challenge, no stack won and no score above zero: only the longest game is
    set; the other rows say so, and a tap on one stays on Records."""
    ui.start()
    save_games(ui)
    open_records(ui)
    shown_as_kept(ui)
    shown = rows(ui)
    assert shown["Longest game"].game_id > 0
    unset = shown["Most challenges won"]
    assert unset.game == "No game has set it yet" and unset.value == ""
    ui.tap(unset)
    ui.step(3)
    assert ui.app.root.current == "records"


def test_an_empty_store_says_so_in_one_line(ui: Any) -> None:
    ui.start()
    screen = open_records(ui)
    assert screen.empty and rows(ui) == {}
    line = next(label for label in screen.walk() if getattr(label, "text", "") ==
                "No finished game yet: the records start with the first one")
    assert line.opacity == 1


def test_a_leagues_records_table_by_table_by_touch(ui: Any) -> None:
    """The league's records with each game's table, then this table's alone, then Table 1's, then the league's
    again; opened from Players showing one table, Records opens at that table."""
    ui.start()
    table_1 = two_tables(ui)
    places = {HERE: "Table 2", table_1: "Table 1"}
    screen = open_records(ui)
    choice = screen.ids.table_choice
    assert choice.opacity == 1 and choice.text == "All tables" and choice.table is None
    shown_as_kept(ui, None, places)
    path = ui.app.store.path
    assert rows(ui)["Highest score"].game_id == best_seat(path, "score")[2]
    ui.tap(choice)
    ui.step(2)
    assert choice.text == "Table 2" and choice.table == HERE
    shown_as_kept(ui, HERE, places)
    assert rows(ui)["Highest score"].game_id == best_seat(path, "score", "games.table_id IS NULL")[2]
    ui.tap(choice)
    ui.step(2)
    assert choice.table == table_1
    shown_as_kept(ui, table_1, places)
    assert rows(ui)["Highest score"].game_id == best_seat(path, "score", "games.table_id = ?", (table_1,))[2]
    assert records(ui.app.store, HERE) != records(ui.app.store, table_1)
    row = rows(ui)["Biggest stack won"]
    ui.tap(row)
    ui.until(lambda: ui.app.root.current == "game")
    assert ui.app.screen("game").game_id == row.game_id
    ui.tap(ui.app.screen("game").ids.header.ids.back)
    ui.until(lambda: ui.app.root.current == "records")
    assert choice.table == table_1  # still Table 1's records
    ui.tap(choice)
    ui.step(2)
    assert choice.table is None
    shown_as_kept(ui, None, places)

    ui.tap(screen.ids.header.ids.back)
    ui.until(lambda: ui.app.root.current == "players")
    players = ui.app.screen("players")
    ui.tap(players.ids.table_choice)  # Players at this table: Records opens there
    ui.step(2)
    assert players.ids.table_choice.table == HERE
    open_records(ui)
    assert choice.table == HERE
    shown_as_kept(ui, HERE, places)


def test_records_in_persian_are_mirrored_and_name_a_persian_player(ui: Any) -> None:
    """Right to left: Back at the right, each row's value left of its title; a Persian name holds a record."""
    from companion.ui.screens.records import record_words
    from companion.store.simulate import simulate

    ui.start(size=(720, 1280), config=ui.config(ui=UiConfig(language="fa")))
    simulate(ui.app.store, 8, 3, datetime.now(UTC) - timedelta(days=2))
    ui.app.store.rename_player(records(ui.app.store)[0].name, "سارا")
    screen = open_records(ui)
    players = ui.app.screen("players")
    assert players.ids.records.parent is players.ids.add_row.__self__  # standing: beside Add, not in the bar
    header = screen.ids.header
    assert header.ids.back.center_x > ui.app.root.width / 2
    top = rows(ui)[record_words(RecordKind.HIGHEST_SCORE)[0]]
    assert top.holder == "سارا"
    labels = {label.text: label for label in top.walk(restrict=True)
              if getattr(label, "text", None) in (top.title, top.value)}
    assert labels[top.value].right <= labels[top.title].x + 1  # the value at the left, the title at the right
    ui.tap(top)
    ui.until(lambda: ui.app.root.current == "game")
    assert ui.app.screen("game").game_id == top.game_id
