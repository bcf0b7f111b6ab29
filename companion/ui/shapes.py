"""The theme's drawing kit: rounded boxes, outlines, discs and rings as textured quads.

A software renderer (Mesa llvmpipe) pays for every triangle it sets up and
every pixel it fills, seen or not: a ``RoundedRectangle`` is a fan of thin
triangles and a ``Line`` wider than one pixel a strip of them, and together
they made a redraw of the table cost 50 ms (docs/PERFORMANCE.md). Each shape
here is one 9-patch ``Mesh`` or one textured ``Rectangle`` of an anti-aliased
texture made once per radius and line width: white and tinted by the shape's
``Color``, or, for a box with both a fill and an outline, holding both in
their own colours, so the box is one layer, not two. An outline alone draws
its sides only as deep as its line; a dashed one is a mesh of dash quads.

In kv (the module registers the names with the Factory)::

    canvas.before:
        RoundedBox:  # a panel: filled, with an outline
            rgba: theme.LINE
            fill: theme.SURFACE
            pos: self.pos
            size: self.size
            radius: dp(theme.RADIUS_PANEL)
            line: dp(1)
        Round:
            rgba: theme.ARMED
            pos: ...
            size: dp(48), dp(48)
            line: dp(3)

A shape whose colour is transparent or whose size is empty is taken out of
the canvas, not drawn invisibly: a transparent fill costs the same as a
visible one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any, TypeVar

from kivy.factory import Factory
from kivy.graphics import Canvas, Color, Instruction, InstructionGroup, Mesh, Rectangle
from kivy.graphics.texture import Texture

ROUND_TEXTURE_MAX = 256
"""Discs and rings larger than this are stretched from this size: the felt's soft edge is a few pixels wide."""


def _coverage(outside: float) -> float:
    """How much of a pixel lies inside an edge its centre is ``outside`` pixels beyond."""
    return min(1.0, max(0.0, 0.5 - outside))


def _band(outside: float, line: float) -> float:
    """Coverage of a filled shape (line 0) or of the ``line`` pixels just inside its edge."""
    filled = _coverage(outside)
    return filled - _coverage(outside + line) if line else filled


def over(top: Sequence[float], under: Sequence[float]) -> tuple[float, float, float, float]:
    """``top`` laid over ``under``: one colour where two layers were (a pressed button's shade mixed into
    its fill, each pixel of a box's outline and fill in one texture).

    >>> over((1.0, 1.0, 1.0, 0.5), (0.0, 0.0, 0.0, 1.0))
    (0.5, 0.5, 0.5, 1.0)
    >>> over((1.0, 1.0, 1.0, 0.1), (0.0, 0.0, 0.0, 0.0))
    (1.0, 1.0, 1.0, 0.1)
    """
    alpha = top[3] + under[3] * (1 - top[3])
    if not alpha:
        return (0.0, 0.0, 0.0, 0.0)
    red, green, blue = ((t * top[3] + u * under[3] * (1 - top[3])) / alpha for t, u in zip(top[:3], under[:3], strict=True))
    return (red, green, blue, alpha)


def _texture(size: int, pixels: bytes) -> Texture:
    texture = Texture.create(size=(size, size), colorfmt="rgba")
    texture.blit_buffer(pixels, colorfmt="rgba", bufferfmt="ubyte")
    return texture


T = TypeVar("T")


def _mirrored(size: int, value: Callable[[float, float], T]) -> list[T]:
    """``value(x, y)`` at each pixel centre of a square that is the same mirrored across both its middles,
    row by row, worked out for one quarter: the textures are made while the table plays (a ring the first
    time a seat is armed), and a quarter of the work keeps that frame short."""
    half = (size + 1) // 2
    quarter = [[value(column + 0.5, row + 0.5) for column in range(half)] for row in range(half)]
    rows = [row + row[size - half - 1::-1] if size > half else row for row in quarter]  # each row mirrored
    return [pixel for row in rows + rows[size - half - 1::-1] for pixel in row] if size > half else rows[0]


def _white(size: int, alphas: Iterable[float]) -> Texture:
    """A white texture with these alphas, row by row."""
    pixels = bytearray(b"\xff" * (4 * size * size))
    pixels[3::4] = bytes(round(255 * alpha) for alpha in alphas)
    return _texture(size, bytes(pixels))


