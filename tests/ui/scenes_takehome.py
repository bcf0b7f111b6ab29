"""Scenes of games leaving the table for ``scripts/screenshots``: the Take games home screen after a
backup and a restore's plan, and "Log this play" with its QR code over the end screen."""

from __future__ import annotations

from typing import Any

from scenes import scene
from scenes_table import end


@scene("take-home")
def take_home(ui: Any) -> None:
    end(ui)
    ui.app.show("takehome")
    ui.step(2)
    screen = ui.app.screen("takehome")
    ui.tap(screen.ids.back_up)
    ui.until(lambda: not screen.busy)
    ui.tap(screen.ids.restore)
    ui.until(lambda: not screen.busy)


@scene("log-play")
def log_play(ui: Any) -> None:
    end(ui)
    ui.tap(ui.app.screen("end").ids.log_play)

