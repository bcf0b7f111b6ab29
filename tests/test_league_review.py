"""The review over a league: which table each game was at, and one table's games, on real SQLite files.

Two tables play their own games into real stores; Table 2 takes Table 1's in
through the league folder (``send`` copies it as Syncthing would). The figures
expected are counted from the games' own rows, not from the queries under test.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from datetime import timedelta
from pathlib import Path

from cli_helpers import run
from store_helpers import undo_migrations_from
from test_league import START, send, table

from companion.store import Store
from companion.store.review import (HERE, Filter, buzz_figures, count_games, figures, games_page, head_to_heads, nemesis,
                                    player_lines, player_tables, records, results, rival, tables, tonight)
from companion.store.simulate import simulate


def league_of_two(tmp_path: Path, there: int = 6, here: int = 4) -> tuple[Store, Store, str]:
    """Table 2's store with its own games and Table 1's taken in; Table 1's store; Table 1's id."""
    a, b = table(tmp_path, "Table 1"), table(tmp_path, "Table 2")
    pi, other = Store.open(tmp_path / "a.db"), Store.open(tmp_path / "b.db")
    simulate(pi, there, seed=11, start=START)
    simulate(other, here, seed=12, start=START + timedelta(minutes=30))
    a.publish_ended(pi)
    send(a, b)
    done = b.import_tables(other)
    assert (done.added, done.notices) == (there, [])
    return other, pi, a.table.id


def finished_by_player(path: Path) -> tuple[Counter[str], Counter[str]]:
    """Each player's finished games and wins in a file, read from the games' rows themselves."""
    games, wins = Counter[str](), Counter[str]()
    with sqlite3.connect(path) as db:
        for seats, winners in db.execute("SELECT seats, winners FROM games WHERE ended_at IS NOT NULL"):
            for seat in json.loads(seats):
                name = seat if isinstance(seat, str) else seat["name"]
                games[name] += 1
                wins[name] += name in json.loads(winners)
    return games, wins


def test_each_game_is_at_its_table_and_the_filter_shows_one_tables(tmp_path: Path) -> None:
    store, pi, table_1 = league_of_two(tmp_path)
    found = tables(store)
    assert [(place.id, place.name, place.games) for place in found] == [(HERE, "Table 2", 4), (table_1, "Table 1", 6)]
    assert count_games(store) == 10
    assert count_games(store, Filter(table=table_1)) == 6 and count_games(store, Filter(table=HERE)) == 4
    theirs = {line.started_at for line in games_page(store, Filter(table=table_1))}
    assert theirs == {line.started_at for line in games_page(pi)}

    games, wins = finished_by_player(pi.path)
    at_1 = {line.name: (line.games, line.wins) for line in player_lines(store, table=table_1)}
    assert at_1 == {name: (games[name], wins[name]) for name in games}
    everywhere = {line.name: (line.games, line.wins) for line in player_lines(store)}
    league_games, league_wins = finished_by_player(store.path)  # Table 2's file: its games and Table 1's
    assert everywhere == {name: (league_games[name], league_wins[name]) for name in league_games}
    assert sum(league_games.values()) > sum(games.values())
    with sqlite3.connect(store.path) as db:  # this table's, the fewer games: summed from their own seats
        here = {name: (count, wins) for name, count, wins in db.execute(
            "SELECT players.name, count(*), sum(scores.winner) FROM scores JOIN players ON players.id ="
            " scores.player_id JOIN games ON games.id = scores.game_id WHERE games.table_id IS NULL"
            " GROUP BY players.id")}
    assert {line.name: (line.games, line.wins) for line in player_lines(store, table=HERE)} == here

    player = max(everywhere, key=lambda name: everywhere[name][0])
    profiles = {row[0] for row in store.query("SELECT profile FROM games")}
    shown = [result for profile in profiles for result in results(store, player, profile)]
    assert {result.table for result in shown} <= {HERE, table_1}
    with sqlite3.connect(store.path) as db:
        where = dict(db.execute("SELECT id, coalesce(table_id, '') FROM games"))
    assert all(result.table == where[result.game_id] for result in shown)
    assert all(record.table == where[record.game_id] for record in records(store))
    for profile in profiles:
        at = dict(player_tables(store, player, profile))
        assert at == dict(Counter(where[result.game_id] for result in results(store, player, profile, 10**6)))
    assert all(where[record.game_id] == table_1 for record in records(store, table=table_1))
    assert all(where[record.game_id] == HERE for record in records(store, table=HERE))


def page_of(store: Store, player: str, table: str | None = None) -> dict[str, object]:
    """Everything a player's page shows, at one table with ``table``; each game by its start, not its id (the
    same game has another id in another file)."""
    profiles = sorted({f.profile for f in figures(store, player=player, table=table)})
    return {
        "figures": figures(store, player=player, table=table),
        "buzzes": buzz_figures(store, player, table),
        "versus": head_to_heads(store, player, table=table),
        "rival": rival(store, player, table), "nemesis": nemesis(store, player, table),
        "results": [(r.started_at, r.profile, r.score, r.won, r.place)
                    for profile in profiles for r in results(store, player, profile, table=table)],
    }


def test_a_players_page_at_one_table_is_that_tables_own_figures(tmp_path: Path) -> None:
    """The league's store filtered to Table 1 shows each player what Table 1's own file shows them, and
    filtered to this table what the same games played alone show: two tables' figures that differ."""
    store, pi, table_1 = league_of_two(tmp_path, there=14, here=9)
    alone = Store.open(tmp_path / "alone.db")  # this table's games again, played with the same seed
    simulate(alone, 9, seed=12, start=START + timedelta(minutes=30))
    both = set(pi.players()) & set(alone.players())
    assert both, "the two tables share players"
    for player in both:
        league, at_1, here = page_of(store, player), page_of(store, player, table_1), page_of(store, player, HERE)
        assert at_1 == page_of(pi, player)
        assert here == page_of(alone, player)
        assert at_1 != here and league not in (at_1, here)
        games = {f.profile: f.games for f in figures(store, player=player)}
        assert games == dict(Counter({f.profile: f.games for f in figures(pi, player=player)}) + Counter(
            {f.profile: f.games for f in figures(alone, player=player)}))
    assert any(page_of(store, player, table_1)["buzzes"] for player in both), "some buzz figures compared"
    assert any(page_of(store, player, table_1)["versus"] for player in both), "some head-to-heads compared"


