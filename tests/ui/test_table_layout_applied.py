"""The table screen draws what ``table_layout`` says, at each layout: every part where the function puts it
(tested at every size without a window in tests/test_table_layout.py), turned to its edge, with the keys
and buttons the screen really measures big enough and the words whole, round the table and with the
last-card banner up, in each language.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules import SPICY, new_setup
from companion.table.layout import TableLayout
from companion.ui.i18n import tr
from companion.languages import CODES
from layout_checks import box, problems
from layouts import FLAT, LANDSCAPE, PORTRAIT, WIDE, WIDE_FLAT, Layout
from table_helpers import MAX, Table, on_screen, overlap, reads_from, shows, targets_fit, whole

TABLES = [(LANDSCAPE, 4), (WIDE, 4), (PORTRAIT, 4), (FLAT, 3), (FLAT, 4), (WIDE_FLAT, 6)]
"""Each layout; lying flat, three seats leave the top edge to the banner and four take it."""
NAMES = [MAX, "Ben", "Cy", "Dolores", "Eve", "Françoise"]


def drawn(screen: Any) -> dict[str, tuple[float, ...]]:
    """Where the screen drew each part, by the layout's names."""
    ids = screen.ids
    parts = {f"seat {i}": on_screen(slot.panel) for i, slot in enumerate(screen._slots)}
    parts.update({name: on_screen(ids[name]) for name in ("hub", "stack_card", "draw_pile", "undo", "redo", "menu")})
    parts.update(turn=on_screen(ids.turn), banner=on_screen(ids.banner), title=on_screen(ids.title))
    if ids.tiles.children[0] is not ids.draw_pile.__self__:
        parts["beside"] = on_screen(ids.tiles.children[0])
    return parts


def placed(table: TableLayout) -> dict[str, tuple[float, ...]]:
    """Where the layout puts the same parts."""
    parts = {f"seat {i}": box(seat.rect) for i, seat in enumerate(table.seats)}
    parts.update(hub=box(table.hub), stack_card=box(table.stack_card), draw_pile=box(table.draw_pile),
                 undo=box(table.undo), redo=box(table.redo), menu=box(table.menu), turn=box(table.turn.rect),
                 banner=box(table.banner), title=box(table.title))
    if table.beside is not None:
        parts["beside"] = box(table.beside)
    return parts


def misplaced(screen: Any) -> list[str]:
    """The parts the screen did not draw where its layout puts them (to a hundredth of a pixel)."""
    on, laid_out = drawn(screen), placed(screen.laid_out())
    if on.keys() != laid_out.keys():
        return [f"drawn {sorted(on)}, laid out {sorted(laid_out)}"]
    return [f"{name} at {on[name]}, not {box}" for name, box in laid_out.items()
            if any(abs(a - b) > 0.01 for a, b in zip(on[name], box, strict=True))]


def check_drawn_as_laid_out(table: Table) -> TableLayout:
    """The screen's parts are where the layout of what it measures puts them, turned to their edges, and
    the layout keeps every rule (layout_checks); the keys and buttons drawn are big enough, the hint whole."""
    screen, view = table.screen, table.view
    laid_out = screen.laid_out()
    assert misplaced(screen) == []
    panels = [slot.panel for slot in screen._slots]
    assert [reads_from(panel) for panel in panels] == [seat.edge for seat in laid_out.seats]
    assert reads_from(screen.ids.turn) == reads_from(screen.ids.pass_button) == laid_out.turn.edge
    assert problems(laid_out, screen.size, banner=bool(view.last_card), spices_high=screen.ids.pad.spice_height) == []
    assert targets_fit(screen) and whole(screen.ids.header)
    return laid_out


@pytest.mark.parametrize(("layout", "seats"), TABLES, ids=[f"{layout}-{seats}" for layout, seats in TABLES])
def test_the_table_is_drawn_as_laid_out_round_the_table_and_with_the_last_card_banner(
        ui: Any, layout: Layout, seats: int) -> None:
    """Round the table by taps on the pad, then Maximilian-Alexander's last card: the banner names the seat
    in every language where the layout puts it, clear of the claim and the draw-pile count, and when the
    window closes the trophies take their place back beside the draw pile."""
    table = Table(ui, new_setup(SPICY, NAMES[:seats], first=0), gpio=False, size=layout.size, face_seats=layout.flat)
    screen, view = table.screen, table.view
    assert screen.lying == layout.flat and screen.ids.banner.opacity == 0
    for turn in range(seats):  # by taps on the pad, turned to each seat's edge lying flat
        assert view.turn == turn
        check_drawn_as_laid_out(table)
        table.declare("chili", turn + 1)
    number = seats
    for _ in range(5):  # Maximilian-Alexander plays the rest of the hand, the others pass
        number = number + 1 if number < 10 else 1
        view.declare("chili", number)
        if view.seats[0].hand:
            for _ in range(seats - 1):
                view.pass_turn()
    ui.step(3)
    assert view.last_card == MAX and screen.ids.banner.opacity == 1
    laid_out = check_drawn_as_laid_out(table)
    assert laid_out.banner_in_hub == (layout.flat and seats > 3)
    for language in CODES:
        assert table.app.change_settings(language=language, face_seats=layout.flat)
        ui.step(3)
        shows(screen.ids.banner.ids.near_side.ids.title, tr._("{name}: last card!"), {"name": MAX})
        assert misplaced(screen) == []
    banner = on_screen(screen.ids.banner)
    assert not any(overlap(banner, on_screen(part)) for part in (screen.ids.stack_card, screen.ids.draw_pile.ids.count))
    view.pass_turn()  # nobody challenged: the window closes, and the banner goes
    ui.step(3)
    assert not view.last_card and screen.ids.banner.opacity == 0
    assert screen.ids.awards.parent is screen.ids.tiles.__self__  # the trophies back beside the draw pile
    assert screen.ids.title.opacity == (0 if layout.flat else 1)
    check_drawn_as_laid_out(table)
