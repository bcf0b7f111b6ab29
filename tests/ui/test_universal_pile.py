"""Sweet & Spicy's universal pile stands on the table, its count the engine's, upright, in portrait and flat."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, Profile, new_setup
from companion.ui.widgets.claim_pad import NumberButton
from layouts import LAYOUTS, params
from table_helpers import Table, inside, on_screen, overlap, reads_from, within

ANA, BEN = 0, 1


def shown_count(table: Table) -> str:
    """The pile's count as the tile draws it, checked on screen, whole and facing the table's bottom edge."""
    tile = table.screen.ids.universal_pile
    assert tile.get_root_window() is not None, "the universal pile is not on the table"
    box = on_screen(tile)
    assert inside(box, (0, 0, *Window.size)) and inside(box, on_screen(table.screen.ids.hub))
    assert not overlap(box, on_screen(table.screen.ids.info)) and reads_from(tile) == "bottom"
    caption = tile.children[-1]  # whole: drawn smaller in a narrow strip, never shortened
    assert CoreLabel(font_size=caption.font_size, bold=True).get_extents(caption.text)[0] <= caption.width + 1
    assert 0 < tile.ids.count.texture_size[0] <= tile.ids.count.width + 1
    return tile.ids.count.text


def lose_a_challenge(table: Table, player: int, challenger: int, none_left: bool = False) -> None:
    """``player`` lays chili 1 (a new stack), ``challenger`` calls the number false, and the card turned
    over is chili 1: the challenger loses, and may take a universal while any are left."""
    table.declare("chili", 1)
    table.buzz((challenger, 0.0))
    table.ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    table.tap(within(table.sheet(), NumberButton, spice="chili", number=1))
    table.tap(table.sheet().ids.ok)
    assert table.view.may_take_universal == (-1 if none_left else challenger)


@pytest.mark.parametrize(("size", "flat"), params(LAYOUTS))
def test_the_universal_pile_counts_what_the_engine_counts_over_a_game(
    ui: Any, size: tuple[int, int], flat: bool,
) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben"], first=ANA), size=size, face_seats=flat)
    engine = table.app.session
    assert shown_count(table) == str(engine.state.universal_pile) == "4"  # 6 universal cards, 1 dealt a seat
    player, challenger = ANA, BEN
    counts = []
    while engine.state.universal_pile:
        lose_a_challenge(table, player, challenger)
        table.tap(table.screen.ids.take_universal)
        ui.step(2)
        assert shown_count(table) == str(engine.state.universal_pile)
        counts.append(engine.state.universal_pile)
        player, challenger = challenger, player  # the loser starts the next stack
    assert counts == [3, 2, 1, 0]
    table.tap(table.screen.ids.undo)  # the last universal taken goes back to the pile, and comes out again
    assert shown_count(table) == str(engine.state.universal_pile) == "1"
    table.tap(table.screen.ids.redo)
    assert shown_count(table) == str(engine.state.universal_pile) == "0"
    lose_a_challenge(table, player, challenger, none_left=True)
    assert not table.screen.ids.take_universal.shown and shown_count(table) == "0"


@pytest.mark.parametrize("profile", [SPICY, FIVE_SPICES])
def test_games_without_universal_cards_have_no_universal_pile(ui: Any, profile: Profile) -> None:
    table = Table(ui, new_setup(profile, ["Ana", "Ben", "Cy"], first=ANA))
    assert table.screen.ids.universal_pile.get_root_window() is None
    assert (table.screen.ids.trophies.get_root_window() is None) == (profile is FIVE_SPICES)
