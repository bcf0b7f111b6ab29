"""Where each part of the table goes: a seat's panel round the edges, the hub, the claim pad, Undo, Redo
and the menu, the last-card banner, as rectangles for a screen's size, its seats, lying flat or standing,
and the seat to play.

Standing, the seats are upright: a column on the left in landscape, a two-column grid in portrait,
under a bar with Undo and Redo at its left and the menu at its right. Lying flat (a landscape screen
flat on the table), each seat sits on its edge, turned to face it (design README "Lying flat"), and
only the claim pad turns as play goes round.

No Kivy, so tests check the layout at every size without a window: ``TableScreen`` (companion/ui/screens/
table.py) measures what only its widgets know (the title's words, how many rows the turn's buttons take)
and applies the rectangles. Rectangles are (x, y, width, height) in pixels, from the screen's bottom left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

Rect = tuple[float, float, float, float]
"""x, y, width, height."""
Size = tuple[float, float]

EDGE_ANGLES = {"bottom": 0, "left": 270, "top": 180, "right": 90}
"""Kivy's rotation (anticlockwise) that turns a panel to read from each edge."""

EDGES_BY_SEATS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
    5: ("bottom", "bottom", "left", "top", "top"),
    6: ("bottom", "bottom", "left", "top", "top", "right"),
}
"""Default edges, clockwise seen from above (design README "Lying flat")."""

DOCK = 80
"""How deep a seat's panel is on its edge, lying flat: what is left between two edges' panels must
hold five number keys of 48 dp side by side, the pad turned to a side edge."""
PANEL_MOST = 320
"""Lying flat, the longest a panel grows along a long edge."""
TURN_MOST = 368
"""Lying flat, the side of the square the pad, the hint and the turn's buttons take at the hub's centre."""
PAD_KEYS = 156
"""The claim pad's keys at their least: a row of spices over two rows of numbers, 48 dp each and 6 dp apart
(claim_pad.kv)."""
STACK_SHARE = 0.42
"""Standing, the stack card's share of the hub's width against the tiles' 1."""


@dataclass(frozen=True)
class Measures:
    """What the table's widgets measure and the layout does not decide, in pixels."""

    dp: float
    """Pixels in a dp."""
    history: Size
    """Undo's (and Redo's) size: a round button, a labelled pill in portrait."""
    menu: Size
    title: Size
    """The title's words as drawn: centred in the bar."""
    tab_rise: float
    """How far the seat to play's tab rises above its panel."""
    turn_rows: int
    """The rows the turn's buttons take (``TurnRow``)."""
    turn_row_height: float
    phone_link: Size | None = None
    """The phone page's button, while the page is served: left of the menu, it takes room from the title."""


@dataclass(frozen=True)
class Seat:
    rect: Rect
    angle: int
    """Kivy's rotation (anticlockwise) that turns the panel to read from its edge: 0 standing."""
    edge: str
    """The edge it reads from."""


@dataclass(frozen=True)
class TableLayout:
    lying: bool
    """Lying flat, landscape: seats on the edges. A flat portrait screen stands (the design's portrait)."""
    portrait: bool
    seats: tuple[Seat, ...]
    turn: Seat
    """The claim pad's box, which the hint and the turn's buttons share, turned to the seat to play."""
    turn_shown: bool
    """Lying flat, a replay's strip of controls leaves the square too small for the keys (and a replay takes no
    claim): the square stays empty rather than spill."""
    turn_padding: tuple[float, float, float, float]
    """Inside the pad's box: the hint's row over the keys, the turn's buttons under them."""
    head: float
    """How tall the hint's row over the pad is (with the avatar, name and hand in portrait)."""
    hub: Rect
    stack_card: Rect
    tiles: Rect
    """Beside the stack card: the draw pile and what is beside it."""
    draw_pile: Rect
    beside: Rect | None
    """Beside the draw pile: the banner when it is in the hub, else the trophies and the universal pile, if any."""
    banner: Rect
    banner_in_hub: bool
    undo: Rect
    redo: Rect
    menu: Rect
    title: Rect
    title_shown: bool
    phone_link: Rect | None
    """The phone page's button, while it shows (``Measures.phone_link``)."""


@dataclass(frozen=True)
class _Bar:
    undo: Rect
    redo: Rect
    menu: Rect
    title: Rect
    words: Rect
    """Between Redo and the menu (or the phone page's button): the title's place, and the banner's standing."""
    phone_link: Rect | None


