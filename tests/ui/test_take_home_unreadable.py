"""A backup with rows that cannot be read, restored by touch: the screen says which, and goes on working."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from store_helpers import spoil

from companion.store import Store
from companion.store.backup import backup
from companion.store.simulate import simulate


def test_a_restore_meeting_unreadable_games_adds_the_others_and_the_screen_keeps_working(ui, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    with Store.open(other / "games.db") as store:
        simulate(store, 5, seed=2, start=datetime(2026, 1, 1))
        spoil(backup(store, other))
    app = ui.start()
    app.show("takehome")
    ui.step(2)
    screen = app.screen("takehome")
    screen.choose(other)
    ui.tap(screen.ids.restore)
    ui.until(lambda: not screen.busy)
    lines = screen.status.splitlines()
    assert lines[0].endswith(": 3 games to add, 0 already here")
    assert "game #2 of the backup was left out, unreadable: its data is nested too deep to read" in lines
    assert ("game #3 of the backup was left out, unreadable: a value in its log is of the wrong kind (text where a "
            "number belongs, or the like)") in lines
    ui.tap(screen.ids.add)
    ui.until(lambda: not screen.busy)
    assert screen.status == "3 games added" and len(app.store.uids()) == 3
    ui.tap(screen.ids.back_up)  # the next job runs too
    ui.until(lambda: not screen.busy)
    assert screen.status.startswith("Every game was backed up to ")


def test_an_export_meeting_unreadable_games_writes_the_others_and_names_those(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 5, seed=2, start=datetime(2026, 1, 1))
    spoil(tmp_path / "games.db")
    app = ui.start()
    app.show("takehome")
    ui.step(2)
    screen = app.screen("takehome")
    ui.tap(screen.ids.export)
    ui.until(lambda: not screen.busy)
    lines = screen.status.splitlines()
    assert lines[0].startswith("3 games exported to ")
    assert lines[1:] == ["game #2 was left out: its data is nested too deep to read",
                         "game #3 was left out: a value in its log is of the wrong kind (text where a number "
                         "belongs, or the like)"]
