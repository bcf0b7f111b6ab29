"""What every table layout must keep, checked on ``table_layout``'s rectangles: by the layout's own tests at
every size without a window, and by the windowed tests on what the screen measured and drew.

Boxes are (left, bottom, right, top), as ``table_helpers.on_screen`` gives them; rectangles (x, y, width,
height), as the layout does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from companion.table.layout import Rect, TableLayout

Box = tuple[float, float, float, float]

TARGET = 48
"""The least a target measures each way, in dp (design README)."""
NUMBER_KEYS = (5, 2, 6)
"""The claim pad's number keys (claim_pad.kv): five a row, two rows, 6 dp apart, under a row of spices."""


def box(rect: Rect) -> Box:
    x, y, w, h = rect
    return x, y, x + w, y + h


def inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    """``inner`` lies within ``outer`` (boxes), give or take the pixel layouts round to."""
    return all(a >= b - 1 for a, b in zip(inner[:2], outer[:2], strict=True)) and all(
        a <= b + 1 for a, b in zip(inner[2:], outer[2:], strict=True))


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """The boxes share more than an edge's pixel."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def parts(table: TableLayout, banner: bool = True) -> dict[str, Rect]:
    """Every rectangle the table shows, by name (the hub holds the stack card, the draw pile and what is beside
    it); with ``banner``, the last-card banner, which covers the title in its place."""
    named = {f"seat {i}": seat.rect for i, seat in enumerate(table.seats)}
    named.update(turn=table.turn.rect, stack_card=table.stack_card, draw_pile=table.draw_pile, undo=table.undo,
                 redo=table.redo, menu=table.menu)
    if table.phone_link is not None:
        named["phone_link"] = table.phone_link
    if table.beside is not None and not table.banner_in_hub:
        named["beside"] = table.beside
    if banner:
        named["banner"] = table.banner
    elif table.title_shown:
        named["title"] = table.title
    return named


def problems(table: TableLayout, size: tuple[float, float], *, banner: bool, dp: float = 1,
             spices_high: float = TARGET) -> list[str]:
    """What is wrong with ``table`` on a screen of ``size``: each complaint names its parts. ``banner``: the
    last-card banner shows; ``spices_high``: the claim pad's row of spices (taller in portrait)."""
    named = parts(table, banner)
    wrong = [f"{name} leaves the screen" for name, rect in named.items() if not inside(box(rect), (0, 0, *size))]
    apart = [name for name in named if name != "turn" or not table.lying]  # lying flat, the pad is in the hub
    wrong += [f"{a} overlaps {b}" for i, a in enumerate(apart) for b in apart[i + 1:]
              if overlap(box(named[a]), box(named[b]))]
    if table.lying and not inside(box(table.turn.rect), box(table.hub)):
        wrong.append("the pad leaves the hub")
    wrong += [f"{name} is under {TARGET} dp" for name in ("undo", "redo", "menu", "phone_link")
              if name in named and min(named[name][2:]) < TARGET * dp - 0.5]
    wrong += [f"seat {i} is under {TARGET} dp" for i, seat in enumerate(table.seats)
              if min(seat.rect[2:]) < TARGET * dp - 0.5]
    wrong += pad_problems(table, dp, spices_high)
    return wrong


def pad_problems(table: TableLayout, dp: float, spices_high: float) -> list[str]:
    """The claim pad's keys get 48 dp each way inside its box, beside the hint and the turn's buttons."""
    x, y, w, h = table.turn.rect
    if table.turn.angle % 180:
        w, h = h, w  # turned a quarter: its own width runs up the screen
    left, top, right, bottom = table.turn_padding
    per_row, rows, gap = NUMBER_KEYS
    need_w = (per_row * TARGET + (per_row - 1) * gap) * dp
    need_h = (spices_high + gap + rows * TARGET + (rows - 1) * gap) * dp
    room_w, room_h = w - left - right, h - top - bottom
    if room_w < need_w - 0.5 or room_h < need_h - 0.5:
        return [f"the pad's keys get {room_w:.0f}x{room_h:.0f}, under {need_w:.0f}x{need_h:.0f}"]
    return []


def clockwise(rects: Iterable[Rect]) -> bool:
    """Seen from above, the rectangles' centres go round clockwise about their middle, less than once."""
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in rects]
    mx, my = (sum(c[0] for c in centres) / len(centres)), (sum(c[1] for c in centres) / len(centres))
    angles = [math.atan2(cy - my, cx - mx) for cx, cy in centres]
    turns = [(a - b) % math.tau for a, b in zip(angles, angles[1:], strict=False)]
    return all(0 < turn < math.pi * 1.5 for turn in turns) and sum(turns) < math.tau
