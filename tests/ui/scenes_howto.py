""""How to play" for ``scripts/screenshots``: opened from the table's menu mid-game (the situation now on top),
and from Home on the Sweet & Spicy page."""

from __future__ import annotations

from typing import Any

from scenes import scene
from scenes_table import mid_game


@scene("how-to-play")
def how_to_play(ui: Any) -> None:
    """Cy to play on Ben's chili 7: the card opens on Spicy's page, starting on what Cy may say."""
    mid_game(ui)
    table = ui.app.screen("table")
    ui.tap(table.ids.menu)
    ui.tap(table._menu.ids.how_to_play)
    ui.step(3)


@scene("how-to-play-home")
def how_to_play_home(ui: Any) -> None:
    ui.tap(ui.app.screen("home").ids.how_to_play)
    screen = ui.app.screen("howto")
    ui.tap(screen.ids.tab_sweet_spicy)
    ui.step(3)


@scene("table-menu")
def table_menu(ui: Any) -> None:
    """The table's menu open over the game: How to play, or home."""
    mid_game(ui)
    ui.tap(ui.app.screen("table").ids.menu)
    ui.step(3)
