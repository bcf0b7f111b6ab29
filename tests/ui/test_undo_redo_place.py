"""Undo and redo are in one place on the table and on every sheet (challenge, reveal, result, draw pile)
and on the end screen, standing and lying flat: the table's hands go to the same corner whatever shows."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.uix.widget import Widget

from companion.rules import SPICY, new_setup
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets.seat_panel import SeatPanel
from layouts import LAYOUTS, WIDE_FLAT, params
from table_helpers import Table, on_screen, overlap

ANA, CY = 0, 2


def place(*buttons: Widget) -> list[tuple[int, ...]]:
    return [tuple(round(edge) for edge in on_screen(button)) for button in buttons]


def in_the_way(sheet: Widget, corner: list[tuple[int, ...]]) -> list[str]:
    """The sheet's own buttons that lie under the table's undo or redo."""
    buttons = [w for w in sheet.walk(restrict=True) if isinstance(w, BaseButton) and w.opacity > 0 and w.width > 0]
    return [button.text or button.icon for button in buttons if any(overlap(on_screen(button), box) for box in corner)]


def check(table: Table, sheet_name: str, table_corner: list[tuple[int, ...]]) -> None:
    screen = table.screen
    assert screen.sheet_name == sheet_name
    ids = screen.ids
    assert place(ids.undo, ids.redo) == table_corner, sheet_name
    assert ids.undo.parent is screen and screen.children.index(ids.undo) < screen.children.index(screen._sheet_holder)
    assert not in_the_way(table.sheet(), table_corner), sheet_name


@pytest.mark.parametrize(("size", "flat"), params((*LAYOUTS, WIDE_FLAT)))
def test_undo_and_redo_stay_in_the_tables_corner_on_every_sheet_and_the_end(
    ui: Any, size: tuple[int, int], flat: bool
) -> None:
    """By touches: the draw-pile count, a challenge by Cy (on the far edge lying flat, where the sheets
    turn to face Cy), the reveal, the result, undo on it, and the end. (The table's own Undo and Redo keep
    one place at every seat count and turn: tests/test_table_layout.py.)"""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA), gpio=False, face_seats=flat, size=size)
    view, screen, ids = table.view, table.screen, table.screen.ids
    table.declare("chili", 2)
    corner = place(ids.undo, ids.redo)
    assert corner[0][0] < corner[1][0] and corner[0][3] >= size[1] - 16 - 1  # at the top left
    assert corner[1][0] < size[0] / 2

    table.tap(ids.draw_pile)
    check(table, "draw_pile", corner)
    table.tap(table.sheet().ids.cancel)

    ui.hold(ui.find(SeatPanel, seat=view.seats[CY]), 0.8)
    check(table, "challenge", corner)
    turned = round(table.sheet().parent.parent.rotation) == 180
    assert turned == flat  # Cy sits on the top edge with four seats
    table.tap(table.sheet().ids.not_number)
    check(table, "reveal", corner)
    table.tap(table.sheet().ids.wrong)
    check(table, "result", corner)
    table.tap(ids.undo)  # over the sheet: the result is taken back
    check(table, "reveal", corner)
    table.tap(table.sheet().ids.wrong)
    check(table, "result", corner)
    table.tap(table.sheet().ids.ok)
    assert screen.sheet_name == "" and place(ids.undo, ids.redo) == corner

    table.tap(ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    ui.step(3)
    end = table.app.screen("end")
    assert table.app.root.current == "end" and view.ended
    assert place(end.ids.undo, end.ids.redo) == corner
    table.tap(end.ids.undo)
    ui.step(3)
    assert table.app.root.current == "table" and not view.ended
    assert place(ids.undo, ids.redo) == corner
