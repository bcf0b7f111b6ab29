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
    assert any(line.startswith("game #3 of the backup was left out, unreadable: ") for line in lines)
    ui.tap(screen.ids.add)
    ui.until(lambda: not screen.busy)
    assert screen.status == "3 games added" and len(app.store.uids()) == 3
    ui.tap(screen.ids.back_up)  # the next job runs too
    ui.until(lambda: not screen.busy)
    assert screen.status.startswith("Every game was backed up to ")