@dataclass(frozen=True)
class _Frame:
    """What a layout's arrangement decides: the seats, the pad, the hub's box, and the hub's spacing."""

    seats: tuple[Seat, ...]
    turn: Seat
    hub: Rect
    hub_spacing: float
    stack_share: float


def table_layout(size: Size, seats: int, *, flat: bool, turn: int, measures: Measures, last_card: bool = False,
                 awards: bool = True, replaying: bool = False, mirrored: bool = False) -> TableLayout:
    """The table for a screen of ``size`` with ``seats`` seats and ``turn`` to play (-1: none). ``last_card``:
    the banner shows; ``awards``: the hub has trophies or a universal pile beside the draw pile; ``replaying``:
    a saved game, read-only; ``mirrored``: the table speaks a right-to-left language (``mirror``).

    >>> m = Measures(dp=1, history=(56, 56), menu=(56, 56), title=(120, 30), tab_rise=10, turn_rows=1,
    ...              turn_row_height=48)
    >>> table = table_layout((800, 480), 4, flat=True, turn=1, measures=m)
    >>> [seat.edge for seat in table.seats], table.turn.angle
    (['bottom', 'left', 'top', 'right'], 270)
    """
    w, h = size
    lying, portrait = w >= h and flat, w < h
    d = measures.dp
    margin = d * 16 if portrait else d * 8
    bar = _bar(measures, margin, w - margin, h - margin)
    # in landscape the pad has no room for two rows of buttons and the hint: the buttons matter more
    head = d * 64 if portrait else 0 if measures.turn_rows > 1 else d * 26
    padding = _turn_padding(head, measures)
    keys_least = padding[1] + padding[3] + d * PAD_KEYS
    frame = _flat(size, seats, turn, bar, measures) if lying else _standing(size, seats, measures, keys_least)
    in_hub = last_card and (replaying or (lying and not _top_edge_free(bar.words, frame.seats, d)))
    stack_card, tiles = _split(frame.hub, frame.stack_share, frame.hub_spacing, True)
    draw_pile, beside = _tiles(tiles, 2 if in_hub or awards else 1, d * 8)
    if beside is not None and in_hub:
        banner = beside
    else:  # lying flat, as deep as the top edge's panels: room for both sides of the table
        x, y, width, height = bar.words
        banner = (x, y + height - d * DOCK, width, d * DOCK) if lying else bar.words
    table = TableLayout(
        lying=lying, portrait=portrait, seats=frame.seats, turn=frame.turn, turn_shown=not (lying and replaying),
        turn_padding=padding, head=head, hub=frame.hub, stack_card=stack_card, tiles=tiles,
        draw_pile=draw_pile, beside=beside, banner=banner, banner_in_hub=in_hub, undo=bar.undo, redo=bar.redo,
        menu=bar.menu, title=bar.title, title_shown=not lying, phone_link=bar.phone_link)
    return mirror(table, w) if mirrored and not lying else table


def mirror(table: TableLayout, width: float) -> TableLayout:
    """The standing table as a right-to-left app lays it out: its mirror image, the seats' column at the right
    in landscape, Undo and Redo at the right of the bar and the menu at its left, the stack card right of the
    draw pile. Lying flat it is not mirrored: the seats sit round the table where their players sit.

    >>> m = Measures(dp=1, history=(56, 56), menu=(56, 56), title=(120, 30), tab_rise=10, turn_rows=1,
    ...              turn_row_height=48)
    >>> ltr = table_layout((800, 480), 3, flat=False, turn=0, measures=m)
    >>> rtl = table_layout((800, 480), 3, flat=False, turn=0, measures=m, mirrored=True)
    >>> ltr.undo[0] + ltr.undo[2] + rtl.undo[0] == 800, rtl.seats[0].rect[0] > rtl.hub[0]
    (True, True)
    """
    def flip(rect: Rect) -> Rect:
        x, y, w, h = rect
        return (width - x - w, y, w, h)

    def flip_seat(seat: Seat) -> Seat:
        return replace(seat, rect=flip(seat.rect))

    return replace(
        table, seats=tuple(map(flip_seat, table.seats)), turn=flip_seat(table.turn), hub=flip(table.hub),
        stack_card=flip(table.stack_card), tiles=flip(table.tiles), draw_pile=flip(table.draw_pile),
        beside=None if table.beside is None else flip(table.beside), banner=flip(table.banner), undo=flip(table.undo),
        redo=flip(table.redo), menu=flip(table.menu), title=flip(table.title),
        phone_link=None if table.phone_link is None else flip(table.phone_link))


