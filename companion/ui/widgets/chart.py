"""A line chart on the canvas: the score race of a game, a player's results over time.

Lines on the canvas rather than ``kivy_garden.graph``: a chart is a handful of
``Line`` instructions and a few label textures, drawn again only when its data
or size changes, so it costs nothing while it is on screen; it is drawn in the
theme's colours and type like every other panel; and it adds no dependency
(the garden graph has not been released since 2021).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from companion.ui import theme
from companion.ui.widgets.label import drawn

POINT_GAP = 3
"""Pixels (dp) at least between two drawn points of a line."""
GRID_LINES = 4
"""About this many horizontal lines, at round steps: enough to read a score off from a metre away."""


def nice_step(span: float, lines: int = GRID_LINES) -> int:
    """A round step (1, 2, 5, 10, 20, 50...) that cuts ``span`` into about ``lines`` parts.

    >>> nice_step(37), nice_step(3), nice_step(0), nice_step(180)
    (10, 1, 1, 50)
    """
    if span <= 0:
        return 1
    raw = span / lines
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


class LineChart(Widget):
    series = ListProperty()
    """``(rgba, values)`` per line; each value is one point, left to right, all lines on the same x scale."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        redraw = Clock.create_trigger(self._draw)  # a new series, size and place at once: one drawing
        self.bind(series=redraw, pos=redraw, size=redraw)

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        values = [v for _colour, line in self.series for v in line]
        if not values or self.width < dp(40) or self.height < dp(40):
            return
        step = nice_step(max(values) - min(values))
        low, high = step * math.floor(min(values) / step), step * math.ceil(max(values) / step)
        if high == low:
            high = low + step
        labels = [self._label(theme.signed(v) if v else "0") for v in range(low, high + 1, step)]
        left = self.x + max(texture.width for texture in labels) + dp(8)
        bottom, top = self.y + dp(8), self.top - dp(8)
        right = self.right - dp(8)
        points = max(len(line) for _colour, line in self.series)

        def y_of(value: float) -> float:
            return bottom + (value - low) / (high - low) * (top - bottom)

        with self.canvas:
            for value, texture in zip(range(low, high + 1, step), labels, strict=True):
                y = y_of(value)
                Color(*(theme.LINE_2 if value == 0 else theme.LINE))
                Line(points=[left, y, right, y], width=dp(1.5) if value == 0 else 1)
                Color(*theme.MUTED)
                Rectangle(texture=texture, size=texture.size, pos=(left - dp(6) - texture.width, y - texture.height / 2))
            for colour, line in self.series:
                Color(*colour)
                if points == 1:  # one game so far: its point, in the middle, where a line would start
                    radius = dp(6)
                    Ellipse(pos=((left + right) / 2 - radius, y_of(line[0]) - radius), size=(2 * radius, 2 * radius))
                    continue
                Line(points=self._points(line, points, left, right, y_of), width=dp(2.5), joint="round", cap="round")

    @staticmethod
    def _points(line: Sequence[float], count: int, left: float, right: float, y_of: Any) -> list[float]:
        """The line's points on screen, at most one every ``POINT_GAP`` pixels (evenly chosen, the last kept):
        thousands of games would otherwise be thousands of joints drawn on top of one another."""
        gap = (right - left) / max(1, count - 1)
        step = max(1, math.ceil(dp(POINT_GAP) / gap)) if gap > 0 else 1
        chosen = list(range(0, len(line), step))
        if chosen[-1] != len(line) - 1:
            chosen.append(len(line) - 1)
        return [coordinate for i in chosen for coordinate in (left + i * gap, y_of(line[i]))]

    @staticmethod
    def _label(text: str) -> Any:
        words, font = drawn(text)
        label = CoreLabel(text=words, font_name=font, font_size=sp(theme.FONT_SMALL), bold=True)
        label.refresh()
        return label.texture