@cache
def _rounded_layers(radius: int, line: float) -> tuple[int, list[tuple[float, float]]]:
    """A rounded box of ``radius`` px with two stretchable pixels between its corners: its side in px, and
    for each pixel (row by row) how much of it the outline (``line`` px wide) and the whole box cover."""
    half = radius + 1

    def layers(x: float, y: float) -> tuple[float, float]:
        qx, qy = abs(x - half) - 1, abs(y - half) - 1
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - radius
        return _band(outside, line), _coverage(outside)

    return 2 * half, _mirrored(2 * half, layers)


@cache
def rounded_texture(radius: int, line: float) -> Texture:
    """A white rounded box (line 0) or outline, tinted by the shape's colour."""
    size, layers = _rounded_layers(radius, line)
    return _white(size, (band for band, _box in layers))


Rgba = tuple[int, int, int, int]
"""A colour in bytes, as a texture holds it."""


@lru_cache(maxsize=256)
def framed_texture(radius: int, line: float, outline: Rgba, fill: Rgba) -> Texture:
    """A rounded box filled with ``fill`` under an outline in ``outline``, in their own colours: one layer
    where a fill and an outline drawn apart are two (each pixel is the outline over the fill).

    Made while the table plays (a seat's outline changes colour with the turn), so each distinct pixel is
    worked out once: a box's pixels take a few dozen values."""
    size, layers = _rounded_layers(radius, line)
    top, under = [value / 255 for value in outline], [value / 255 for value in fill]

    def colour(band: float, box: float) -> tuple[float, float, float, float]:
        return over((*top[:3], band * top[3]), (*under[:3], box * under[3]))

    edge = colour(1.0, 1.0)

    def pixel(band: float, box: float) -> bytes:
        red, green, blue, alpha = colour(band, box)
        if not alpha:  # clear, in the edge's colour: the two are filtered together at the edge
            red, green, blue = edge[:3]
        return bytes(round(255 * value) for value in (red, green, blue, alpha))

    pixels = {layer: pixel(*layer) for layer in set(layers)}
    return _texture(size, b"".join(map(pixels.__getitem__, layers)))


def _quads(count: int) -> list[int]:
    """Indices of ``count`` quads of four vertices each, two triangles a quad."""
    return [4 * quad + corner for quad in range(count) for corner in (0, 1, 2, 0, 2, 3)]


def _bytes(rgba: Sequence[float]) -> Rgba:
    red, green, blue, alpha = (round(255 * min(1.0, max(0.0, value))) for value in rgba)
    return red, green, blue, alpha


@cache
def round_texture(diameter: int, line: float, dashes: int) -> Texture:
    """A disc (line 0) or ring filling its square, the ring cut into ``dashes`` dashes if any."""
    centre = diameter / 2

    def alpha(x: float, y: float) -> float:
        distance = math.hypot(x - centre, y - centre)
        covered = _band(distance - centre, line)
        if not dashes or not covered:
            return covered
        turn = (math.atan2(y - centre, x - centre) / math.tau * dashes) % 1  # where in its dash and gap
        into_dash = (min(turn, 0.5 - turn) if turn < 0.5 else -min(turn - 0.5, 1 - turn)) * math.tau * distance / dashes
        return covered * _coverage(-into_dash)

    if dashes:  # dashes need not fall the same in each quarter
        return _white(diameter, (alpha(column + 0.5, row + 0.5) for row in range(diameter) for column in range(diameter)))
    return _white(diameter, _mirrored(diameter, alpha))


_SCRATCH = Canvas()


def _loose(make: Callable[[], list[Any]]) -> list[Any]:
    """Instructions made outside whatever canvas kv is filling: a new instruction adds itself to that one."""
    with _SCRATCH:
        made = make()
    _SCRATCH.clear()
    return made


_UNSET = object()


class _Setting:
    """A shape's setting in kv: stored, then the shape drawn again (``_refresh``) or only moved (``_place``)."""

    def __init__(self, default: Any, then: str = "_refresh") -> None:
        self.default, self.then = default, then

    def __set_name__(self, owner: type, name: str) -> None:
        self.stored = f"_{name}"

    def __get__(self, shape: Any, owner: type | None = None) -> Any:
        return self if shape is None else getattr(shape, self.stored, self.default)

    def __set__(self, shape: Any, value: Any) -> None:
        # A widget's size and pos are lists it changes in place: a copy keeps this value until it is set again.
        value = tuple(value) if isinstance(value, list) else value
        if value == getattr(shape, self.stored, _UNSET):
            return  # kv sets every value of a rule again when one changes: only a change is drawn
        setattr(shape, self.stored, value)
        getattr(shape, self.then)()


