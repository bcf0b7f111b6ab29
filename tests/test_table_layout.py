"""The table's layout at every size, seat count and turn, without a window: nothing overlaps, everything is
on the screen and big enough to tap, Undo and Redo keep one place, lying flat only the pad turns, the seats
go round clockwise, and the last-card banner never covers the claim or the draw-pile count.

What the screen measures (the title's words, the rows of turn buttons) is given as numbers here; the
windowed tests (tests/ui/test_table_layout_applied.py) check the same on what the screen really measures.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from companion.table.layout import EDGE_ANGLES, EDGES_BY_SEATS, Measures, TableLayout, table_layout
from companion.ui import theme
from layout_checks import box, clockwise, overlap, parts, problems
from layouts import FLATS, LAYOUTS, PORTRAIT, Layout

SCREENS = (*LAYOUTS, *FLATS[1:], Layout(PORTRAIT.size, flat=True))
"""Every layout, the wide one lying flat, and a portrait screen set to lie flat (it stands)."""
SEATS = range(2, 7)
TITLE = (190.0, 29.0)
"""About the longest title's words ("Sweet & Spicy" at 24 sp)."""


def measures(size: tuple[int, int], turn_rows: int = 1, title: tuple[float, float] = TITLE,
             phone_link: bool = False) -> Measures:
    """What the table's widgets measure at density 1: Undo and Redo are pills in portrait
    (buttons.kv), the turn's buttons' rows are 48 dp high and 6 dp apart (table.kv); ``phone_link``: the
    phone page is served, and its round button is in the bar."""
    round_button = theme.ROUND_BUTTON
    history = (theme.HISTORY_PILL, round_button) if size[0] < size[1] else (round_button, round_button)
    return Measures(dp=1, history=history, menu=(round_button, round_button), title=title, tab_rise=theme.TAB_RISE,
                    turn_rows=turn_rows, turn_row_height=turn_rows * theme.TARGET + (turn_rows - 1) * 6,
                    phone_link=(round_button, round_button) if phone_link else None)


def tables(screen: Layout, seats: int) -> Iterator[tuple[str, bool, TableLayout]]:
    """The table at every turn (and none), with one or two rows of turn buttons, with and without the banner,
    trophies, a replay, the phone page's button."""
    for turn, rows, last_card, awards, replaying, phone in itertools.product(
            range(-1, seats), (1, 2), (False, True), (False, True), (False, True), (False, True)):
        name = (f"turn {turn}, {rows} rows{', last card' * last_card}{', awards' * awards}{', replay' * replaying}"
                f"{', phone page' * phone}")
        yield name, last_card, table_layout(
            screen.size, seats, flat=screen.flat, turn=turn, measures=measures(screen.size, rows, phone_link=phone),
            last_card=last_card, awards=awards, replaying=replaying)


@pytest.mark.parametrize("screen", SCREENS, ids=str)
@pytest.mark.parametrize("seats", SEATS)
def test_every_part_is_on_the_screen_apart_from_the_others_and_big_enough_to_tap(screen: Layout, seats: int) -> None:
    spices_high = 72 if screen.size[0] < screen.size[1] else theme.TARGET  # claim_pad.kv: taller spices in portrait
    for name, last_card, table in tables(screen, seats):
        assert problems(table, screen.size, banner=last_card, spices_high=spices_high) == [], name


@pytest.mark.parametrize("screen", SCREENS, ids=str)
def test_in_landscape_a_second_row_of_turn_buttons_takes_the_hints_row(screen: Layout) -> None:
    """The buttons matter more: on 800x480 standing the pad keeps its keys' 48 dp beside two rows of them only
    so. In portrait the head (the seat to play's avatar, name and hand) stays."""
    one, two = (table_layout(screen.size, 4, flat=screen.flat, turn=0, measures=measures(screen.size, rows))
                for rows in (1, 2))
    portrait = screen.size[0] < screen.size[1]
    assert (one.head, two.head) == ((64, 64) if portrait else (26, 0))
    assert two.turn_padding[1] == (8 + 64 + 6 if portrait else 8)


