"""docs/RULES.md 6 on screen: a tap on the draw pile lets the table set its count (adjust draw-pile N),
by touch only, saved like every action and undone like one."""

from __future__ import annotations

import json

from companion.rules import FIVE_SPICES, SPICY, AdjustDrawPile, new_setup
from table_helpers import Table

ANA, BEN, CY = 0, 1, 2


def saved_actions(table: Table) -> list[dict[str, object]]:
    rows = table.app.store.query(
        "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [table.view.session.game_id])
    return [json.loads(action) for (action,) in rows]


def test_the_draw_pile_sheet_sets_the_count_by_touch_saved_and_undone(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27, first=ANA))
    view, screen = table.view, table.screen
    assert view.draw_pile == 55
    table.tap(screen.ids.draw_pile)
    assert screen.sheet_name == "draw_pile"
    sheet = table.sheet()
    assert (sheet.ids.count.text, sheet.ids.counted.text) == ("55", "The companion counted 55")
    for _ in range(3):
        table.tap(sheet.ids.minus)
    table.tap(sheet.ids.plus)
    assert sheet.ids.count.text == "53" and view.draw_pile == 55  # nothing is set before OK
    ui.hold(sheet.ids.minus, 1.5)  # held, − keeps counting down until it is let go
    held = int(sheet.ids.count.text)
    assert 53 - held >= 5
    ui.step(10)
    assert int(sheet.ids.count.text) == held
    ui.hold(sheet.ids.plus, 1.5)
    assert int(sheet.ids.count.text) - held >= 5
    while sheet.ids.count.text != "53":
        table.tap(sheet.ids.minus if int(sheet.ids.count.text) > 53 else sheet.ids.plus)
    table.tap(sheet.ids.ok)
    assert screen.sheet_name == "" and view.draw_pile == 53
    assert view.session.game.log[-1] == AdjustDrawPile(53)
    assert saved_actions(table)[-1] == {"action": "adjust-draw-pile", "value": 53}
    assert screen.ids.draw_pile.count == 53

    table.tap(screen.ids.undo)
    assert view.draw_pile == 55
    table.tap(screen.ids.redo)
    assert view.draw_pile == 53


def test_cancel_leaves_the_count_and_the_log_as_they_were(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben"], first=ANA))
    view, screen = table.view, table.screen
    before = len(view.session.game.log)
    table.tap(screen.ids.draw_pile)
    table.tap(table.sheet().ids.plus)
    table.tap(table.sheet().ids.cancel)
    assert screen.sheet_name == "" and len(view.session.game.log) == before and view.draw_pile == 59


def test_a_count_of_0_ends_the_game_only_at_the_next_draw(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27, first=ANA))
    view, screen = table.view, table.screen
    view.set_draw_pile(2)
    table.tap(screen.ids.draw_pile)
    sheet = table.sheet()
    table.tap(sheet.ids.minus)
    table.tap(sheet.ids.minus)
    table.tap(sheet.ids.minus)  # at 0 already: − stays at 0
    assert sheet.ids.count.text == "0"
    table.tap(sheet.ids.ok)
    assert view.draw_pile == 0 and not view.ended
    table.pass_turn()
    assert view.ended and view.end_reason == "end-card"


def test_a_challenge_while_the_sheet_is_open_takes_its_place(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    view, screen = table.view, table.screen
    table.declare("chili", 2)
    table.tap(screen.ids.draw_pile)
    assert screen.sheet_name == "draw_pile"
    table.buzz((BEN, 0.0))
    ui.until(lambda: screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.cancel)
    assert screen.sheet_name == "" and view.draw_pile == 55


def test_five_spices_has_no_count_to_set(ui) -> None:
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben"], first=ANA))
    table.tap(table.screen.ids.draw_pile)
    assert table.screen.sheet_name == "" and "no World's End card" in table.toast()
