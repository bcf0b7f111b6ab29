"""What the window draws, read from its canvas tree: only the cheap instructions of the theme's shapes.

A software renderer pays per triangle and per filled pixel, seen or not
(docs/PERFORMANCE.md): a ``RoundedRectangle``, an ``Ellipse`` or a ``Line``
wider than a pixel costs several times the 9-patch that draws the same
shape, a shape in a transparent colour costs as much as a visible one, and
a stencil (Kivy's ``Image`` masks each picture with one) adds passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.graphics import Canvas, Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle, StencilPush
from kivy.graphics.instructions import Instruction, VertexInstruction
from kivy.uix.scrollview import ScrollView

from companion.rules import Card
from companion.ui import theme
from companion.ui.shapes import RoundedBox, Round
from companion.ui.widgets.claim_pad import SpiceButton
from companion.ui.widgets.icon import Icon
from scenes_table import buzz, mid_game


def drawn(instruction: Instruction, colour: list[float], skipped: list[Canvas],
          opacity: float = 1.0) -> Iterator[tuple[Instruction, float]]:
    """Every instruction the window applies, in order, with the alpha it is drawn at (its colour's
    times the opacity of the canvases it is in); each of ``skipped`` is left out. A canvas at opacity 0
    is followed like any other: Kivy draws it in full, and every pixel of it costs a software renderer."""
    if any(instruction is canvas for canvas in skipped):
        return
    if isinstance(instruction, Canvas):
        opacity *= instruction.opacity
        if instruction.has_before:
            yield from drawn(instruction.before, colour, skipped, opacity)
    if isinstance(instruction, Color):
        colour[:] = instruction.rgba
    yield instruction, colour[3] * opacity
    for child in getattr(instruction, "children", None) or []:
        yield from drawn(child, colour, skipped, opacity)
    if isinstance(instruction, Canvas) and instruction.has_after:
        yield from drawn(instruction.after, colour, skipped, opacity)


def scrolling() -> list[Canvas]:
    """Kivy's scroll views: their stencil, and their bars (2 px strips, transparent while there is nothing to scroll)."""
    views = [w for root in Window.children for w in root.walk() if isinstance(w, ScrollView)]
    return [view.canvas.before for view in views] + [view.canvas.after for view in views]


def has_area(instruction: VertexInstruction) -> bool:
    """An empty label's rectangle (no texture, no size) fills nothing."""
    return not isinstance(instruction, Rectangle) or (instruction.size[0] > 0 and instruction.size[1] > 0)


def costly(window_canvas: Canvas) -> list[str]:
    """What a redraw should not contain: slow shapes, wide lines, anything drawn invisibly."""
    found = []
    for instruction, alpha in drawn(window_canvas, [1.0] * 4, scrolling()):
        if isinstance(instruction, (RoundedRectangle, Ellipse)):
            found.append(type(instruction).__name__)
        elif isinstance(instruction, Line) and instruction.width > 1:
            found.append(f"Line of width {instruction.width}")
        elif isinstance(instruction, StencilPush):
            found.append("stencil")
        elif isinstance(instruction, VertexInstruction) and alpha == 0 and has_area(instruction):
            found.append(f"{type(instruction).__name__} drawn transparent")
    return found


def centre(quad: Rectangle) -> tuple[float, float]:
    return (quad.pos[0] + quad.size[0] / 2, quad.pos[1] + quad.size[1] / 2)


def count(cls: type, window_canvas: Canvas) -> int:
    return sum(isinstance(instruction, cls) for instruction, _alpha in drawn(window_canvas, [1.0] * 4, scrolling()))


def test_the_table_and_its_sheets_draw_only_cheap_visible_shapes(ui: Any) -> None:
    ui.start()
    screens: dict[str, list[str]] = {"home": costly(Window.canvas)}
    view = mid_game(ui)
    pad_keys = ui.find_all(SpiceButton)
    ui.tap(pad_keys[0])
    ui.step(2)
    assert pad_keys[0].selected
    screens["table"] = costly(Window.canvas)
    icons = [icon for icon in ui.find_all(Icon) if icon.canvas.children]
    assert len(icons) > 10 and all(centre(icon._quad) == pytest.approx(tuple(icon.center), abs=0.01) for icon in icons)  # as laid out
    shapes_on_table = count(Mesh, Window.canvas), count(RoundedBox, Window.canvas)
    buzz(ui, view, first="3", later="4", delay=0.012)
    screens["challenge sheet"] = costly(Window.canvas)
    view.call("number")
    ui.step(2)
    screens["reveal sheet"] = costly(Window.canvas)
    view.reveal(Card("chili", 4))
    ui.step(2)
    screens["result sheet"] = costly(Window.canvas)
    view.dismiss_result()
    view.end_card_showed()
    ui.step(3)
    screens["end"] = costly(Window.canvas)
    assert screens == {name: [] for name in screens}
    # Not vacuous: the table's panels, keys and rings are drawn by the kit, and some of its shapes are left
    # out because they are transparent (the ring of a seat that is not armed, the keys' pressed shade).
    assert shapes_on_table[0] > 40
    assert shapes_on_table[1] > shapes_on_table[0]


def test_a_shape_leaves_the_canvas_while_it_would_not_show_and_comes_back() -> None:
    canvas = Canvas()
    with canvas:
        box = RoundedBox(rgba=(1, 0, 0, 0), pos=(10, 10), size=(100, 40), radius=12, line=2)
        ring = Round(rgba=(1, 1, 1, 1), pos=(0, 0), size=(0, 0), line=3)
    assert box.children == [] and ring.children == []
    box.rgba = (1, 0, 0, 1)
    ring.size = (48, 48)
    assert [type(i).__name__ for i in box.children if not type(i).__name__ == "BindTexture"] == ["Color", "Mesh"]
    assert [type(i).__name__ for i in ring.children if not type(i).__name__ == "BindTexture"] == ["Color", "Rectangle"]
    box.size = (100, 0)
    assert box.children == []


def test_an_icon_is_one_quad_centred_in_its_box_never_enlarged_and_nothing_without_a_picture() -> None:
    icon = Icon(source=theme.icon("trophy"), color=theme.MUTED, size=(40, 20), pos=(100, 50))
    quads = [i for i in icon.canvas.children if isinstance(i, Rectangle)]
    assert len(quads) == 1 and quads[0].texture is not None
    assert tuple(quads[0].size) == (20, 20) and tuple(quads[0].pos) == (110, 50)
    icon.size = (300, 200)  # larger than the 96 px picture: drawn at its own size
    assert tuple(quads[0].size) == (96, 96) and tuple(quads[0].pos) == (202, 102)
    icon.source = ""
    assert icon.canvas.children == []


def test_a_hidden_icon_draws_nothing_and_comes_back_when_shown() -> None:
    """Kivy draws a canvas at opacity 0 in full, so an icon hidden that way takes its quad out."""
    icon = Icon(source=theme.icon("trophy"), size=(40, 40), pos=(0, 0))
    icon.opacity = 0
    assert icon.canvas.children == []
    icon.opacity = 1
    assert sum(isinstance(i, Rectangle) for i in icon.canvas.children) == 1
