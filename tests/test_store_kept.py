"""What the store keeps so set-up, ``stats`` and ``games`` stay fast: always what a full read would say."""

from __future__ import annotations

import random
import statistics
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database
from store_helpers import KNOWN, undo_migrations_from
from test_league import send, table
from test_league_review import league_of_two, page_of
from test_store_ratings import STEPS, random_recorded, sometime

from companion.random_play import random_game
from companion.rules import FIVE_SPICES, Challenge, EndCardDrawn, Redo, Undo, new_setup, replay_transcript
from companion.table.session import Session
from companion.store import PlayerStats, Recorded, Store, StoreError
from companion.store.schema import AT_TABLES, MIGRATIONS, PLAYER_STATS
from companion.store.backup import backup, plan_restore, restore
from companion.store import db as db_module
from companion.rules.errors import Reason
from companion.store.review import (
    HERE,
    BuzzFigures,
    Figures,
    HeadToHead,
    Opponent,
    PlayerLine,
    at_tables_kept,
    buzz_figures,
    figures,
    head_to_heads,
    nemesis,
    player_lines,
    player_tables,
    games_page,
    rival,
    tables,
)
from companion.store.simulate import simulate, simulated_buzz

START = datetime(2024, 1, 1, tzinfo=UTC)
RECENT_BY_READING_EVERY_SEAT = (
    "SELECT players.name FROM players"
    " LEFT JOIN game_seats ON game_seats.player_id = players.id"
    " LEFT JOIN games ON games.id = game_seats.game_id"
    " GROUP BY players.id"
    " ORDER BY max(coalesce(games.started_at, players.created_at)) DESC, players.id DESC"
)
"""How ``recent_players`` was worked out before the kept ``last_played``: the truth to compare with."""


def stats_from_every_seat(store: Store) -> list[PlayerStats]:
    """The aggregate over every row of ``scores`` (the view before ``player_totals``), in ``stats``' order."""
    rows = store.query(
        "SELECT name, games, wins, win_rate, average_score, trophies, challenges_made, challenges_won,"
        f" caught_bluffing, survived_challenges FROM ({PLAYER_STATS}) ORDER BY wins DESC, win_rate DESC, name"
    )
    return [PlayerStats(*row) for row in rows]


def assert_kept_as_read(store: Store) -> None:
    assert store.stats() == stats_from_every_seat(store)
    assert store.recent_players(retired=True) == [name for (name,) in store.query(RECENT_BY_READING_EVERY_SEAT)]


def play_known(store: Store, at: str) -> Session:
    """The known game played live to its end (the World's End card), its challenges won by buzzer."""
    game = replay_transcript(KNOWN)
    session = Session.new(store, game.setup, clock=lambda: at)
    for seq, action in enumerate(game.log, start=1):
        session.apply(action, simulated_buzz(random.Random(seq)) if isinstance(action, Challenge) else None)
    assert session.state.ended
    return session


def test_stats_and_regulars_stay_as_a_full_read_says_through_ends_undos_imports_and_simulate(tmp_path: Path) -> None:
    rng = random.Random(4)
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 12, seed=3, start=START)
        assert_kept_as_read(store)
        live = play_known(store, "2099-01-01T20:00:00.000+00:00")
        assert_kept_as_read(store)
        for _ in range(3):
            live.apply(Undo())  # takes back the end: the game is unfinished and its seats leave the totals
            assert not live.state.ended
            assert_kept_as_read(store)
            live.apply(Redo())
            assert_kept_as_read(store)
        live.apply(Undo())
        live.apply(EndCardDrawn())  # ends again by a new action after the undo
        assert_kept_as_read(store)
        game = replay_transcript(KNOWN)
        store.save([Recorded(game, "2030-01-01T20:00:00.000+00:00", ["2030-01-01T20:01:00.000+00:00"]
                             * len(game.log))])
        store.add_player("Zed")
        assert_kept_as_read(store)
        simulate(store, 8, seed=rng.randrange(100), start=START)
        assert_kept_as_read(store)
        # A hand edit (sqlite-utils, Datasette) of a kept column moves the totals with it.
        store.db.execute("UPDATE scores SET trophies = trophies + 1, score = score + 10 WHERE seat = 0")
        assert_kept_as_read(store)
        assert len(store.stats()) > 4


