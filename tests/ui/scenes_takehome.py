"""Scenes of games leaving the table for ``scripts/screenshots``: the Take games home screen after a
backup and a restore's plan, and "Log this play" with its QR code over the end screen."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.store import Store
from companion.store.backup import backup
from companion.store.simulate import simulate
from scenes import scene
from scenes_table import end


@scene("take-home")
def take_home(ui: Any) -> None:
    """Another table's backup, in a folder reached by a tap, and what restoring it would add."""
    end(ui)
    other = ui.tmp_path / "from-another-table"
    other.mkdir()
    with Store.open(other / "games.db") as store:
        simulate(store, 5, seed=8, start=datetime(2026, 11, 20, 19))
        backup(store, other)
    ui.app.show("takehome")
    ui.step(2)
    screen = ui.app.screen("takehome")
    screen.choose(other)
    ui.tap(screen.ids.restore)
    ui.until(lambda: not screen.busy)


@scene("log-play")
def log_play(ui: Any) -> None:
    end(ui)
    ui.tap(ui.app.screen("end").ids.log_play)

