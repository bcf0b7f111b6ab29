"""What the window draws, read from its canvas tree: only the cheap instructions of the theme's shapes.

A software renderer pays per triangle and per filled pixel, seen or not
(docs/PERFORMANCE.md): a ``RoundedRectangle``, an ``Ellipse`` or a ``Line``
wider than a pixel costs several times the 9-patch that draws the same
shape, a shape in a transparent colour costs as much as a visible one, and
a stencil (Kivy's ``Image`` masks each picture with one) adds passes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.graphics import (
    Canvas, ClearBuffers, ClearColor, Color, Ellipse, Fbo, InstructionGroup, Line, Mesh, Rectangle, RoundedRectangle,
    StencilPush,
)
from kivy.graphics.instructions import Instruction, VertexInstruction
from kivy.uix.scrollview import ScrollView

from companion.rules import Card
from companion.ui import theme
from companion.ui.shapes import (
    ROUND_TEXTURE_MAX, OvalCorners, RoundedBox, Round, dashed_outline, outside_texture, rounded_texture,
)
from companion.ui.widgets.buttons import SecondaryButton
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
        elif isinstance(instruction, Line) and (instruction.dash_offset or instruction.dashes):
            found.append("dashed Line")  # it makes its texture while drawing (shapes.dashed_outline)
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
    # out because they are transparent (the rings of seats that are not armed).
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


def drawn_pixels(size: tuple[int, int], background: tuple[float, ...], *shapes: Any) -> bytes:
    """What ``shapes`` draw over ``background``, read back from an Fbo of ``size``."""
    fbo = Fbo(size=size)
    with fbo:
        ClearColor(*background)
        ClearBuffers()
    for shape in shapes:
        fbo.add(shape)
    fbo.draw()
    return bytes(fbo.pixels)


def largest_difference(one: bytes, other: bytes) -> int:
    return max(abs(a - b) for a, b in zip(one, other, strict=True))


BACKGROUND = (0.16, 0.12, 0.1, 1.0)


@pytest.mark.parametrize(("outline", "fill", "line"), [
    (theme.ACCENT, theme.SURFACE_2, 3.5),
    (theme.LINE, theme.SURFACE, 1),
    ((1.0, 1.0, 1.0, 0.35), (0.91, 0.26, 0.18, 1.0), 2),  # a see-through outline shows the fill under it
    (theme.LINE_2, (0.2, 0.5, 0.9, 0.5), 2.5),  # and a see-through fill the felt
])
def test_a_filled_outline_draws_what_its_fill_and_outline_drew_apart_in_one_layer(
    ui: Any, outline: tuple[float, ...], fill: tuple[float, ...], line: float,
) -> None:
    """On whole pixels, the same but for rounding to bytes. Between pixels a texture is filtered, and one
    texture's edge is filtered a little differently from two (a few levels on its edge's pixels), but with no
    dark or light fringe around it."""
    for pos, tolerance in (((5, 7), 2), ((5.4, 7.7), 20)):
        box = {"pos": pos, "size": (110, 66), "radius": 14}
        apart = drawn_pixels((128, 80), BACKGROUND,
                             RoundedBox(rgba=fill, **box), RoundedBox(rgba=outline, line=line, **box))
        framed = RoundedBox(rgba=outline, fill=fill, line=line, **box)
        assert largest_difference(drawn_pixels((128, 80), BACKGROUND, framed), apart) <= tolerance
        assert [type(i).__name__ for i in framed.children if type(i).__name__ != "BindTexture"] == ["Color", "Mesh"]


def whole_nine_patch(texture: Any, pos: tuple[float, float], size: tuple[float, float], corner: int) -> Mesh:
    """A box drawn as every one of the nine patches of its texture, the middle and the full-depth sides too."""
    (x, y), (width, height) = pos, size
    cut = corner / texture.width
    xs, ys = (x, x + corner, x + width - corner, x + width), (y, y + corner, y + height - corner, y + height)
    uvs = (0.0, cut, 1 - cut, 1.0)
    return Mesh(mode="triangles", texture=texture,
                vertices=[v for j in range(4) for i in range(4) for v in (xs[i], ys[j], uvs[i], uvs[j])],
                indices=[c + 4 * row + column for row in range(3) for column in range(3) for c in (0, 1, 5, 0, 5, 4)])


@pytest.mark.parametrize("line", [1, 2.5, 3.5])
def test_an_outline_fills_only_a_band_as_deep_as_its_line(ui: Any, line: float) -> None:
    """Its sides reach in as far as the line and its anti-aliased edge, not the corner's radius, and yet it draws
    every pixel the whole 9-patch of its texture does, wherever it falls between pixels."""
    pos, size = (5.4, 7.7), (110, 66)
    outline = RoundedBox(rgba=theme.ACCENT, line=line, pos=pos, size=size, radius=20)
    whole = InstructionGroup()
    whole.add(Color(*theme.ACCENT))
    whole.add(whole_nine_patch(rounded_texture(20, line), pos, size, 20))
    assert largest_difference(drawn_pixels((128, 80), BACKGROUND, outline),
                              drawn_pixels((128, 80), BACKGROUND, whole)) <= 1
    mesh = next(i for i in outline.children if isinstance(i, Mesh))
    xs, ys, indices = mesh.vertices[0::4], mesh.vertices[1::4], mesh.indices
    area = sum(abs((xs[b] - xs[a]) * (ys[c] - ys[a]) - (xs[c] - xs[a]) * (ys[b] - ys[a])) / 2
               for a, b, c in zip(indices[0::3], indices[1::3], indices[2::3], strict=True))
    rim = math.ceil(line) + 1
    assert area <= 4 * 20 * 20 + 2 * (size[0] - 40 + size[1] - 40) * rim  # the corners, and the sides a rim deep


def test_the_felts_corners_are_the_oval_drawn_over_the_whole_box(ui: Any) -> None:
    """Only strips outside the oval are drawn, and they miss none of its soft edge."""
    size, spread = (320, 192), 1.1
    corners = OvalCorners(rgba=theme.FELT_EDGE, pos=(0, 0), size=size, spread=spread)
    width, height = size[0] * spread, size[1] * spread
    whole = InstructionGroup()
    whole.add(Color(*theme.FELT_EDGE))
    whole.add(Rectangle(texture=outside_texture(ROUND_TEXTURE_MAX), size=(width, height),
                        pos=((size[0] - width) / 2, (size[1] - height) / 2)))
    assert largest_difference(drawn_pixels(size, theme.FELT_CENTRE, corners),
                              drawn_pixels(size, theme.FELT_CENTRE, whole)) <= 2
    mesh = next(i for i in corners.children if isinstance(i, Mesh))
    xs, ys = mesh.vertices[0::4], mesh.vertices[1::4]
    quads = [(xs[q:q + 4], ys[q:q + 4]) for q in range(0, len(xs), 4)]
    area = sum((max(x) - min(x)) * (max(y) - min(y)) for x, y in quads)
    assert area < 0.15 * size[0] * size[1]


def test_a_dashed_outline_is_dashes_of_its_length_and_two_thirds_gaps_drawn_without_a_texture(ui: Any) -> None:
    dashed = RoundedBox(rgba=(1, 1, 1, 1), pos=(4, 4), size=(120, 40), radius=0, line=2, dash=6)
    mesh = next(i for i in dashed.children if isinstance(i, Mesh))
    assert mesh.texture is Mesh().texture  # Kivy's plain white one: nothing is made to draw it
    pixels = drawn_pixels((128, 48), (0, 0, 0, 1), dashed)
    for row in (4, 5):  # the bottom edge, two pixels deep
        lit = "".join("#" if pixels[4 * (row * 128 + column)] > 127 else "." for column in range(128))
        assert lit[:4] == "...." and lit[124:] == "...."
        runs = [len(run) for run in lit[4:124].replace(".", " ").split()]
        gaps = [len(run) for run in lit[4:124].replace("#", " ").split()]
        assert set(runs[1:-1]) == {6} and set(gaps[1:-1]) == {4}  # the edge's first and last turn its corners
    assert all(pixels[4 * (24 * 128 + column)] == 0 for column in range(8, 120))  # nothing inside


@pytest.mark.parametrize(("dash", "radius", "line"), [(8, 9, 3), (6.6, 0, 1), (5, 20, 2)])
def test_a_dashed_outline_of_any_length_is_three_fifths_dashes(ui: Any, dash: float, radius: float, line: float) -> None:
    """Dash lengths whose gaps are not whole numbers too (a dash of dp(6) at another density)."""
    vertices, indices = dashed_outline((137.0, 291.0), (52.0, 150.0), radius, line, dash)
    xs, ys = vertices[0::4], vertices[1::4]
    drawn = sum(math.hypot(xs[q + 1] - xs[q], ys[q + 1] - ys[q]) for q in range(0, len(xs), 4))
    bend = max(0.0, radius - line / 2)
    around = 2 * (52 - line) + 2 * (150 - line) - (8 - 2 * math.pi) * bend  # the outline's middle
    assert around * 0.6 - 2 * dash < drawn < around * 0.6 + dash
    assert len(indices) == 6 * len(xs) // 4


def test_a_dimmed_button_shows_a_press_too(ui: Any) -> None:
    """It still answers a tap (with the reason it is refused), so the finger sees it land."""
    button = SecondaryButton(text="Resume", dimmed=True, size=(160, 56))
    ui.step(1)  # kv sets a canvas's values at the next frame
    box = next(i for i in button.canvas.before.children if isinstance(i, RoundedBox))
    assert tuple(box.fill) == pytest.approx(theme.DISABLED_BG)
    button.state = "down"
    ui.step(1)
    assert tuple(box.fill) == pytest.approx(theme.over(theme.PRESSED, theme.DISABLED_BG))


def test_a_box_whose_fill_rounds_to_clear_is_drawn_as_its_outline(ui: Any) -> None:
    box = RoundedBox(rgba=(1, 0, 0, 0), fill=(0, 1, 0, 0.001), pos=(0, 0), size=(50, 50), radius=10, line=2)
    assert drawn_pixels((50, 50), (0, 0, 0, 1), box) == drawn_pixels((50, 50), (0, 0, 0, 1))