class _Shape(InstructionGroup):
    """A colour and one drawing instruction, both left out while nothing would show."""

    pos = _Setting((0.0, 0.0), then="_place")
    size = _Setting((0.0, 0.0))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        [self._colour] = _loose(lambda: [Color(0, 0, 0, 0)])
        self._rgba: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
        self._pos: tuple[float, float] = (0.0, 0.0)
        self._size: tuple[float, float] = (0.0, 0.0)
        self._line = 0.0
        self._shown = False
        self._in_canvas: list[Instruction] = []
        for name, value in kwargs.items():
            setattr(self, name, value)

    @property
    def rgba(self) -> list[float]:
        return list(self._rgba)

    @rgba.setter
    def rgba(self, value: Sequence[float]) -> None:
        if tuple(value) != self._rgba:  # as a setting: only a change is drawn
            self._rgba = tuple(value)
            self._refresh()

    @property
    def line(self) -> float:
        """The outline's width in px, drawn inside the shape's edge; 0 fills the shape."""
        return self._line

    @line.setter
    def line(self, value: float) -> None:
        if max(0.0, round(value, 1)) != self._line:
            self._line = max(0.0, round(value, 1))
            self._refresh()

    def _refresh(self) -> None:
        sized = self._size[0] > 0 and self._size[1] > 0
        self._shown = sized and self._visible()
        wanted = [self._colour, *self._drawn()] if self._shown else []
        if wanted != self._in_canvas:
            self.clear()
            for instruction in wanted:
                self.add(instruction)
            self._in_canvas = wanted
        if sized:
            self._shape()  # hidden too: a seat's ring is made when its panel is, not when a card is played
        if self._shown:
            self._colour.rgba = self._tint()
            self._place()

    def _visible(self) -> bool:
        return self._rgba[3] > 0

    def _tint(self) -> Sequence[float]:
        """The colour the white texture is drawn in."""
        return self._rgba

    def _drawn(self) -> list[Instruction]:
        raise NotImplementedError

    def _shape(self) -> None:
        """Fit the texture to the size, radius and line."""

    def _place(self) -> None:
        raise NotImplementedError


def _cells(wanted: Callable[[int, int], bool]) -> list[int]:
    """Triangles of the cells of a 5x5 grid of quads (6x6 vertices, row by row) that are ``wanted(column, row)``."""
    return [column + 6 * row + corner
            for row in range(5) for column in range(5) if wanted(column, row)
            for corner in (0, 1, 7, 0, 7, 6)]


_CORNERS_AND_MIDDLES = _cells(lambda column, row: column in (0, 2, 4) and row in (0, 2, 4))
"""A 9-patch: the corners as they are, the sides and middle stretched."""
_RIM = _cells(lambda column, row: (column != 2 and row != 2) or (column == 2 and row in (0, 4))
              or (row == 2 and column in (0, 4)))
"""An outline: the corners, and the sides only as deep as the line."""