def test_the_records_at_one_table_are_that_tables_own(tmp_path: Path) -> None:
    store, pi, table_1 = league_of_two(tmp_path, there=14, here=9)
    alone = Store.open(tmp_path / "alone.db")
    simulate(alone, 9, seed=12, start=START + timedelta(minutes=30))

    def seen(found: list) -> list[tuple[str, int, str | None]]:
        return [(r.kind, r.value, r.name) for r in found]

    assert seen(records(store, table=table_1)) == seen(records(pi))
    assert seen(records(store, table=HERE)) == seen(records(alone))
    assert seen(records(store, table=table_1)) != seen(records(store, table=HERE))


def test_tonight_counts_each_tables_games_and_one_tables_evening(tmp_path: Path) -> None:
    store, _pi, table_1 = league_of_two(tmp_path)
    evening = tonight(store)
    assert evening is not None and len(evening.games) == 10
    assert dict(evening.tables) == {table_1: 6, HERE: 4}
    one = tonight(store, table=table_1)
    assert one is not None and len(one.games) == 6 and one.tables == ()
    with sqlite3.connect(store.path) as db:
        ids = {game_id for (game_id,) in db.execute("SELECT id FROM games WHERE table_id = ?", [table_1])}
    assert set(one.games) == ids
    assert sum(s.games for s in one.standings) == sum(
        len(json.loads(seats)) for (seats,) in store.query(
            "SELECT seats FROM games WHERE table_id = ? AND ended_at IS NOT NULL", [table_1]))


