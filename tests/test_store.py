"""The database: schema and migrations, what a game writes, names, damaged and busy files."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database
from store_helpers import KNOWN, KNOWN_FACTS, damaged_database

from companion.rules import SPICY, EndCardDrawn, IllegalAction, Play, Redo, Undo, new_setup, replay_transcript
from companion.table.session import Session
from companion.store import BUSY, Recorded, Store, StoreError
from companion.store.schema import MIGRATIONS

MIGRATION_NAMES = [m.name for m in MIGRATIONS.pending(Database(memory=True))]


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "games.db") as store:
        yield store


def save_known(store: Store) -> int:
    game = replay_transcript(KNOWN)
    (game_id,) = store.save([Recorded(game, "2025-01-01T20:00:00.000+00:00", ["2025-01-01T20:01:00.000+00:00"]
                                      * len(game.log))])
    return game_id


def schema(db_path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
    conn.close()
    return set(rows)


# --- schema and migrations ---------------------------------------------------------


def test_a_new_database_is_wal_with_full_sync_and_enforced_foreign_keys(store: Store) -> None:
    assert store.query("PRAGMA journal_mode") == [("wal",)]
    assert store.query("PRAGMA synchronous") == [(2,)]  # FULL
    assert store.query("PRAGMA foreign_keys") == [(1,)]
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute("INSERT INTO actions (game_id, seq, at, action) VALUES (99, 1, 'now', '{}')")


def test_foreign_keys_are_declared_for_other_readers(store: Store) -> None:
    declared = {
        (table, fk.column, fk.other_table)
        for table in ("game_seats", "actions", "scores")
        for fk in store.db[table].foreign_keys
    }
    assert declared == {
        ("game_seats", "game_id", "games"), ("game_seats", "player_id", "players"),
        ("actions", "game_id", "games"),
        ("scores", "game_id", "games"), ("scores", "player_id", "players"),
    }


def test_an_empty_file_gets_every_migration_recorded(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch()
    with Store.open(path) as store:
        applied = [name for (name,) in store.query("SELECT name FROM _sqlite_migrations ORDER BY id")]
        assert applied == MIGRATION_NAMES
        assert store.list_games() == []


@pytest.mark.parametrize("stop_before", MIGRATION_NAMES)
def test_every_earlier_schema_upgrades_to_the_current_one(tmp_path: Path, stop_before: str) -> None:
    Store.open(tmp_path / "fresh.db").close()
    old = tmp_path / "old.db"
    with Database(old) as db:
        MIGRATIONS.apply(db, stop_before=stop_before)
    Store.open(old).close()
    assert schema(old) == schema(tmp_path / "fresh.db")


def test_games_that_ended_before_the_challenge_stats_get_them_from_their_logs(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Database(path) as db:
        MIGRATIONS.apply(db, stop_before="m002_challenge_stats")
        db.execute("PRAGMA foreign_keys = ON")
        game = replay_transcript(KNOWN)
        state = game.state
        db["games"].insert({"id": 1, "profile": "spicy", "variants": [], "options": {"start_after_challenge": "loser"},
                            "seats": list(game.setup.names), "end_card": 27, "first": 0, "started_at": "2025",
                            "ended_at": "2025", "end_reason": state.end_reason, "winners": ["Cy"]})
        for i, name in enumerate(game.setup.names):
            db["players"].insert({"id": i + 1, "name": name, "created_at": "2025"})
            db["game_seats"].insert({"game_id": 1, "seat": i, "player_id": i + 1})
            seat = state.seats[i]
            db["scores"].insert({"game_id": 1, "seat": i, "player_id": i + 1, "score": state.score(i),
                                 "won": seat.won, "won_universals": 0, "trophies": 0, "hand": seat.hand,
                                 "universals": 0, "winner": int(i in state.winners)})
        for seq, action in enumerate(game.log, start=1):
            db["actions"].insert({"game_id": 1, "seq": seq, "at": "2025", "action": action.to_dict()})
    with Store.open(path) as store:
        facts = {p.name: (p.challenges_made, p.challenges_won, p.caught_bluffing, p.survived_challenges)
                 for p in store.stats()}
    assert facts == KNOWN_FACTS


# --- what a game writes ----------------------------------------------------------------


def test_json_columns_are_plain_json_for_other_tools(store: Store) -> None:
    game_id = save_known(store)
    rows = store.query(
        "SELECT json_extract(seats, '$[2]'), json_extract(options, '$.start_after_challenge'),"
        " json_extract(winners, '$[0]') FROM games WHERE id = ?", [game_id])
    assert rows == [("Cy", "loser", "Cy")]
    first = store.query("SELECT json_extract(action, '$.action'), json_extract(action, '$.spice') FROM actions"
                        " WHERE game_id = ? AND seq = 1", [game_id])
    assert first == [("play", "chili")]


def test_stats_count_only_the_challenges_that_stand(store: Store) -> None:
    save_known(store)
    stats = {p.name: p for p in store.stats()}
    assert {n: (p.challenges_made, p.challenges_won, p.caught_bluffing, p.survived_challenges)
            for n, p in stats.items()} == KNOWN_FACTS
    cy = stats["Cy"]
    assert (cy.games, cy.wins, cy.win_rate, cy.average_score) == (1, 1, 1.0, -4.0)


def test_a_finished_game_keeps_each_seats_breakdown(store: Store) -> None:
    game_id = save_known(store)
    rows = store.query("SELECT seat, score, won, won_universals, trophies, hand, universals, winner FROM scores"
                       " WHERE game_id = ? ORDER BY seat", [game_id])
    assert rows == [(0, -6, 0, 0, 0, 6, 0, 0), (1, -5, 1, 0, 0, 6, 0, 0), (2, -4, 2, 0, 0, 6, 0, 1)]
    (summary,) = store.list_games()
    assert (summary.names, summary.winners, summary.scores) == (("Ana", "Ben", "Cy"), ("Cy",), (-6, -5, -4))


def test_undo_of_the_end_reopens_the_game_and_redo_ends_it_again(store: Store) -> None:
    session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
    session.apply(Play(0, "chili", 1))
    session.apply(EndCardDrawn())
    game_id = session.game_id
    assert store.unfinished_game() is None
    assert store.query("SELECT count(*) FROM scores") == [(2,)]
    session.apply(Undo())
    assert store.unfinished_game() == game_id
    assert store.query("SELECT ended_at, end_reason, winners FROM games") == [(None, None, None)]
    assert store.query("SELECT count(*) FROM scores") == [(0,)]
    session.apply(Redo())
    assert store.query("SELECT end_reason FROM games") == [("end-card",)]
    assert store.query("SELECT count(*) FROM scores") == [(2,)]
    actions = [a for (a,) in store.query("SELECT json_extract(action, '$.action') FROM actions ORDER BY seq")]
    assert actions == ["play", "end-card-drawn", "undo", "redo"]


# --- names -------------------------------------------------------------------------------

AWKWARD = [
    "[b]Ana[/b]", "[color=ff0000]Ben", "O'Brien \"Bob\"", "x'); DROP TABLE players;--",
    "🌶️ Chili 🔥", "مريم", "שָׁלוֹם abc", "%_\\", "é" * 40, "Ana", "ana", "  spaced  ",
]


def test_awkward_names_are_stored_and_returned_exactly(store: Store) -> None:
    for table in (AWKWARD[:6], AWKWARD[6:]):
        session = Session.new(store, new_setup(SPICY, table))
        session.apply(Play(0, "chili", 1))
    assert set(store.players()) == set(AWKWARD)
    listed = [name for game in store.list_games() for name in game.names]
    assert sorted(listed) == sorted(AWKWARD)
    for game in store.list_games():
        saved = store.load(game.id)
        assert list(saved.setup.names) in (AWKWARD[:6], AWKWARD[6:])
    assert store.query("SELECT count(*) FROM players") == [(12,)]


@pytest.mark.parametrize("names", [["Ana", ""], ["Ana", "   "], ["Ana", "Ana"]])
def test_empty_or_duplicate_seat_names_are_refused_and_nothing_saved(store: Store, names: list[str]) -> None:
    with pytest.raises(IllegalAction, match="name"):
        Session.new(store, new_setup(SPICY, names))
    assert store.query("SELECT count(*) FROM games") == [(0,)]


def test_a_name_with_a_line_break_is_refused(store: Store) -> None:
    with pytest.raises(IllegalAction, match="one line"):
        Session.new(store, new_setup(SPICY, ["Ana", "Ben\nCy"]))
    assert store.query("SELECT count(*) FROM games") == [(0,)]
    assert store.players() == []


def test_players_last_across_games_and_are_unique_by_exact_name(store: Store) -> None:
    store.add_player("Ana")
    with pytest.raises(StoreError, match="already a player named Ana"):
        store.add_player("Ana")
    with pytest.raises(StoreError, match="a player needs a name"):
        store.add_player(" ")
    with pytest.raises(StoreError, match="one line of text"):
        store.add_player("Ana\nBen")
    store.add_player("ana")
    Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
    Session.new(store, new_setup(SPICY, ["Ben", "Ana"]))
    assert store.players() == ["Ana", "ana", "Ben"]
    seats = store.query("SELECT game_id, seat, players.name FROM game_seats JOIN players ON players.id = player_id"
                        " ORDER BY game_id, seat")
    assert seats == [(1, 0, "Ana"), (1, 1, "Ben"), (2, 0, "Ben"), (2, 1, "Ana")]


def test_recent_players_come_first_by_their_latest_game_or_when_they_were_added(store: Store) -> None:
    Session.new(store, new_setup(SPICY, ["Ana", "Ben"]), clock=lambda: "2025-01-01T20:00:00.000+00:00")
    Session.new(store, new_setup(SPICY, ["Cy", "Ana"]), clock=lambda: "2025-02-01T20:00:00.000+00:00")
    store.add_player("Zed")  # added now, after both games
    assert store.recent_players() == ["Zed", "Cy", "Ana", "Ben"]
    Session.new(store, new_setup(SPICY, ["Ben", "Dee"]), clock=lambda: "2099-01-01T20:00:00.000+00:00")
    assert store.recent_players() == ["Dee", "Ben", "Zed", "Cy", "Ana"]


# --- damaged and busy files ---------------------------------------------------------------


def test_a_damaged_file_is_moved_aside_and_a_fresh_database_started(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    garbage = damaged_database(path)
    (tmp_path / "notes.txt").write_text("keep me")
    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice and "moved" in store.notice
        assert store.list_games() == []
        Session.new(store, new_setup(SPICY, ["Ana", "Ben"])).apply(Play(0, "chili", 1))
    (moved,) = tmp_path.glob("games.db.corrupt-*")
    assert re.fullmatch(r"games\.db\.corrupt-\d{8}-\d{6}", moved.name)
    assert moved.name in (store.notice or "")
    assert moved.read_bytes() == garbage
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    with Store.open(path) as again:
        assert again.notice is None
        assert len(again.list_games()) == 1


def test_a_busy_database_is_retried_then_refused_and_nothing_is_half_written(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = Store.open(path, busy_timeout=0.2)
    session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
    session.apply(Play(0, "chili", 1))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    before = session.game
    with pytest.raises(StoreError) as refused:
        session.apply(Play(1, "chili", 4))
    assert str(refused.value) == BUSY
    assert session.game is before
    other.execute("ROLLBACK")
    other.close()
    assert store.query("SELECT seq FROM actions") == [(1,)]
    session.apply(Play(1, "chili", 5))
    assert store.query("SELECT seq, json_extract(action, '$.number') FROM actions") == [(1, 1), (2, 5)]
    store.close()
