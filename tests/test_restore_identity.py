"""One game is one game wherever it goes: a restore extends, keeps beside, never doubles, never reopens a visitor.

Two tables are two real SQLite files; a game goes from one to the other by a
backup and a restore, and is played on there through a real ``Session``.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, UTC
from pathlib import Path

from store_helpers import spoil, undo_migrations_from

from companion.cli import main
from companion.rules import replay_transcript
from companion.table.session import Session
from companion.store import Store
from companion.store.backup import backup, plan_restore, restore
from companion.store.simulate import simulate

SEATS = "rules spicy\nseats Ana Ben Cy\nend-card 27\n"
OPENING = "play Ana chili 2\nplay Ben chili 6\n"
# Two ways on from the opening: Cy challenges, or Cy plays on; the first then goes on to the World's End.
CHALLENGED = "challenge Cy spice\nreveal pepper 6\nplay Ben chili 1\nend-card-drawn\n"
PLAYED_ON = "play Cy chili 7\n"


def actions(text: str) -> list:
    return list(replay_transcript(SEATS + text).log)


def table_with(path: Path, played: str, started_at: str = "2026-11-30T19:00:00.000+00:00") -> tuple[Store, int]:
    """A table whose one game is unfinished after ``played``."""
    store = Store.open(path)
    session = Session.new(store, replay_transcript(SEATS).setup, clock=lambda: started_at)
    for action in actions(played):
        session.apply(action)
    return store, session.game_id


def play_on(store: Store, game_id: int, played: str, more: str) -> None:
    """The game resumed from its page and played on from ``played``."""
    session = Session.resume(store, game_id)
    assert session is not None
    for action in actions(played + more)[len(actions(played)):]:
        session.apply(action)


def log_of(store: Store, game_id: int) -> list[str]:
    return [text for (text,) in store.query("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [game_id])]


def test_a_game_finished_at_another_table_extends_the_unfinished_one_here(tmp_path: Path, capsys) -> None:
    home, game = table_with(tmp_path / "home.db", OPENING)
    away = Store.open(tmp_path / "away.db")
    (there,) = restore(away, plan_restore(away, backup(home, tmp_path, name="b-home.db")))
    play_on(away, there, OPENING, CHALLENGED)
    assert away.summary(there).ended_at is not None
    brought = backup(away, tmp_path, name="b-away.db")

    assert main(["restore", str(brought), "--dry-run", "--db", str(home.path)]) == 0
    said = capsys.readouterr().out
    assert ": 0 games to add, 1 to extend, 0 already here" in said.splitlines()[0]
    assert f"extends #{game}: 4 more actions after its 2" in said
    plan = plan_restore(home, brought)
    assert (plan.games, [g.extends for g in plan.extended]) == ([], [game])
    assert restore(home, plan) == [game]
    assert home.summary(game).ended_at is not None and home.summary(game).winners
    assert log_of(home, game) == log_of(away, there)
    assert home.unfinished_game() is None  # nothing left to reopen
    assert len(home.uids()) == 1
    again = plan_restore(home, brought)
    assert (again.games, again.extended, again.already) == ([], [], 1)


def test_a_log_that_parts_from_the_one_here_is_kept_beside_it_and_never_doubled(tmp_path: Path) -> None:
    home, game = table_with(tmp_path / "home.db", OPENING)
    away = Store.open(tmp_path / "away.db")
    (there,) = restore(away, plan_restore(away, backup(home, tmp_path, name="b-first.db")))
    play_on(away, there, OPENING, PLAYED_ON)
    play_on(home, game, OPENING, CHALLENGED)
    from_away, from_home = backup(away, tmp_path, name="b-away.db"), backup(home, tmp_path, name="b-home.db")

    plan = plan_restore(home, from_away)
    (kept,) = plan.games
    assert (kept.beside, kept.parts_at, plan.extended, plan.already) == (game, 3, [], 0)
    (beside,) = restore(home, plan)
    assert log_of(home, beside) == log_of(away, there) and log_of(home, game) != log_of(away, there)
    assert home.uid_of(beside).startswith(home.uid_of(game) + "~")
    # Either way round, again and again: each table ends with both games, once each.
    restore(away, plan_restore(away, from_home))
    for _ in range(2):
        for store, brought in ((home, from_away), (away, from_home), (home, backup(away, tmp_path, name="b-a.db")),
                               (away, backup(home, tmp_path, name="b-h.db"))):
            assert restore(store, plan_restore(store, brought)) == []
    assert sorted(map(str, (log_of(home, 1), log_of(home, 2)))) == sorted(map(str, (log_of(away, 1),
                                                                                    log_of(away, 2))))


def test_the_game_kept_beside_goes_on_being_extended_from_the_table_that_plays_it(tmp_path: Path) -> None:
    home, game = table_with(tmp_path / "home.db", OPENING)
    away = Store.open(tmp_path / "away.db")
    (there,) = restore(away, plan_restore(away, backup(home, tmp_path, name="b-first.db")))
    play_on(away, there, OPENING, "challenge Cy spice\n")
    play_on(home, game, OPENING, PLAYED_ON)
    (beside,) = restore(home, plan_restore(home, backup(away, tmp_path, name="b-away.db")))
    play_on(away, there, OPENING + "challenge Cy spice\n", "reveal pepper 6\n")

    plan = plan_restore(home, backup(away, tmp_path, name="b-later.db"))
    assert (plan.games, [g.extends for g in plan.extended]) == ([], [beside])
    restore(home, plan)
    assert log_of(home, beside) == log_of(away, there) and len(home.uids()) == 2


def test_a_restored_unfinished_game_is_not_reopened_and_a_new_game_does_not_abandon_it(tmp_path: Path) -> None:
    home, own = table_with(tmp_path / "home.db", OPENING, "2026-11-30T19:00:00.000+00:00")
    visitor, _ = table_with(tmp_path / "visitor.db", "play Ana chili 1\n", "2026-11-30T21:00:00.000+00:00")
    (arrived,) = restore(home, plan_restore(home, backup(visitor, tmp_path)))

    for _ in range(3):
        resumed = Session.resume(home)
        assert resumed is not None and resumed.game_id == own
    home.new_game(replay_transcript(SEATS).setup, "2026-11-30T22:00:00.000+00:00")
    assert home.load(own).abandoned_at is not None  # the table walked away from its own game
    assert home.load(arrived).abandoned_at is None and home.summary(arrived).ended_at is None
    # From its page: resumed, and played on here.
    play_on(home, arrived, "play Ana chili 1\n", "play Ben chili 2\n")
    assert len(log_of(home, arrived)) == 2


def test_a_backup_whose_games_have_no_uid_adds_them_once(tmp_path: Path) -> None:
    with Store.open(tmp_path / "old.db") as old:
        simulate(old, 21, seed=3, start=datetime(2026, 11, 1, 18, 0, tzinfo=UTC))
        written = backup(old, tmp_path, name="no-uids.db")
    with sqlite3.connect(written) as db:
        db.execute("UPDATE games SET uid = NULL")
    with Store.open(tmp_path / "home.db") as home:
        first = plan_restore(home, written)
        assert len(first.games) == 21 and len({g.uid for g in first.games}) == 21
        restore(home, first)
        for _ in range(2):
            again = plan_restore(home, written)
            assert (again.games, again.already) == ([], 21)
            assert restore(home, again) == []
        assert len(home.uids()) == 21


def test_a_dry_run_writes_no_database_and_names_an_abandoned_game(tmp_path: Path, capsys) -> None:
    with Store.open(tmp_path / "pi.db") as pi:
        left = pi.new_game(replay_transcript(SEATS).setup, "2026-11-30T19:00:00.000+00:00")
        pi.abandon(left, "2026-11-30T19:30:00.000+00:00")
        pi.new_game(replay_transcript(SEATS).setup, "2026-11-30T20:00:00.000+00:00")
        written = backup(pi, tmp_path)
    fresh = tmp_path / "new.db"
    assert main(["restore", str(written), "--dry-run", "--db", str(fresh)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(": 2 games to add, 0 already here")
    assert lines[1] == "new players: Ana, Ben, Cy"
    assert lines[2].endswith("Ana, Ben, Cy  (abandoned)") and lines[3].endswith("Ana, Ben, Cy  (unfinished)")
    assert sorted(tmp_path.iterdir()) == sorted([tmp_path / "pi.db", written])


def test_a_dry_run_leaves_an_older_database_as_it_was_and_plans_as_the_upgraded_one_would(
        tmp_path: Path, capsys) -> None:
    """A dry run upgraded an older file before printing its plan: the app it came from could no longer open it."""
    with Store.open(tmp_path / "pi.db") as pi:
        simulate(pi, 3, seed=5, start=datetime(2026, 11, 1, 18, 0, tzinfo=UTC))
        written = backup(pi, tmp_path)
    older = tmp_path / "older.db"
    with Store.open(older) as store:
        simulate(store, 2, seed=6, start=datetime(2026, 10, 1, 18, 0, tzinfo=UTC))
    raw = sqlite3.connect(older)
    undo_migrations_from(raw, "m014_game_arrived")
    raw.close()
    before = older.read_bytes()
    assert main(["restore", str(written), "--dry-run", "--db", str(older)]) == 0
    said = capsys.readouterr().out.splitlines()[0]
    assert said.endswith(": 3 games to add, 0 already here")
    assert older.read_bytes() == before and not (tmp_path / "older.db-wal").exists()
    raw = sqlite3.connect(older)
    assert raw.execute("SELECT count(*) FROM _sqlite_migrations WHERE name = 'm014_game_arrived'").fetchone() == (0,)
    raw.close()


def test_a_backup_with_rows_that_cannot_be_read_restores_the_others_and_names_those(tmp_path: Path, capsys) -> None:
    with Store.open(tmp_path / "pi.db") as pi:
        simulate(pi, 5, seed=2, start=datetime(2026, 11, 1, 18, 0, tzinfo=UTC))
        written = backup(pi, tmp_path)
    spoil(written)
    home = tmp_path / "home.db"
    assert main(["restore", str(written), "--db", str(home)]) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    lines = out.out.splitlines()
    assert lines[0].endswith(": 3 games to add, 0 already here") and lines[-1] == "restored 3 games (#1–#3)"
    assert "left out: game #2 of the backup was left out, unreadable: its data is nested too deep to read" in lines
    assert ("left out: game #3 of the backup was left out, unreadable: a value in its log is of the wrong kind (text "
            "where a number belongs, or the like)") in lines
