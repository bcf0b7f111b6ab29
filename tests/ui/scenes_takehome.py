"""Scenes of games leaving the table for ``scripts/screenshots``: the Take games home screen after a
backup and a restore's plan, and "Log this play" with its QR code over the end screen."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from companion.rules import replay_transcript
from companion.table.session import Session
from companion.store import Store
from companion.store.backup import backup, plan_restore, restore
from companion.store.simulate import simulate
from scenes import scene
from scenes_table import end


def restore_plan_shown(ui: Any, folder: Path) -> None:
    """Take games home, in ``folder``, showing what restoring its backup would do."""
    tapped_in(ui, folder, "restore")


def tapped_in(ui: Any, folder: Path, button: str) -> None:
    """Take games home, in ``folder``, once the work the button tapped started is done."""
    ui.app.show("takehome")
    ui.step(2)
    screen = ui.app.screen("takehome")
    screen.choose(folder)
    ui.tap(screen.ids[button])
    ui.until(lambda: not screen.busy)


@scene("take-home")
def take_home(ui: Any) -> None:
    """Another table's backup, in a folder reached by a tap, and what restoring it would add."""
    end(ui)
    other = ui.tmp_path / "from-another-table"
    other.mkdir()
    with Store.open(other / "games.db") as store:
        simulate(store, 5, seed=8, start=datetime(2026, 11, 20, 19))
        backup(store, other)
    restore_plan_shown(ui, other)


@scene("take-home-backed-up")
def take_home_backed_up(ui: Any) -> None:
    """Back up tapped: the line says the whole path the backup was written to, broken at its slashes."""
    end(ui)
    tapped_in(ui, ui.tmp_path, "back_up")


SEATS = "rules spicy\nseats Ana Ben Cy\nend-card 27\n"


def _played(store: Store, game_id: int, text: str) -> None:
    """The game resumed and played on to the end of the transcript ``SEATS + text``."""
    session = Session.resume(store, game_id)
    assert session is not None
    for action in replay_transcript(SEATS + text).log[len(session.game.log):]:
        session.apply(action)


@scene("take-home-extend")
def take_home_extend(ui: Any) -> None:
    """Two of this table's unfinished games went to another table: one was finished there, the other played
    on both here and there; restoring that table's backup extends the first and keeps the second beside."""
    end(ui)
    opening = "play Ana chili 2\nplay Ben chili 6\n"
    here = ui.app.store
    games = [Session.new(here, replay_transcript(SEATS).setup).game_id for _ in range(2)]
    for game_id in games:
        _played(here, game_id, opening)
    other = ui.tmp_path / "from-another-table"
    other.mkdir()
    with Store.open(other / "games.db") as store:
        restore(store, plan_restore(store, backup(here, ui.tmp_path, name="taken.db")))
        finished, parted = (store.uids()[here.uid_of(game_id)] for game_id in games)
        _played(store, finished, opening + "challenge Cy spice\nreveal pepper 6\nplay Ben chili 1\nend-card-drawn\n")
        _played(store, parted, opening + "play Cy chili 7\n")
        simulate(store, 2, seed=8, start=datetime(2026, 11, 20, 19))
        backup(store, other)
    _played(here, games[1], opening + "challenge Cy spice\n")
    restore_plan_shown(ui, other)


@scene("log-play")
def log_play(ui: Any) -> None:
    end(ui)
    ui.tap(ui.app.screen("end").ids.log_play)