@pytest.mark.parametrize("screen", SCREENS, ids=str)
def test_undo_and_redo_have_one_place_on_a_screen_at_its_top_left(screen: Layout) -> None:
    places = {(table.undo, table.redo) for seats in SEATS for _name, _last_card, table in tables(screen, seats)}
    assert len(places) == 1
    ((undo, redo),) = places
    margin = 16 if screen.size[0] < screen.size[1] else 8
    assert (undo[0], undo[1] + undo[3]) == (margin, screen.size[1] - margin)
    assert undo[0] + undo[2] < redo[0] and redo[1] == undo[1] and redo[0] + redo[2] < screen.size[0] / 2


@pytest.mark.parametrize("screen", FLATS, ids=str)
@pytest.mark.parametrize("seats", SEATS)
def test_lying_flat_each_seat_faces_its_edge_and_only_the_pad_turns_to_the_seat_to_play(
        screen: Layout, seats: int) -> None:
    w, h = screen.size
    at_turn = [table_layout(screen.size, seats, flat=True, turn=turn, measures=measures(screen.size))
               for turn in range(seats)]
    first = at_turn[0]
    for turn, table in enumerate(at_turn):
        assert table.lying and table.seats == first.seats and table.hub == first.hub
        assert (table.stack_card, table.draw_pile, table.banner) == (first.stack_card, first.draw_pile, first.banner)
        assert table.turn.rect == first.turn.rect and table.turn.edge == table.seats[turn].edge
        assert table.turn.angle == table.seats[turn].angle
    for seat, edge in zip(first.seats, EDGES_BY_SEATS[seats], strict=True):
        x, y, sw, sh = seat.rect
        assert seat.edge == edge and seat.angle == EDGE_ANGLES[edge]
        assert {"bottom": y, "left": x, "top": h - y - sh, "right": w - x - sw}[edge] == 8  # on its edge
        assert (sw > sh) == (edge in ("bottom", "top"))  # along it


@pytest.mark.parametrize("screen", SCREENS, ids=str)
@pytest.mark.parametrize("seats", SEATS)
def test_the_seats_go_round_the_table_clockwise(screen: Layout, seats: int) -> None:
    """Lying flat round the edges, in portrait round the grid; in landscape's column, from the top down."""
    table = table_layout(screen.size, seats, flat=screen.flat, turn=0, measures=measures(screen.size))
    rects = [seat.rect for seat in table.seats]
    if table.lying or table.portrait:
        assert clockwise(rects) or (seats == 2 and not table.lying)  # two seats side by side: either way round
    else:
        assert [y for _x, y, _w, _h in rects] == sorted((y for _x, y, _w, _h in rects), reverse=True)
    assert all(seat.angle == 0 for seat in table.seats) != table.lying


@pytest.mark.parametrize("screen", SCREENS, ids=str)
@pytest.mark.parametrize("seats", SEATS)
def test_the_last_card_banner_is_beside_the_draw_pile_only_where_the_top_bar_has_no_room(
        screen: Layout, seats: int) -> None:
    """Standing, the banner takes the title's place between Redo and the menu; lying flat, the top edge
    there, unless a seat sits on it: then the trophies' place beside the draw pile, which a replay's
    banner takes too (its controls cover the top bar)."""
    m = measures(screen.size)
    for replaying in (False, True):
        table = table_layout(screen.size, seats, flat=screen.flat, turn=0, measures=m, last_card=True,
                             replaying=replaying)
        top_seated = table.lying and "top" in EDGES_BY_SEATS[seats]
        assert table.banner_in_hub == (replaying or top_seated)
        if table.banner_in_hub:
            assert table.banner == table.beside
        else:
            redo, menu = table.redo, table.menu
            assert table.banner[0] >= redo[0] + redo[2] and table.banner[0] + table.banner[2] <= menu[0]
            assert table.banner[1] + table.banner[3] == menu[1] + menu[3]  # in the top bar
        for part in (table.stack_card, table.draw_pile, table.turn.rect):
            assert not overlap(box(table.banner), box(part))
        gone = table_layout(screen.size, seats, flat=screen.flat, turn=0, measures=m, replaying=replaying)
        assert not gone.banner_in_hub and gone.beside == table.beside  # the trophies take their place back