@pytest.mark.parametrize("stop_before", ["m004_player_last_played", "m005_player_totals"])
def test_a_database_from_before_the_kept_sums_gets_them_from_its_games(tmp_path: Path, stop_before: str) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, 15, seed=8, start=START)
        play_known(store, "2099-01-01T20:00:00.000+00:00").apply(Undo())
        expected = (stats_from_every_seat(store), [name for (name,) in store.query(RECENT_BY_READING_EVERY_SEAT)])
    older = tmp_path / "older.db"
    with Database(older) as db:
        MIGRATIONS.apply(db, stop_before=stop_before)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("ATTACH DATABASE ? AS new", [str(path)])
        for table in ("players", "games", "game_seats", "actions", "scores"):
            columns = ", ".join(column.name for column in db[table].columns)
            db.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM new.{table}")
        db.conn.commit()
        db.execute("DETACH DATABASE new")
    with Store.open(older) as store:
        assert (store.stats(), store.recent_players()) == expected
        assert_kept_as_read(store)


def test_five_spices_games_count_but_leave_the_average_score_alone(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        play_known(store, "2025-01-01T20:00:00.000+00:00")  # Cy scores -4 and wins
        five = random_game(random.Random(1), new_setup(FIVE_SPICES, ["Cy", "Ana"]))
        assert five.state.ended
        store.save([Recorded(five, "2025-01-02T20:00:00.000+00:00", ["2025-01-02T20:01:00.000+00:00"] * len(five.log))])
        cy = {p.name: p for p in store.stats()}["Cy"]
        assert cy.games == 2
        assert cy.average_score == -4.0
        assert_kept_as_read(store)


def test_the_list_of_games_streams_from_the_cursor(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 400, seed=2, start=START)
        rows = store.each_game()
        first = next(rows)
        assert first.id == 400  # the newest, read before the rest
        tracemalloc.start()
        streamed = [first.id] + [game.id for game in rows]
        _, streaming_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        listed = store.list_games()
        _, listing_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert streamed == [game.id for game in listed] == list(range(400, 0, -1))
        # The ids kept by the test are all that grows while streaming; a list holds every summary.
        assert streaming_peak * 5 < listing_peak


# --- a player's page ------------------------------------------------------------------

FIGURES_FROM_EVERY_SEAT = """
SELECT players.name, games.profile, count(*), sum(scores.winner), 1.0 * sum(scores.winner) / count(*),
  avg(scores.score), max(scores.score), sum(scores.trophies), sum(scores.challenges_made),
  sum(scores.challenges_won), sum(scores.spice_challenges), sum(scores.spice_challenges_won),
  sum(scores.number_challenges), sum(scores.number_challenges_won), sum(scores.caught_bluffing),
  sum(scores.survived_challenges),
  (SELECT declared.key FROM scores AS mine JOIN games AS theirs ON theirs.id = mine.game_id,
     json_each(mine.declared) AS declared
   WHERE mine.player_id = players.id AND theirs.profile = games.profile AND {same}
   GROUP BY declared.key ORDER BY sum(declared.value) DESC, declared.key LIMIT 1)
FROM scores JOIN players ON players.id = scores.player_id JOIN games ON games.id = scores.game_id
WHERE {at}
GROUP BY players.id, games.profile
ORDER BY games.profile, sum(scores.winner) DESC, 1.0 * sum(scores.winner) / count(*) DESC, players.name
"""
"""A player's figures as first read, over every seat of their finished games (at one table: ``at_table``):
the truth to compare with."""

AT = "coalesce(games.table_id, '') = ?"
"""The seats at one table (``HERE``: this one's), in the queries below: the truth for a page at one table."""


def at_table(query: str, table: str | None) -> tuple[str, list[str]]:
    """One of the queries below over every table's seats, or one table's, and its first parameters."""
    if table is None:
        return query.format(at="true", same="true"), []
    return query.format(at=AT, same="coalesce(theirs.table_id, '') = coalesce(games.table_id, '')"), [table]

PAIRS_FROM_EVERY_SEAT = (
    "SELECT players.name, count(*), sum(mine.winner > theirs.winner), sum(theirs.winner > mine.winner)"
    " FROM scores AS mine JOIN scores AS theirs ON theirs.game_id = mine.game_id"
    " AND theirs.player_id != mine.player_id JOIN players ON players.id = theirs.player_id"
    " JOIN games ON games.id = mine.game_id"
    " WHERE {at} AND mine.player_id = (SELECT id FROM players WHERE name = ?) GROUP BY players.id"
    " ORDER BY count(*) DESC, players.name"
)
LINES_FROM_EVERY_SEAT = (
    "SELECT players.name, count(scores.game_id), coalesce(sum(scores.winner), 0), players.retired_at IS NOT NULL"
    " FROM players LEFT JOIN scores ON scores.player_id = players.id"
    " GROUP BY players.id ORDER BY count(scores.game_id) DESC, players.name"
)
LINES_AT_TABLE_FROM_EVERY_SEAT = (
    "SELECT players.name, count(*), sum(scores.winner), players.retired_at IS NOT NULL FROM scores"
    " JOIN players ON players.id = scores.player_id JOIN games ON games.id = scores.game_id WHERE {at}"
    " GROUP BY players.id ORDER BY count(*) DESC, players.name"
)
"""The Players list at one table: those who finished a game there."""


BUZZES_FROM_EVERY_CHALLENGE = """
SELECT games.profile, buzz.from_tap_ms, buzz.margin_ms
FROM challenge_buzz AS buzz JOIN games ON games.id = buzz.game_id
JOIN game_seats AS sat ON sat.game_id = buzz.game_id AND sat.seat = buzz.seat
WHERE {at} AND buzz.standing AND sat.player_id = (SELECT id FROM players WHERE name = ?)
"""


def buzzes_from_every_challenge(store: Store, player: str, table: str | None = None) -> dict[str, BuzzFigures]:
    """A player's buzz figures as first read, from every standing challenge's buzz time (at one table's games)."""
    by_profile: dict[str, list[tuple[float | None, float | None]]] = {}
    query, params = at_table(BUZZES_FROM_EVERY_CHALLENGE, table)
    for profile, from_tap, margin in store.query(query, [*params, player]):
        by_profile.setdefault(profile, []).append((from_tap, margin))
    found = {}
    for profile, times in by_profile.items():
        after_tap = [ms for ms, _ in times if ms is not None and ms >= 0]
        margins = [ms for _, ms in times if ms is not None]
        found[profile] = BuzzFigures(
            profile, len(times), min(after_tap, default=None), sum(ms is not None and ms < 0 for ms, _ in times),
            statistics.median(margins) if margins else None)
    return found


def most(pairs: list[HeadToHead], column: str) -> Opponent | None:
    """The rival (most ``wins``) or nemesis (most ``losses``) from every pair, first by name on a tie."""
    beaten = sorted((h for h in pairs if getattr(h, column)), key=lambda h: (-getattr(h, column), h.other))
    return Opponent(beaten[0].other, getattr(beaten[0], column)) if beaten else None


def assert_page_kept_as_read(store: Store) -> None:
    """Every player's page from the kept figures equals the page read from every seat of every game; and so at
    each table of the league, over its seats alone."""
    lines = player_lines(store) + player_lines(store, retired=True)
    assert sorted(lines, key=lambda line: (-line.games, line.name)) == [
        PlayerLine(name, games, wins, bool(gone)) for name, games, wins, gone in store.query(LINES_FROM_EVERY_SEAT)]
    for at in [None, *(place.id for place in tables(store))]:
        if at is not None:
            lines = player_lines(store, table=at) + player_lines(store, retired=True, table=at)
            query, params = at_table(LINES_AT_TABLE_FROM_EVERY_SEAT, at)
            assert sorted(lines, key=lambda line: (-line.games, line.name)) == [
                PlayerLine(name, games, wins, bool(gone)) for name, games, wins, gone in store.query(query, params)]
        query, params = at_table(FIGURES_FROM_EVERY_SEAT, at)
        assert figures(store, table=at) == [Figures(*row) for row in store.query(query, params)], at
        for name in store.players():
            query, params = at_table(PAIRS_FROM_EVERY_SEAT, at)
            pairs = [HeadToHead(name, *row) for row in store.query(query, [*params, name])]
            assert head_to_heads(store, name, table=at) == pairs
            assert (rival(store, name, at), nemesis(store, name, at)) == (most(pairs, "wins"), most(pairs, "losses"))
            assert buzz_figures(store, name, at) == buzzes_from_every_challenge(store, name, at)
    for name in store.players():
        for profile in {f.profile for f in figures(store, player=name)}:
            at = store.query("SELECT coalesce(games.table_id, ''), count(*) FROM scores JOIN games ON games.id ="
                             " scores.game_id WHERE scores.player_id = (SELECT id FROM players WHERE name = ?)"
                             " AND games.profile = ? GROUP BY 1 ORDER BY 2 DESC, 1", [name, profile])
            assert player_tables(store, name, profile) == (at if len(at) > 1 or at[0][0] else [])
    assert kept_at_tables(store) == rebuilt_at_tables(store)
    assert_kept_as_read(store)


def kept_at_tables(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """The figures kept per table as they are, less the rows that came to nothing (a game moved away), and
    the table kept with each buzz."""
    kept_rows = {kept.table: sorted(row for row in store.query(f"SELECT {', '.join(kept.columns)} FROM {kept.table}")
                                    if any(row[len(kept.keys):])) for kept in AT_TABLES}
    return {**kept_rows, "player_buzzes": store.query("SELECT game_id, seq, table_id FROM player_buzzes ORDER BY 1, 2")}


def rebuilt_at_tables(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """The same worked out afresh from every saved seat, as migration m019 fills them, and each buzz's game's
    table."""
    return {**{kept.table: sorted(store.query(kept.select("true", ""))) for kept in AT_TABLES},
            "player_buzzes": store.query("SELECT game_id, seq, coalesce(games.table_id, '') FROM player_buzzes"
                                         " JOIN games ON games.id = game_id ORDER BY 1, 2")}


def test_a_players_page_stays_as_a_full_read_says_through_games_renames_merges_and_restores(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 30, seed=5, start=START)
        assert_page_kept_as_read(store)
        live = play_known(store, "2099-01-01T20:00:00.000+00:00")
        standing = buzz_figures(store, "Cy")
        live.apply(Undo())  # the end taken back: its seats and its buzzes leave every kept figure
        assert_page_kept_as_read(store)
        assert buzz_figures(store, "Cy") != standing
        live.apply(Redo())
        store.rename_player("Ana", "Anna")
        assert_page_kept_as_read(store)
        game = replay_transcript(KNOWN.replace("Ana", "Dot").replace("Cy", "Eve"))
        at = "2030-01-01T20:00:00.000+00:00"
        timed = {seq: simulated_buzz(random.Random(seq)) for seq, action in enumerate(game.log, start=1)
                 if isinstance(action, Challenge)}
        store.save([Recorded(game, at, [at] * len(game.log), buzz_times=timed)])  # an import: Dot's only game
        assert buzz_figures(store, "Dot")  # their buzzes go with them into Anna's
        store.merge_players("Dot", "Anna")  # the same person under two names: Dot's figures become Anna's
        store.retire_player("Eve")
        assert_page_kept_as_read(store)
        unfinished = Session.new(store, new_setup(FIVE_SPICES, ["Anna", "Ben"]))
        unfinished.apply(random_game(random.Random(2), unfinished.game.setup).log[0])
        store.abandon(unfinished.game_id, "2099-01-02T20:00:00.000+00:00")  # given up: no figure moves
        assert_page_kept_as_read(store)
        with Store.open(tmp_path / "other.db") as other:
            simulate(other, 10, seed=6, start=datetime(2031, 1, 1, tzinfo=UTC))
            (tmp_path / "stick").mkdir()
            copy = backup(other, tmp_path / "stick")
        restore(store, plan_restore(store, copy))  # another table's games join ours, under the same names
        assert_page_kept_as_read(store)
        # A hand edit (sqlite-utils, Datasette) of the columns the page reads moves the kept figures with it.
        store.db.execute("UPDATE scores SET winner = 1 - winner, score = score + 7, declared = '{\"mint\": 3}'"
                         " WHERE seat = 1")
        assert_page_kept_as_read(store)
        assert len(head_to_heads(store, "Anna")) > 3 and figures(store, player="Eve")


def test_a_players_page_at_each_table_stays_as_a_full_read_says_through_imports_renames_merges_and_restores(
        tmp_path: Path) -> None:
    """Two tables of a league: Table 1's games come in saved as this table's, then placed at theirs (their kept
    figures move with them), and every change after leaves each table's kept figures as its seats say."""
    there, here = table(tmp_path, "Table 1"), table(tmp_path, "Table 2")
    with Store.open(tmp_path / "there.db") as pi, Store.open(tmp_path / "games.db") as store:
        simulate(pi, 12, seed=11, start=START)
        simulate(store, 8, seed=12, start=START + timedelta(minutes=30))
        assert_page_kept_as_read(store)
        there.publish_ended(pi)
        send(there, here)
        assert here.import_tables(store).added == 12
        assert [place.id for place in tables(store)] == [HERE, there.table.id]
        assert_page_kept_as_read(store)
        live = play_known(store, "2099-01-01T20:00:00.000+00:00")
        live.apply(Undo())
        assert_page_kept_as_read(store)
        live.apply(Redo())
        game = replay_transcript(KNOWN.replace("Ana", "Dot").replace("Cy", "Eve"))
        at = "2030-01-01T20:00:00.000+00:00"
        timed = {seq: simulated_buzz(random.Random(seq)) for seq, action in enumerate(game.log, start=1)
                 if isinstance(action, Challenge)}
        pi.save([Recorded(game, at, [at] * len(game.log), buzz_times=timed)])  # Dot's only game, at Table 1
        there.publish_ended(pi)
        send(there, here)
        assert here.import_tables(store).added == 1
        assert buzz_figures(store, "Dot", there.table.id) and not buzz_figures(store, "Dot", HERE)
        assert_page_kept_as_read(store)
        (dots,) = store.query("SELECT max(id) FROM games")[0]
        resumed = Session.resume(store, dots)  # Table 1's game, its end taken back here and done again
        assert resumed is not None
        resumed.apply(Undo())
        assert not buzz_figures(store, "Dot", there.table.id)
        assert_page_kept_as_read(store)
        resumed.apply(Redo())
        assert buzz_figures(store, "Dot", there.table.id)
        assert_page_kept_as_read(store)
        store.rename_player("Ana", "Anna")
        assert_page_kept_as_read(store)
        before = figures(store, player="Anna", table=there.table.id)
        store.merge_players("Dot", "Anna")  # Dot's game at Table 1 becomes Anna's there
        assert_page_kept_as_read(store)
        assert figures(store, player="Anna", table=there.table.id) != before
        assert store.undo_merge("Anna") == "Dot"
        assert_page_kept_as_read(store)
        assert figures(store, player="Anna", table=there.table.id) == before
        with Store.open(tmp_path / "other.db") as other:
            simulate(other, 10, seed=6, start=datetime(2031, 1, 1, tzinfo=UTC))
            (tmp_path / "stick").mkdir()
            copy = backup(other, tmp_path / "stick")
        restore(store, plan_restore(store, copy))  # a backup's games join this table's
        assert_page_kept_as_read(store)
        # Hand edits (sqlite-utils, Datasette): a game put at the other table, a seat's result changed.
        store.db.execute("UPDATE games SET table_id = NULL WHERE id = (SELECT min(id) FROM games WHERE table_id"
                         " IS NOT NULL)")
        store.db.execute("UPDATE scores SET winner = 1 - winner, score = score + 7 WHERE seat = 1")
        assert_page_kept_as_read(store)


def test_a_database_from_before_the_kept_page_gets_it_from_its_games(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, 15, seed=8, start=START)
        play_known(store, "2099-01-01T20:00:00.000+00:00").apply(Undo())
        expected = figures(store), [head_to_heads(store, name) for name in store.players()]
    with Database(path) as db:
        undo_migrations_from(db.conn, "m013_player_page_totals")
        assert "player_pairs" not in db.table_names()
    with Store.open(path) as store:
        assert (figures(store), [head_to_heads(store, name) for name in store.players()]) == expected
        assert_page_kept_as_read(store)


def pages_at_each_table(store: Store) -> dict[tuple[str, str | None], object]:
    """Every player's page over the league and at each table, with the row of their games at each table, and
    their line in the Players list there."""
    return {(name, table): (page_of(store, name, table), [player_tables(store, name, f.profile)
                                                         for f in figures(store, player=name)],
                            player_lines(store, name=name, table=table))
            for name in store.players() for table in [None, *(place.id for place in tables(store))]}


@pytest.mark.parametrize("read_only", [False, True])
def test_a_database_from_before_the_kept_tables_shows_each_tables_page_from_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_only: bool) -> None:
    """Upgraded, the figures kept per table are filled from the saved games; opened read-only (not upgraded),
    the page at one table is counted from its seats, as before them."""
    store, pi, _table_1 = league_of_two(tmp_path, there=14, here=9)
    expected = pages_at_each_table(store)
    store.close(), pi.close()
    with Database(tmp_path / "b.db") as db:
        undo_migrations_from(db.conn, "m019_kept_at_table")
    if read_only:
        monkeypatch.setattr(db_module, "_why_read_only", lambda _path: Reason("the test's file is read-only"))
    with Store.open(tmp_path / "b.db") as old:
        assert bool(old.read_only) == read_only and at_tables_kept(old) != read_only
        assert pages_at_each_table(old) == expected
        if not read_only:
            assert_page_kept_as_read(old)


def test_a_merge_undone_after_a_restore_took_the_merged_players_id_gives_them_a_new_one(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        for names in (KNOWN.replace("Ana", "Bart"), KNOWN):  # Ana: the highest id
            game = replay_transcript(names)
            store.save([Recorded(game, START, [START] * len(game.log))])
        ana_games = [line.id for line in games_page(store, limit=10) if "Ana" in line.names]
        store.merge_players("Ana", "Bart")
        with Store.open(tmp_path / "other.db") as other:
            zed = replay_transcript(KNOWN.replace("Ana", "Zed"))
            other.save([Recorded(zed, START, [START] * len(zed.log))])
            copy = backup(other, tmp_path)
        restore(store, plan_restore(store, copy))  # Zed is given the id Ana had
        assert store.undo_merge("Bart") == "Ana"
        assert [line.id for line in games_page(store, limit=10) if "Ana" in line.names] == ana_games
        assert {"Ana", "Bart", "Zed"} <= set(store.players())
        assert len([line for line in games_page(store, limit=10) if "Zed" in line.names]) == 1


def test_a_merge_undone_gives_back_both_players_as_they_were_until_the_next_game_starts(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 20, seed=3, start=START)
        game = replay_transcript(KNOWN.replace("Ana", "Bart"))
        at = "2030-01-01T20:00:00.000+00:00"
        timed = {seq: simulated_buzz(random.Random(seq)) for seq, action in enumerate(game.log, start=1)
                 if isinstance(action, Challenge)}
        store.save([Recorded(game, at, [at] * len(game.log), buzz_times=timed)])  # Bart's only game
        gone, kept = "Bart", "Ana"
        store.retire_player(gone)
        before = {name: (figures(store, player=name), head_to_heads(store, name), buzz_figures(store, name))
                  for name in store.players()}
        games, recent = [line.names for line in games_page(store, limit=100)], store.recent_players(retired=True)
        store.merge_players(gone, kept)
        assert store.merge_to_undo(kept) == gone and store.merge_to_undo("Ben") is None
        assert store.undo_merge(kept) == gone
        assert_page_kept_as_read(store)
        assert {name: (figures(store, player=name), head_to_heads(store, name), buzz_figures(store, name))
                for name in store.players()} == before
        assert [line.names for line in games_page(store, limit=100)] == games
        assert store.recent_players(retired=True) == recent and store.merge_to_undo(kept) is None
        store.merge_players(gone, kept)
        Session.new(store, new_setup(FIVE_SPICES, ["Ana", "Ben"]))  # the next game: the merge stands
        assert store.merge_to_undo(kept) is None
        with pytest.raises(StoreError, match="no merge into Ana can be undone"):
            store.undo_merge(kept)


# --- any sequence of changes, at two tables ------------------------------------------------------------


def step_league(store: Store, rng: random.Random, folder: Path) -> None:
    """Another table's games as the league brings them: saved here, then placed at their table."""
    there, here = table(folder, "Table 1"), table(folder, "Table 2")
    with Store.open(folder / "there.db") as pi:
        pi.save([random_recorded(store, rng, sometime(store, rng)) for _ in range(2)])
        there.publish_ended(pi)
    send(there, here)
    here.import_tables(store)


def step_moved(store: Store, rng: random.Random, _folder: Path) -> None:
    """A game put at another table by hand (sqlite-utils, Datasette)."""
    (game_id,) = rng.choice(store.query("SELECT id FROM games ORDER BY id"))
    store.db.execute("UPDATE games SET table_id = ? WHERE id = ?", [rng.choice([None, "table-1", "table-9"]), game_id])


AT_TABLE_STEPS = {**STEPS, "league import": step_league, "moved by hand": step_moved}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(sorted(AT_TABLE_STEPS)), st.integers(0, 2**32)), min_size=1,
                      max_size=8))
@example(steps=[("league import", 1), ("merge", 1), ("merge undone", 0), ("end undone", 2)])
def test_the_figures_kept_per_table_equal_a_full_rebuild_after_every_step_of_any_sequence(
        tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]) -> None:
    folder = tmp_path_factory.mktemp("steps")
    with Store.open(folder / "games.db") as store:
        simulate(store, 8, seed=1, start=START)
        for name, seed in steps:
            AT_TABLE_STEPS[name](store, random.Random(seed), folder)
            assert kept_at_tables(store) == rebuilt_at_tables(store), name
