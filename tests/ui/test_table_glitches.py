"""Small things the table once drew wrong: each checked on the widgets of a real window."""

from __future__ import annotations

import pytest

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, new_setup
from companion.ui.widgets.seat_panel import SeatPanel
from companion.ui.widgets.stack_card import StackCard
from layouts import SHAPES, sizes
from table_helpers import Table, within

ANA, BEN, CY, DEE = 0, 1, 2, 3


def test_five_spices_face_up_card_is_a_pile_not_an_empty_stack(ui) -> None:  # type: ignore[no-untyped-def]
    """Five spices starts with one card face up: "PILE 1" on a card, never "Empty stack" beside it."""
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    card = within(table.screen, StackCard)
    assert table.view.stack == 1 and card.ids.pill.text == "PILE 1"
    assert card.ids.empty.text == ""
    spicy = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    card = within(spicy.screen, StackCard)
    assert spicy.view.stack == 0 and card.ids.empty.text == "Empty stack"  # a numbered game starts with none


def test_a_challenge_decided_without_a_card_shown_has_no_heading_over_nothing(ui) -> None:  # type: ignore
    """Five spices' challenge shows no card: the result sheet has no "TOLD" heading over an empty space."""
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    assert table.view.declare("cinnamon")
    assert table.view.press(BEN)
    ui.until(lambda: table.view.pending or table.view.result is not None)  # decided by the referee, on its thread
    if table.screen.sheet_name != "result":
        assert table.view.resolve(True)
        ui.step(2)
    sheet = table.sheet()
    assert table.screen.sheet_name == "result" and table.view.result.card is None
    assert sheet.ids.revealed_heading.text == ""
    assert sheet.ids.revealed_heading.height == 0


def test_portrait_the_to_play_tab_is_clear_of_the_top_bar(ui) -> None:  # type: ignore[no-untyped-def]
    """The tab on the seat to play rises over its panel's top edge; Undo and redo must not cover it."""
    for first in (ANA, BEN):  # the left column, under Undo, and the right one, under the title
        table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=first), gpio=False, size=(720, 1280))
        panel = ui.find(SeatPanel, seat=table.view.seats[first])
        tab = next(child for child in panel.children if getattr(child, "text", "") == "TO PLAY")
        ids = table.screen.ids
        tab_top = panel.to_window(0, tab.top)[1]
        for button in (ids.undo, ids.redo, ids.menu, ids.title):
            assert tab_top <= button.to_window(0, button.y)[1], (first, button, tab_top)


@pytest.mark.parametrize("size", sizes(SHAPES))
def test_the_title_is_centred_in_the_top_bar_after_a_new_game(ui, size: tuple[int, int]) -> None:  # type: ignore
    """A new game with a shorter title ("Spicy" after "Sweet & Spicy") is centred again between redo and the menu."""
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size)
    table.app.start_game(new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ui.step(3)
    ids = table.app.screen("table").ids
    assert ids.title.text == "Spicy"
    assert ids.title.width == pytest.approx(ids.title.texture_size[0], abs=1)
    assert ids.title.center_x == pytest.approx((ids.redo.right + ids.menu.x) / 2, abs=1)