def _turn_padding(head: float, measures: Measures) -> tuple[float, float, float, float]:
    """Inside the pad's box: room for the hint's row (``head``) over the keys and the turn's buttons under them."""
    d = measures.dp
    head_room = head + d * 6 if head else 0
    return d * 10, d * 8 + head_room, d * 10, d * 8 + measures.turn_row_height + d * 6


def _bar(measures: Measures, x: float, right: float, top: float) -> _Bar:
    """Undo and Redo at the left, always one tap away; the menu at the right, the phone page's button left of
    it while the page is served; their tops at ``top``."""
    (history_w, history_h), (menu_w, menu_h), (title_w, title_h) = measures.history, measures.menu, measures.title
    gap = measures.dp * 8
    undo = (x, top - history_h, history_w, history_h)
    redo = (x + history_w + gap, top - history_h, history_w, history_h)
    redo_right, menu_x = redo[0] + history_w, right - menu_w
    phone_link = None
    if measures.phone_link is not None:
        phone_w, phone_h = measures.phone_link
        phone_link = (menu_x - gap - phone_w, top - phone_h, phone_w, phone_h)
    end = phone_link[0] if phone_link is not None else menu_x
    centre = ((redo_right + end) / 2, top - menu_h / 2)
    return _Bar(
        undo=undo, redo=redo, menu=(menu_x, top - menu_h, menu_w, menu_h),
        title=(centre[0] - title_w / 2, centre[1] - title_h / 2, title_w, title_h),
        words=(redo_right + gap, top - menu_h, max(0.0, end - redo_right - 2 * gap), menu_h), phone_link=phone_link)


def _standing(size: Size, seats: int, measures: Measures, keys_least: float) -> _Frame:
    return _portrait(size, seats, measures) if size[0] < size[1] else _column(size, seats, measures, keys_least)


def _column(size: Size, seats: int, measures: Measures, keys_least: float) -> _Frame:
    """Standing, landscape: the bar across the top, the seats in a column on the left under it,
    everything else on the right. The pad is at least as tall as its keys need (``keys_least``, with the
    hint over them and the turn's buttons under them) while the hub keeps 112 dp."""
    w, h = size
    d = measures.dp
    m = d * 8
    bar = measures.menu[1] + m
    col = min(d * 280, max(d * 220, w * 0.3))
    gap = d * (6 if seats < 6 else 4)
    row = min(d * 96, (h - 2 * m - bar - (seats - 1) * gap) / seats)
    placed = tuple(Seat((m, h - m - bar - (i + 1) * row - i * gap, col, row), 0, "bottom") for i in range(seats))
    middle = h - 2 * m - bar
    pad_h = min(middle - d * 120, max(d * 250, middle * 0.55, keys_least))
    return _middle(placed, col + 2 * m, m, w - col - 3 * m, middle, pad_h, d)


def _portrait(size: Size, seats: int, measures: Measures) -> _Frame:
    """Standing, portrait: a two-column grid of seats under the top bar, clockwise."""
    w, h = size
    d = measures.dp
    m = d * 16
    bar = m + measures.history[1] + measures.tab_rise + d * 4  # the seat to play's tab stays clear of Undo
    rows = (seats + 1) // 2
    cell_w = (w - 2 * m - d * 8) / 2
    cell_h = d * 112
    cells = [(0, 0)] + [(r, 1) for r in range(rows)] + [(r, 0) for r in range(rows - 1, 0, -1)]
    placed = tuple(  # an odd count leaves a cell empty
        Seat((m + c * (cell_w + d * 8), h - bar - (r + 1) * cell_h - r * d * 8, cell_w, cell_h), 0, "bottom")
        for r, c in cells[:seats])
    top = h - bar - rows * (cell_h + d * 8)
    # keys about as tall as they are wide: the rest goes to the hub
    return _middle(placed, m, m, w - 2 * m, top - m, min(top - m - d * 200, d * 480), d)


