"""A database moved over the app's own while it runs: take games home lets the app's file go before it opens one."""

from __future__ import annotations

from datetime import datetime, UTC
from pathlib import Path

from companion.store import Store
from companion.store.backup import backups_in
from companion.store.simulate import simulate
from scenes_table import mid_game


def test_take_home_after_a_file_was_put_in_place_says_so_and_the_file_keeps_its_games(ui, tmp_path: Path) -> None:
    db, other = tmp_path / "games.db", tmp_path / "other.db"
    with Store.open(other) as store:
        simulate(store, 30, seed=8, start=datetime(2026, 11, 1, 18, 0, tzinfo=UTC))
        games = store.list_games()
    app = ui.start()
    mid_game(ui)
    other.rename(db)
    app.show("takehome")
    ui.step(2)
    screen = app.screen("takehome")
    ui.tap(screen.ids.back_up)
    ui.until(lambda: not screen.busy)
    assert screen.status == (f"nothing can be saved in {db}: another file was put in its place while the app ran; "
                             "restart the app to use it")
    ui.tap(screen.ids.back_up)  # the file put there, as it is
    ui.until(lambda: not screen.busy)
    (written,) = backups_in(tmp_path)
    assert screen.status == f"Every game was backed up to {written}"
    ui.stop()
    for path in (db, written):
        with Store.open(path) as store:
            assert store.check() == [] and store.list_games() == games
