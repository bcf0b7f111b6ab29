"""Each of these shows a message and changes nothing: the screen, the game and the saved log stay as they were."""

from __future__ import annotations

from typing import Any

from companion.rules import SPICY, new_setup
from companion.ui.widgets.claim_pad import NumberButton
from companion.ui.widgets.seat_panel import SeatPanel
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2


def snapshot(table: Table) -> tuple[Any, ...]:
    """The game as shown and as saved."""
    view = table.view
    (saved,) = table.app.store.query("SELECT count(*) FROM actions WHERE game_id = ?", [view.session.game_id])
    return (view.session.state.to_json(), saved, table.screen.sheet_name, view.buzz)


def test_a_tap_on_an_illegal_number_says_why_and_changes_nothing(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    table.declare("chili", 5)
    assert table.view.stack == 0 and "any spice 1 to 3" in table.toast()
    table.declare("chili", 2)
    before = snapshot(table)
    three = within(table.screen.ids.pad, NumberButton, number=2)
    assert three.dimmed  # dimmed, not disabled: the tap still arrives
    table.tap(three)
    assert table.toast() == "Ben must declare chili 3 to 10: the stack is chili and stands at 2"
    assert snapshot(table) == before


def test_a_challenge_with_no_card_to_challenge_says_why_and_changes_nothing(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    before = snapshot(table)
    table.buzz((BEN, 0.0))
    ui.until(lambda: "no card to challenge" in table.toast())
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[CY]), 0.8)
    assert table.toast().startswith("there is no card to challenge")
    assert snapshot(table) == before


def test_a_second_buzz_says_who_challenges_and_changes_nothing(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    table.declare("pepper", 1)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    before = snapshot(table)
    table.buzz((CY, 0.0))
    ui.until(lambda: table.toast() == "Cy buzzed too late: Ben challenges")
    ui.key("3")  # Cy's key
    assert snapshot(table) == before and table.lit() == [BEN]


def test_a_buzz_by_the_cards_own_player_says_so_and_changes_nothing(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    table.declare("wasabi", 3)
    before = snapshot(table)
    table.buzz((ANA, 0.0))
    ui.until(lambda: table.toast() == "Ana played this card and cannot challenge it")
    assert snapshot(table) == before and table.lit() == [BEN, CY]


def test_a_new_stack_has_no_spice_chosen_and_a_number_alone_says_to_choose_one(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    pad, view = table.screen.ids.pad, table.view
    one = within(pad, NumberButton, number=1)
    assert pad.spice == "" and not any(b.selected for b in pad.ids.spices.children)
    before = snapshot(table)
    table.tap(one)
    assert table.toast() == "Ana: choose a spice first, then its number"
    assert snapshot(table) == before
    table.declare("wasabi", 1)
    assert pad.spice == "wasabi"  # the stack's spice, which the next claim follows
    table.tap(within(pad, NumberButton, number=2))
    assert (view.claim_spice, view.claim_number, view.turn) == ("wasabi", 2, CY)

    # Ana challenges the number and is wrong: she draws and starts a new stack, and again no spice is chosen.
    table.buzz((ANA, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    table.tap(within(table.sheet(), NumberButton, spice="wasabi", number=2))
    table.tap(table.sheet().ids.ok)
    assert view.stack == 0 and view.turn == ANA and pad.spice == ""
    before = snapshot(table)
    table.tap(one)
    assert table.toast() == "Ana: choose a spice first, then its number"
    assert snapshot(table) == before
