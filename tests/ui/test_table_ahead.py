"""The table built ahead on set-up's last step (``TableScreen.ahead``) is the table of the game started,
whatever changed after it was built: it draws what a table opened afresh on the same game draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from kivy.core.window import Window

from companion.table.session import Preview
from companion.ui.i18n import tr
from companion.ui.screens.table import TableScreen
from companion.ui.widgets.seat_panel import SeatPanel
from table_helpers import on_the_last_step

NAMES = ("Ana", "Ben", "Cy")


def drawn(ui, table: TableScreen) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    """Every widget of the table and of its sheets, each sheet fitted to the table as it is when it opens:
    its kind, its words, its seat, where it is, its size and whether it shows."""
    for holder in table._holders.values():
        table._fit(holder)
    ui.step(2)
    return [
        (type(widget).__name__, getattr(widget, "text", None),
         (widget.seat.name, tuple(widget.seat.colour)) if isinstance(widget, SeatPanel) else None,
         tuple(round(v) for v in widget.to_window(*widget.pos)), tuple(round(v) for v in widget.size),
         widget.opacity)
        for part in (table, *table._holders.values()) for widget in part.walk(restrict=True)
    ]


def add_a_seat(setup: Any) -> None:
    setup.draft.add_seat("Dee")
    setup.draft.first = 3


def take_a_seat_away(setup: Any) -> None:
    setup.draft.remove_seat(1)
    setup.draft.first = 1


def other_rules(setup: Any) -> None:
    setup.draft.choose_profile("five-spices")


def french(_setup: Any) -> None:
    tr.switch("fr")


def turned(_setup: Any) -> None:
    Window.rotation = 90


def nothing(_setup: Any) -> None:
    pass


@pytest.mark.parametrize("change", [nothing, add_a_seat, take_a_seat_away, other_rules, french, turned])
def test_the_table_started_is_the_one_set_up_whatever_changed_after_it_was_built_ahead(
        ui, change: Callable[[Any], None]) -> None:  # type: ignore[no-untyped-def]
    app, setup = on_the_last_step(ui, NAMES)
    table = app.screen("table")
    ui.until(lambda: table.view is not None and isinstance(table.view.session, Preview))
    ui.step(3)  # prepared, and drawn once off screen
    assert [slot.panel.seat.name for slot in table._slots] == list(NAMES) and app.session is None

    change(setup)
    ui.step(2)
    ui.tap(setup.ids.next)  # "Start the game"
    ui.until(lambda: app.root.current == "table")
    ui.step(5)
    started = app.session.state.setup
    assert table.view.session is app.session and started == setup.draft.setup()
    assert [slot.panel.seat.name for slot in table._slots] == list(started.names)
    assert table.portrait == (Window.rotation == 90) and table.view.profile == started.profile.id
    built_ahead = drawn(ui, table)

    language, rotation = tr.language, Window.rotation
    ui.stop()
    app = ui.start()  # the same game, reopened by an app that built nothing ahead, then turned and switched alike
    Window.rotation = rotation
    tr.switch(language)
    ui.until(lambda: app.root.current == "table")
    ui.step(5)
    fresh = app.screen("table")
    assert fresh.view.session.game_id == table.view.session.game_id
    assert drawn(ui, fresh) == built_ahead
