"""A live game: saved before apply returns, nothing saved when refused, resumed by replay."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.rules import SPICY, Card, Challenge, Game, IllegalAction, Play, Redo, Reveal, Undo, new_setup
from companion.rules import write_transcript
from companion.table.seating import Seating
from companion.table.session import Session
from companion.store import Store
from companion.random_play import long_game


def saved_actions(path: Path) -> list[tuple[int, str]]:
    """Read by a second connection: what another process would find after a crash."""
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT seq, json_extract(action, '$.action') FROM actions ORDER BY seq").fetchall()
    conn.close()
    return rows


def test_each_accepted_action_is_committed_before_apply_returns(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        setup = new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27)
        session = Session.new(store, setup, clock=lambda: "2025-01-01T20:00")
        session.apply(Play(0, "chili", 2))
        assert saved_actions(path) == [(1, "play")]
        session.apply(Play(1, "chili", 6))
        session.apply(Challenge(2, "spice"))
        state = session.apply(Reveal(Card("pepper", 6)))
        assert saved_actions(path) == [(1, "play"), (2, "play"), (3, "challenge"), (4, "reveal")]
        assert state.seats[2].won == 2 and state is session.state


def test_a_refused_action_writes_nothing_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
        session.apply(Play(0, "chili", 2))
        before = session.game
        with pytest.raises(IllegalAction, match="must declare"):
            session.apply(Play(1, "chili", 1))
        with pytest.raises(IllegalAction, match="nothing to redo"):
            session.apply(Redo())
        assert session.game is before
        assert saved_actions(path) == [(1, "play")]


def test_undo_and_redo_are_logged_and_resume_to_the_same_place(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
        for action in (Play(0, "chili", 2), Play(1, "chili", 5), Undo(), Undo(), Redo()):
            session.apply(action)
        expected = session.game
    assert [kind for _, kind in saved_actions(path)] == ["play", "play", "undo", "undo", "redo"]
    with Store.open(path) as store:
        resumed = Session.resume(store)
        assert resumed is not None
        assert resumed.game == expected
        assert resumed.game.can_redo
        resumed.apply(Redo())
        assert resumed.state.stack == 2


def test_resume_picks_the_unfinished_game_and_rebuilds_it_from_its_log(tmp_path: Path) -> None:
    played = long_game(150)
    with Store.open(tmp_path / "games.db") as store:
        assert Session.resume(store) is None
        session = Session.new(store, played.setup)
        for action in played.log:
            session.apply(action)
        game_id = session.game_id
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.resume(store)
        assert resumed is not None and resumed.game_id == game_id
        assert resumed.game == Game.replay(played.setup, played.log)
        assert resumed.state.to_json() == played.state.to_json()


def test_a_store_in_memory_keeps_a_session_and_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with Store.memory() as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
        session.apply(Play(0, "chili", 2))
        session.apply(Undo())
        resumed = Session.resume(store)
        assert resumed is not None and resumed.game == session.game
        assert [entry.action for entry in store.load(session.game_id).log] == [Play(0, "chili", 2), Undo()]
    assert list(tmp_path.iterdir()) == []


def test_session_options_are_keyword_only() -> None:
    with Store.memory() as store, pytest.raises(TypeError):
        Session.new(store, new_setup(SPICY, ["Ana", "Ben"]), lambda: "2025")


def test_the_seating_is_saved_with_the_game_in_the_transaction_that_starts_it(tmp_path: Path) -> None:
    """A power cut just after Start must not bring the game back with the wiring order: there is no
    moment at which the game is saved and its seating not."""
    path = tmp_path / "games.db"
    seating = Seating(colours=(3, 1, 0), buzzers=(2, 0, 1))
    with Store.open(path) as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"]), seating=seating)
        conn = sqlite3.connect(path)  # another process, as after a crash
        assert conn.execute(
            "SELECT colour, buzzer FROM game_seats WHERE game_id = ? ORDER BY seat", [session.game_id]
        ).fetchall() == [(3, 2), (1, 0), (0, 1)]
        conn.close()
    with Store.open(path) as store:
        resumed = Session.resume(store)
        assert resumed is not None and resumed.seating == seating
        assert Session.new(store, new_setup(SPICY, ["Dee", "Eli"])).seating == Seating.default(2)


def test_a_game_saved_without_a_seating_resumes_with_the_default_one(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        game_id = store.new_game(new_setup(SPICY, ["Ana", "Ben"]), "2025-01-01T20:00")
        resumed = Session.resume(store, game_id)
        assert store.seating(game_id) is None and resumed is not None and resumed.seating == Seating.default(2)


def test_a_buzz_is_saved_as_it_happens_and_only_for_the_card_it_challenged(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Zoë"]))
        session.apply(Play(0, "chili", 2))
        session.keep_buzz(2)  # "Zoë challenges!" is on screen: the power goes
    with Store.open(path) as store:
        resumed = Session.resume(store)
        assert resumed is not None and resumed.saved_buzz() == 2
        resumed.apply(Challenge(2, "number"))  # called: the log has it now, the buzz is gone
        assert store.buzz(resumed.game_id) is None
        assert "challenge Zoë number" in write_transcript(resumed.game.setup, resumed.game.log)
        resumed.apply(Undo())
        assert resumed.saved_buzz() is None  # the window is open again: anyone may challenge


def test_a_buzz_for_a_card_no_longer_on_top_is_not_restored(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Zoë"]))
        session.apply(Play(0, "chili", 2))
        session.keep_buzz(2)
        session.drop_buzz()  # Cancel
        assert session.saved_buzz() is None
        session.keep_buzz(1)
        store.keep_buzz(session.game_id, 7, 1)  # a row for another card, edited in by hand
        assert session.saved_buzz() is None


def test_the_game_lasts_from_its_start_to_its_last_saved_action_and_resumes_with_it(tmp_path: Path) -> None:
    times = iter(["2025-01-01T20:00:00+00:00", "2025-01-01T20:03:00+00:00", "2025-01-01T21:05:30+00:00"])
    with Store.open(tmp_path / "g.db") as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=0), clock=lambda: next(times))
        assert session.length().total_seconds() == 0
        session.apply(Play(0, "chili", 1))
        session.apply(Play(1, "chili", 2))
        assert session.length().total_seconds() == 65 * 60 + 30
        resumed = Session.resume(store)
        assert resumed is not None and resumed.length() == session.length()