class RoundedBox(_Shape):
    """A box with rounded corners: filled, outlined, both at once, or dashed.

    Outlined, the sides draw only as deep as the line, not the corner's radius; with ``fill`` too, the
    inside and the outline are one texture in their own colours, so the box costs one layer, not two.
    """

    radius = _Setting(0.0)
    dash = _Setting(0.0)
    """The dashes' length in px (the gaps are two thirds of it) for a dashed outline; 0 draws it solid."""
    fill = _Setting((0.0, 0.0, 0.0, 0.0))
    """With a solid ``line``, the colour inside the outline (which is ``rgba``)."""

    def __init__(self, **kwargs: Any) -> None:
        self._corner = 1
        """The texture's corner in px, the 9-patch's border."""
        self._patches, self._dashes = _loose(lambda: [Mesh(mode="triangles"), Mesh(mode="triangles")])
        self._shaped: tuple[Any, ...] = ()
        self._placed: tuple[Any, ...] = ()
        """What the mesh's texture and its vertices were last made for: a colour changed alone (a key dimmed,
        a seat's turn) tints the box again, and neither is made again."""
        super().__init__(**kwargs)

    def _framed(self) -> bool:
        return self._line > 0 and not self.dash and self.fill[3] > 0

    def _hollow(self) -> bool:
        return 0 < self._line <= self._corner and not self.dash and not self._framed()

    def _visible(self) -> bool:
        return self._rgba[3] > 0 or self._framed()

    def _tint(self) -> Sequence[float]:
        return (1.0, 1.0, 1.0, 1.0) if self._framed() else self._rgba

    def _drawn(self) -> list[Instruction]:
        return [self._dashes] if self.dash else [self._patches]

    def _shape(self) -> None:
        if self.dash:
            return
        corner = max(1, round(min(self.radius, self._size[0] / 2, self._size[1] / 2)))
        framed = self._framed()
        shaped = (corner, self._line, _bytes(self._rgba), _bytes(self.fill)) if framed else (corner, self._line, self._hollow())
        if shaped == self._shaped:
            return
        self._shaped, self._corner = shaped, corner
        self._patches.texture = framed_texture(*shaped) if framed else rounded_texture(corner, self._line)
        self._patches.indices = _RIM if self._hollow() else _CORNERS_AND_MIDDLES

    def _place(self) -> None:
        if not self._shown:
            return
        placed = (self._pos, self._size, self._corner, self._line, self._hollow(), self.dash, self.radius)
        if placed == self._placed:
            return
        self._placed = placed
        (x, y), (width, height) = self._pos, self._size
        if not self.dash:
            border = min(self._corner, width / 2, height / 2)
            rim = min(border, math.ceil(self._line) + 1) if self._hollow() else border
            cut = self._corner / (2 * self._corner + 2)  # where the texture's corners end
            inset = cut * rim / border
            xs = (x, x + rim, x + border, x + width - border, x + width - rim, x + width)
            ys = (y, y + rim, y + border, y + height - border, y + height - rim, y + height)
            uvs = (0.0, inset, cut, 1 - cut, 1 - inset, 1.0)
            self._patches.vertices = [value for j in range(6) for i in range(6) for value in (xs[i], ys[j], uvs[i], uvs[j])]
            return
        self._dashes.vertices, self._dashes.indices = dashed_outline(
            (x, y), (width, height), self.radius, max(1.0, self._line), self.dash,
        )


def _outline_path(pos: tuple[float, float], size: tuple[float, float], radius: float, line: float) -> list[tuple[float, float]]:
    """The middle of an outline ``line`` px wide inside a rounded box, anticlockwise from its bottom right."""
    (x, y), (width, height) = pos, size
    left, bottom, right, top = x + line / 2, y + line / 2, x + width - line / 2, y + height - line / 2
    bend = max(0.0, min(radius - line / 2, (right - left) / 2, (top - bottom) / 2))
    steps = max(1, round(bend / 2)) if bend else 0
    path: list[tuple[float, float]] = []
    for cx, cy, start in ((right - bend, bottom + bend, -90), (right - bend, top - bend, 0),
                          (left + bend, top - bend, 90), (left + bend, bottom + bend, 180)):
        for step in range(steps + 1):
            angle = math.radians(start + 90 * step / max(1, steps))
            path.append((cx + bend * math.cos(angle), cy + bend * math.sin(angle)))
    return path + path[:1]