def test_one_tables_store_names_no_table(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "alone.db")
    simulate(store, 3, seed=5, start=START)
    assert [(place.id, place.games) for place in tables(store)] == [(HERE, 3)]
    evening = tonight(store)
    assert evening is not None and evening.tables == ()


def test_a_file_from_before_tables_gets_them_from_the_next_import(tmp_path: Path) -> None:
    """A store an older version filled from the league: the migration adds the column, the next import finds
    each game's table by its file's name, and nothing is imported twice."""
    a, b = table(tmp_path, "Table 1"), table(tmp_path, "Table 2")
    pi, other = Store.open(tmp_path / "a.db"), Store.open(tmp_path / "b.db")
    simulate(pi, 5, seed=21, start=START)
    simulate(other, 2, seed=22, start=START)
    a.publish_ended(pi)
    send(a, b)
    b.import_tables(other)
    other.close()
    with sqlite3.connect(tmp_path / "b.db") as db:
        undo_migrations_from(db, "m017_game_table")  # the file as the version before left it
        assert "table_id" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}
    old = Store.open(tmp_path / "b.db")
    assert [place.id for place in tables(old)] == [HERE]  # migrated: every game as if played here, for now
    done = b.import_tables(old)
    assert (done.added, done.already) == (0, 0)  # every file was read already
    assert [(place.id, place.name, place.games) for place in tables(old)] == [
        (HERE, "Table 2", 2), (a.table.id, "Table 1", 5)]
    assert count_games(old) == 7
    assert b.import_tables(old).added == 0


def test_a_table_renamed_is_named_anew_and_its_games_stay_its(tmp_path: Path) -> None:
    store, pi, table_1 = league_of_two(tmp_path, there=2, here=1)
    renamed = table(tmp_path, "Table 1")
    folder = renamed.own / "table.json"
    described = json.loads(folder.read_text())
    folder.write_text(json.dumps({**described, "name": "The window table"}))
    send(renamed, table(tmp_path, "Table 2"))
    table(tmp_path, "Table 2").import_tables(store)
    assert [(place.id, place.name, place.games) for place in tables(store)][1] == (table_1, "The window table", 2)


def test_the_records_command_names_each_records_table(tmp_path: Path, capsys) -> None:
    store, _pi, table_1 = league_of_two(tmp_path)
    names = {HERE: "Table 2", table_1: "Table 1"}
    found = records(store)
    store.close()
    code, out, _ = run(capsys, "stats", "--records", "--db", str(tmp_path / "b.db"))
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[-1] == "table"
    for record in found:
        shown = [line for line in lines if f"#{record.game_id} " in line + " "]
        assert shown and all(line.rstrip().endswith(names[record.table]) for line in shown)


def test_the_stats_command_shows_one_tables_records_and_page(tmp_path: Path, capsys) -> None:
    store, pi, table_1 = league_of_two(tmp_path, there=14, here=9)
    at_1 = records(store, table=table_1)
    player = max(pi.players(), key=lambda name: sum(f.games for f in figures(pi, player=name)))
    games = sum(f.games for f in figures(store, player=player, table=table_1))
    store.close()
    db = str(tmp_path / "b.db")
    code, out, _ = run(capsys, "stats", "--records", "--table", "table 1", "--db", db)
    shown = out.splitlines()[1:]
    assert code == 0 and len(shown) == len(at_1)
    assert all(f"#{r.game_id} " in line + " " and line.rstrip().endswith("Table 1") for r, line in zip(at_1, shown, strict=True))
    code, out, _ = run(capsys, "stats", "--player", player, "--table", "Table 1", "--db", db)
    assert code == 0 and [line.split()[1:] for line in out.splitlines() if line.startswith("games ")] == [
        [str(f.games) for f in figures(pi, player=player)]]
    assert games == sum(f.games for f in figures(pi, player=player))
    code, out, err = run(capsys, "stats", "--records", "--table", "Table 9", "--db", db)
    assert code != 0 and "no table named Table 9" in out + err and "Table 1" in out + err
    code, out, err = run(capsys, "stats", "--table", "Table 1", "--db", db)
    assert code != 0 and "--table is for --records or --player" in out + err
