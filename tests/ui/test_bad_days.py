"""Unfinished games and a database having a bad day, on the real app: asked first, toasts, nothing lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


from companion.config import StoreConfig
from companion.rules import SPICY, EndCardDrawn, Play, new_setup
from companion.table.session import Session
from companion.store import Store
from companion.ui.widgets.left_game import LeftGameSheet
from companion.ui.screens.games import GameRow
from scenes_table import mid_game
from test_around_the_table import table_shows, toast_text
from store_helpers import fill, small_disk
from test_store_bad_days import HOLD_THE_WRITE_LOCK

STARTED = "2026-11-30T20:14:03.000+00:00"


def unfinished(db: Path) -> int:
    with Store.open(db) as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27), clock=lambda: STARTED)
        session.apply(Play(0, "chili", 2))
        return session.game_id


def test_start_up_says_which_game_it_reopened(ui, tmp_path: Path) -> None:
    unfinished(tmp_path / "games.db")
    ui.start()
    assert table_shows(ui, ("Ana", "Ben", "Cy"))
    # the text said, not whether it still shows: a clock idle since the last test times a toast out at once
    assert ui.app.toast.text == "Reopened the game of Nov 30, 2026, 8:14\u202fPM with Ana, Ben, Cy"


def test_a_new_game_while_one_is_unfinished_asks_first_and_an_abandoned_game_stays_marked(ui, tmp_path: Path) -> None:
    game_id = unfinished(tmp_path / "games.db")
    app = ui.start()
    app.show("home")
    ui.step(2)
    home = app.screen("home")
    ui.tap(home.ids.new_game)
    sheet = ui.find(LeftGameSheet)
    assert sheet.text == "The game of Nov 30, 2026, 8:14\u202fPM with Ana, Ben, Cy is not finished."
    assert app.root.current == "home"
    ui.tap(sheet.ids.back)
    assert not ui.find_all(LeftGameSheet) and app.root.current == "home"
    ui.tap(home.ids.new_game)
    ui.tap(ui.find(LeftGameSheet).ids.resume)
    assert table_shows(ui, ("Ana", "Ben", "Cy"))
    app.show("home")
    ui.step(2)
    ui.tap(home.ids.new_game)
    ui.tap(ui.find(LeftGameSheet).ids.abandon)
    assert app.root.current == "setup" and not ui.find_all(LeftGameSheet)
    assert app.store.summary(game_id).abandoned_at is not None
    app.show("games")
    ui.step(2)
    (row,) = ui.find_all(GameRow)
    assert row.title.text.startswith("Nov 30, 2026, 8:14\u202fPM · ") and row.title.text.endswith(" · abandoned")
    ui.tap(row)
    page = app.screen("game")
    assert app.root.current == "game"
    assert page.outcome == "abandoned" and not page.unfinished  # no Resume for it
    ui.stop()
    app = ui.start()
    assert app.root.current == "home" and app.session is None


def test_same_table_as_last_time_while_a_game_is_unfinished_asks_first_then_sets_that_table(ui, tmp_path: Path) -> None:
    game_id = unfinished(tmp_path / "games.db")
    app = ui.start()
    app.show("home")
    ui.step(2)
    ui.tap(app.screen("home").ids.same_table)
    ui.tap(ui.find(LeftGameSheet).ids.abandon)
    setup = app.screen("setup")
    assert app.root.current == "setup" and setup.step == "table"
    assert setup.draft.names == ["Ana", "Ben", "Cy"]
    assert app.store.summary(game_id).abandoned_at is not None


def test_after_a_finished_game_an_older_unfinished_one_is_not_reopened(ui, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    unfinished(db)
    with Store.open(db) as store:
        Session.new(store, new_setup(SPICY, ["Dee", "Eve"])).apply(EndCardDrawn())
    app = ui.start()
    assert app.root.current == "home" and app.session is None
    ui.tap(app.screen("home").ids.new_game)
    assert app.root.current == "setup"  # nothing unfinished to ask about


def at_the_end(ui, db: Path):  # type: ignore[no-untyped-def]
    app = ui.start(config=ui.config(store=StoreConfig(db=db)))
    view = mid_game(ui)
    view.end_card_showed()
    ui.step(3)
    assert app.root.current == "end"
    return app, view


def test_play_again_with_the_database_busy_shows_a_toast_and_stays_on_the_end_screen(ui, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app, view = at_the_end(ui, db)
    games_before = app.store.query("SELECT count(*) FROM games")
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_WRITE_LOCK, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        ui.tap(app.screen("end").ids.again)
        assert app.root.current == "end" and app.session.state.ended
        assert toast_text(ui).startswith("the database is busy")
    finally:
        holder.kill()
        holder.wait()
    ui.tap(app.screen("end").ids.again)  # the retry
    assert app.root.current == "table" and not app.session.state.ended
    assert app.store.query("SELECT count(*) FROM games") == [(games_before[0][0] + 1,)]


def test_a_tap_at_the_table_with_the_database_busy_is_refused_within_the_bound(ui, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = ui.start(config=ui.config(store=StoreConfig(db=db, busy_timeout=10)))
    view = mid_game(ui)
    assert app.store.busy_timeout == 1.0  # the table waits 1 s whatever the configuration says
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_WRITE_LOCK, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        log = app.session.game.log
        view.pass_turn()
        ui.step(2)
        assert app.session.game.log == log
        assert toast_text(ui).startswith("the database is busy")
    finally:
        holder.kill()
        holder.wait()
    view.pass_turn()  # the retry
    assert len(app.session.game.log) == len(log) + 1


def test_play_again_with_the_disk_full_shows_a_toast_and_stays(ui, tmp_path: Path) -> None:
    with small_disk(tmp_path / "small") as disk:
        app, _view = at_the_end(ui, disk / "games.db")
        fill(disk)
        ui.tap(app.screen("end").ids.again)
        assert app.root.current == "end" and app.session.state.ended
        assert "full" in toast_text(ui)
        ui.stop()  # the app closes the file before the disk goes


def test_play_again_with_the_database_no_longer_writable_shows_a_toast_and_stays(ui, tmp_path: Path) -> None:
    """Another file put in the database's place while the app runs: nothing more is written, and it says so."""
    db = tmp_path / "games.db"
    app, _view = at_the_end(ui, db)
    db.rename(tmp_path / "moved.db")
    Store.open(db).close()
    ui.tap(app.screen("end").ids.again)
    assert app.root.current == "end"
    assert toast_text(ui).startswith(f"nothing can be saved in {db}: another file was put in its place")


def test_the_database_deleted_while_the_game_runs_is_written_anew_and_said(ui, tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = ui.start(config=ui.config(store=StoreConfig(db=db)))
    view = mid_game(ui)
    for leftover in tmp_path.glob("games.db*"):
        leftover.unlink()
    before = len(app.session.game.log)
    for number in (8, 9, 10):  # Ben, Cy and Dee each play a chili higher, then two pass
        assert view.declare("chili", number)
    assert view.pass_turn() and view.pass_turn()
    ui.step(2)
    assert len(app.session.game.log) == before + 5
    log = app.session.game.log
    assert "was deleted while the app ran" in toast_text(ui)
    ui.stop()
    with Store.open(db) as store:
        assert store.load(app.session.game_id).game().log == log