def _middle(seats: tuple[Seat, ...], x: float, y: float, w: float, h: float, pad_h: float, d: float) -> _Frame:
    """Standing, the pad sits under the hub, framed by the hint above and the buttons below."""
    return _Frame(seats, Seat((x, y, w, pad_h), 0, "bottom"), (x, y + pad_h + d * 8, w, h - pad_h - d * 8),
                  d * 8, STACK_SHARE)


def _flat(size: Size, seats: int, turn: int, bar: _Bar, measures: Measures) -> _Frame:
    """Lying flat: each seat on its edge, turned to face it, and the hub between the edges. None of it
    depends on whose turn it is, so nothing the table reads moves as play goes round: only the turn
    (the pad, the hint and the buttons) turns, in a square at the hub's centre, to face the seat to play."""
    w, h = size
    d = measures.dp
    m, dock = d * 8, d * DOCK
    edges = EDGES_BY_SEATS[seats]
    hub_l, hub_r = m + dock + m, w - m - dock - m
    hub_b, hub_t = m + dock + m, h - m - dock - m
    rects: dict[int, Rect] = {}
    for edge in ("bottom", "top"):  # the long edges: the panels share what the side columns leave
        on_edge = [i for i, e in enumerate(edges) if e == edge]
        if edge == "bottom":
            on_edge.reverse()  # clockwise seen from above runs right to left along the bottom
        x0, x1 = hub_l, hub_r
        if edge == "top":  # clear of undo and redo at the left, the menu (and the phone page's button) at the right
            end = bar.phone_link[0] if bar.phone_link is not None else bar.menu[0]
            x0, x1 = max(x0, bar.redo[0] + bar.redo[2] + m), min(x1, end - m)
        n = max(1, len(on_edge))
        length = min(d * PANEL_MOST, (x1 - x0 - (n - 1) * m) / n)
        start = min(max(x0, (w - n * length - (n - 1) * m) / 2), x1 - n * length - (n - 1) * m)  # centred if it can be
        for k, seat in enumerate(on_edge):
            rects[seat] = (start + k * (length + m), m if edge == "bottom" else h - m - dock, length, dock)
    side_h = min(d * 300, hub_t - hub_b)
    for seat, edge in enumerate(edges):
        if edge in ("left", "right"):
            rects[seat] = (m if edge == "left" else w - m - dock, (h - side_h) / 2, dock, side_h)
    square = min(hub_t - hub_b, d * TURN_MOST)
    active = edges[max(turn, 0)]
    return _Frame(
        seats=tuple(Seat(rects[seat], EDGE_ANGLES[edge], edge) for seat, edge in enumerate(edges)),
        turn=Seat(((w - square) / 2, (hub_b + hub_t - square) / 2, square, square), EDGE_ANGLES[active], active),
        hub=(hub_l, hub_b, hub_r - hub_l, hub_t - hub_b),
        hub_spacing=square + 2 * m,  # the stack card on one side of the square, the draw pile and the trophies on the other
        stack_share=1)


def _top_edge_free(words: Rect, seats: tuple[Seat, ...], d: float) -> bool:
    """Lying flat, no seat's panel sits on the top edge between redo and the menu."""
    x, y, width, height = words
    top = y + height
    return width > 0 and not any(
        sx < x + width and x < sx + sw and sy + sh > top - d * DOCK for sx, sy, sw, sh in (s.rect for s in seats))


def _split(box: Rect, first_share: float, spacing: float, across: bool) -> tuple[Rect, Rect]:
    """Two parts side by side (``across``) or the first over the second, sharing what ``spacing`` leaves as
    ``first_share`` to 1, to the float as a Kivy BoxLayout shares it."""
    x, y, w, h = box
    total = 1.0 + first_share
    if across:
        space = max(0.0, w - spacing)
        first_w, second_w = max(0.0, space * first_share / total), max(0.0, space * 1 / total)
        return (x, y, first_w, h), (x + (first_w + spacing), y, second_w, h)
    space = max(0.0, h - spacing)
    first_h, second_h = max(0.0, space * first_share / total), max(0.0, space * 1 / total)
    return (x, y + (second_h + spacing), w, first_h), (x, y, w, second_h)


def _tiles(box: Rect, count: int, spacing: float) -> tuple[Rect, Rect | None]:
    """The draw pile alone, or the draw pile and what is beside it: side by side in a wide box, else the draw
    pile on top."""
    if count == 1:
        return box, None
    return _split(box, 1, spacing, box[2] > box[3] * 1.6)