@pytest.mark.parametrize("screen", SCREENS, ids=str)
def test_the_title_is_centred_between_redo_and_the_menu_and_goes_lying_flat(screen: Layout) -> None:
    for title in ((0.0, 0.0), TITLE, (300.0, 24.0)):
        table = table_layout(screen.size, 4, flat=screen.flat, turn=0, measures=measures(screen.size, title=title))
        x, y, w, h = table.title
        redo, menu = table.redo, table.menu
        assert (w, h) == title and x + w / 2 == (redo[0] + redo[2] + menu[0]) / 2
        assert y + h / 2 == menu[1] + menu[3] / 2
        assert table.title_shown != table.lying


@pytest.mark.parametrize("screen", SCREENS, ids=str)
def test_the_phone_pages_button_stands_left_of_the_menu_and_the_title_is_centred_between_redo_and_it(
        screen: Layout) -> None:
    served = table_layout(screen.size, 4, flat=screen.flat, turn=0, measures=measures(screen.size, phone_link=True))
    assert served.phone_link is not None
    x, y, w, h = served.phone_link
    menu, redo, title = served.menu, served.redo, served.title
    assert x + w < menu[0] and y + h == menu[1] + menu[3] and x > redo[0] + redo[2]
    assert title[0] + title[2] / 2 == (redo[0] + redo[2] + x) / 2
    alone = table_layout(screen.size, 4, flat=screen.flat, turn=0, measures=measures(screen.size))
    assert alone.phone_link is None and alone.menu == menu and alone.title[0] > title[0]


@pytest.mark.parametrize("screen", SCREENS, ids=str)
@pytest.mark.parametrize("seats", SEATS)
def test_the_draw_pile_has_the_tiles_to_itself_with_no_trophies_and_no_universal_pile(
        screen: Layout, seats: int) -> None:
    alone = table_layout(screen.size, seats, flat=screen.flat, turn=0, measures=measures(screen.size), awards=False)
    shared = table_layout(screen.size, seats, flat=screen.flat, turn=0, measures=measures(screen.size))
    assert alone.beside is None and shared.beside is not None
    x, y, w, h = shared.draw_pile
    bx, by, bw, bh = shared.beside
    tiles = (min(x, bx), min(y, by), max(x + w, bx + bw) - min(x, bx), max(y + h, by + bh) - min(y, by))
    assert alone.draw_pile == pytest.approx(tiles)
    assert (bx > x) == (tiles[2] > 1.6 * tiles[3])  # side by side in a wide box, else the draw pile on top


def test_a_denser_screen_scales_every_part() -> None:
    """At 2 pixels a dp, a screen twice as big in pixels has the same table, twice as big."""
    one = table_layout((800, 480), 6, flat=True, turn=3, measures=measures((800, 480)))
    m = measures((800, 480))
    two = table_layout((1600, 960), 6, flat=True, turn=3, measures=Measures(
        dp=2, history=(112, 112), menu=(112, 112), title=(380, 58), tab_rise=20, turn_rows=1,
        turn_row_height=m.turn_row_height * 2))
    twice = parts(two)
    for name, rect in parts(one).items():
        assert twice[name] == pytest.approx(tuple(2 * v for v in rect)), name
    assert two.turn_padding == pytest.approx(tuple(2 * v for v in one.turn_padding))