def dashed_outline(pos: tuple[float, float], size: tuple[float, float], radius: float, line: float,
                   dash: float) -> tuple[list[float], list[int]]:
    """A dashed outline as one mesh of quads (vertices, indices), dashes ``dash`` px long and gaps two thirds
    of that. Kivy's dashed ``Line`` builds a texture while it draws, and single-sampled windows then drew
    it with another texture's pixels now and then. Dash ``k`` runs from ``k`` periods round the path, so
    no rounding of a running total can stall the walk."""
    period = dash * 5 / 3
    path = _outline_path(pos, size, radius, line)
    steps = [(x0, y0, x1, y1, math.hypot(x1 - x0, y1 - y0)) for (x0, y0), (x1, y1) in pairwise(path)]
    total = sum(step[4] for step in steps)
    dashes = math.ceil(total / period) if dash > 0 and math.isfinite(total) else 0
    quads: list[list[float]] = [[] for _ in range(dashes)]
    """Each dash's quads, one per step it covers: the steps are walked once, each with the few dashes on it
    (every dash against every step took 5 ms a frame where a dashed card moved)."""
    travelled = 0.0
    for x0, y0, x1, y1, length in steps if dashes else ():
        first = max(0, math.floor((travelled - dash) / period))
        for k in range(first, min(dashes, math.floor((travelled + length) / period) + 1)):
            start, end = k * period, min(total, k * period + dash)
            low, high = max(start, travelled), min(end, travelled + length)
            if high > low:  # this dash covers [low, high] of the path, on this step
                ux, uy = (x1 - x0) / length, (y1 - y0) / length
                nx, ny = -uy * line / 2, ux * line / 2
                ax, ay = x0 + ux * (low - travelled), y0 + uy * (low - travelled)
                bx, by = x0 + ux * (high - travelled), y0 + uy * (high - travelled)
                quads[k] += (ax - nx, ay - ny, 0, 0, bx - nx, by - ny, 0, 0, bx + nx, by + ny, 0, 0, ax + nx, ay + ny, 0, 0)
        travelled += length
    vertices = [value for quad in quads for value in quad]
    return vertices, _quads(len(vertices) // 16)


class Round(_Shape):
    """A disc or a ring (dashed if ``dashes``) filling its box: one textured quad; an oval if the box is not square."""

    dashes = _Setting(0)

    def __init__(self, **kwargs: Any) -> None:
        [self._quad] = _loose(lambda: [Rectangle()])
        super().__init__(**kwargs)

    def _drawn(self) -> list[Instruction]:
        return [self._quad]

    def _shape(self) -> None:
        diameter = min(ROUND_TEXTURE_MAX, max(2, round(max(self._size))))
        scale = diameter / max(self._size)
        self._quad.texture = round_texture(diameter, round(self._line * scale, 1), self.dashes)

    def _place(self) -> None:
        if self._shown:
            self._quad.pos, self._quad.size = self._pos, self._size


class OvalCorners(_Shape):
    """What lies outside an oval ``spread`` times the box's size, centred on it, and inside the box:
    a felt's dark edge over a window cleared to the felt's centre colour. Only the box's corners are
    drawn, each as strips that start where the oval's soft edge does (one mesh), so the clear inside of
    the oval is not filled at all."""

    spread = _Setting(1.0, then="_place")
    """The oval's size over the box's: 1 or more, an oval that reaches the box's sides (its texture ends there)."""
    STRIPS = 8
    """Strips per corner: the fewer, the more of the oval's clear inside each one fills."""

    def __init__(self, **kwargs: Any) -> None:
        [self._corners] = _loose(lambda: [Mesh(mode="triangles", indices=_quads(4 * self.STRIPS))])
        super().__init__(**kwargs)

    def _drawn(self) -> list[Instruction]:
        return [self._corners]

    def _shape(self) -> None:
        self._corners.texture = outside_texture(ROUND_TEXTURE_MAX)

    def _place(self) -> None:
        if not self._shown:
            return
        (x, y), (width, height) = self._pos, self._size
        half_w, half_h = width / 2, height / 2
        radius_x, radius_y = half_w * self.spread, half_h * self.spread
        # The oval's inside, short of its soft edge by two texels: one of edge, and half of one either side of it
        # where the texture is filtered.
        clear = 1 - 2 / ROUND_TEXTURE_MAX * 2
        # Strips run from where the oval crosses the box's sides to its top and bottom edges; each starts where
        # the oval's soft edge does at the strip's head (the side farther from the centre), where the oval
        # reaches least far out.
        reach_y = radius_y * math.sqrt(max(0.0, clear ** 2 - (half_w / radius_x) ** 2))
        feet = [reach_y + (half_h - reach_y) * step / self.STRIPS for step in range(self.STRIPS + 1)]
        vertices: list[float] = []
        for sign_x in (-1, 1):
            for sign_y in (-1, 1):
                for foot, head in pairwise(feet):
                    start = radius_x * math.sqrt(max(0.0, clear ** 2 - (head / radius_y) ** 2))
                    for along_x, along_y in ((start, foot), (half_w, foot), (half_w, head), (start, head)):
                        dx, dy = sign_x * min(half_w, along_x), sign_y * along_y
                        vertices += (x + half_w + dx, y + half_h + dy, 0.5 + dx / (2 * radius_x), 0.5 + dy / (2 * radius_y))
        self._corners.vertices = vertices


@cache
def outside_texture(diameter: int) -> Texture:
    """White outside a disc filling the square, clear inside it."""
    centre = diameter / 2
    return _white(diameter, _mirrored(diameter, lambda x, y: 1 - _coverage(math.hypot(x - centre, y - centre) - centre)))


Factory.register("RoundedBox", cls=RoundedBox)
Factory.register("Round", cls=Round)
Factory.register("OvalCorners", cls=OvalCorners)
