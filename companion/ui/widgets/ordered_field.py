"""A text field's cursor where its line is drawn: a Persian name is typed in its reading order, drawn in the
visual order (``companion.ui.bidi.visual``), and its cursor stands where the eye expects it.

Kivy's text input places its cursor by the typed (logical) order: at ``cursor_col`` characters from the left
of the line, measured on the typed letters apart, and a tap by the same measure. A line holding a
right-to-left letter is drawn reordered and joined, so by Kivy's measure the cursor at the end of a Persian
name stood at its right, where the name begins. Here such a line is measured as drawn, and the cursor after
a typed character stands at its glyph's far side in its direction (the left of a Persian letter, the right
of a Latin one or a digit), by ``bidi.places``; a tap puts the cursor at the nearest such place. The text
and the typing (an insert or a backspace at ``cursor_col``) stay Kivy's, in the typed order.

A selection (a double tap selects a word, a drag from one place to another the letters typed between) is
Kivy's too, a range of typed characters, which a backspace or a key replaces. Kivy highlights it from the
first selected character's measure to the last's, in the typed order; on a line drawn reordered the
highlight is over the glyphs of the characters selected instead: one box for each run of them side by side
on screen, so a range across a Persian word and a Latin one may be two boxes, as what it deletes is.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.textinput import TextInput

from companion import languages
from companion.ui.bidi import needs_order, places, visual
from companion.ui.i18n import tr


def _rtl() -> bool:
    return languages.language(tr.language).rtl


class OrderedCursor(TextInput):
    """Kivy's text input, each line holding a right-to-left letter measured as drawn, its cursor placed on
    it (``places``)."""

    def __init__(self, **kwargs: Any) -> None:
        self._viewport_cursor = (0, 0)
        self._viewport_due = Clock.create_trigger(self._viewport_now, -1)
        super().__init__(**kwargs)

    def _adjust_viewport(self, cc: int, cr: int) -> None:
        """Kivy's own is one trigger for the whole class, which keeps the last field that scrolled (and through
        it its screen and the app that made it) until another field scrolls: a process that starts app after
        app, as the suite does, carried a stopped app's few hundred thousand objects through every collection.
        Each field has its own trigger here, which lets go of it once it has run."""
        self._viewport_cursor = (cc, cr)
        self._viewport_due()

    def _viewport_now(self, _dt: float) -> None:
        TextInput._adjust_viewport.__wrapped__(self, *self._viewport_cursor)

    def _get_text_width(self, text: str, tab_width: int, _label_cached: Any) -> Any:
        if needs_order(text):
            text = visual(text, _rtl())
        return super()._get_text_width(text, tab_width, _label_cached)

    def cursor_offset(self) -> Any:
        row, col = int(self.cursor_row), int(self.cursor_col)
        line = self._lines[row] if row < len(self._lines) else ""
        return self._drawn_offset(line, col) if needs_order(line) else super().cursor_offset()

    def get_cursor_from_xy(self, x: float, y: float) -> Any:
        col, row = super().get_cursor_from_xy(x, y)
        line = self._lines[row] if row < len(self._lines) else ""
        if not needs_order(line):
            return col, row
        inside = x - self._line_left(row)
        return min(range(len(line) + 1), key=lambda at: abs(self._drawn_offset(line, at) - inside)), row

    def _drawn_offset(self, line: str, col: int) -> float:
        """How far from the drawn line's left the cursor stands after ``col`` typed characters."""
        drawn, where = places(line, _rtl())
        placed = [(index, place) for index, place in enumerate(where) if place is not None]
        if not placed:
            return 0.0
        before = [place for index, place in placed if index < col]
        at, leftward = before[-1] if before else placed[0][1]
        after = bool(before)  # the cursor is after that character, or (at the start) before the first
        left = at if leftward == after else at + 1  # after a Persian glyph its left edge, after a Latin one its right
        return self._drawn_width(drawn[:left])

    def _draw_selection(self, pos: Any, size: Any, line_num: int, selection_start: tuple[int, int],
                        selection_end: tuple[int, int], lines: list[str], *rest: Any) -> None:
        """Kivy's highlight of the selected part of line ``line_num``; on a line holding a right-to-left letter,
        a box over each run of the selected characters' glyphs (``places``). ``rest``: Kivy's measures, then
        how to draw and the colour."""
        line = lines[line_num]
        (start_col, start_row), (end_col, end_row) = selection_start, selection_end
        if not needs_order(line) or not start_row <= line_num <= end_row:
            super()._draw_selection(pos, size, line_num, selection_start, selection_end, lines, *rest)
            return
        canvas_add, selection_color = rest[-2:]
        first, last = start_col if line_num == start_row else 0, end_col if line_num == end_row else len(line)
        drawn, where = places(line, _rtl())
        glyphs = sorted({place[0] for place in where[first:last] if place is not None})
        padding_left, _top, padding_right, _bottom = self.padding
        inside = self.x + padding_left, self.right - padding_right
        left = self._line_left(line_num)
        for start, end in _side_by_side(glyphs):
            beg, finish = (min(max(left + self._drawn_width(drawn[:at]), inside[0]), inside[1])
                           for at in (start, end + 1))
            if finish > beg:
                canvas_add(Color(*selection_color, group="selection"))
                canvas_add(Rectangle(pos=(beg, pos[1]), size=(finish - beg, size[1]), group="selection"))

    def _drawn_width(self, drawn: str) -> float:
        """How wide ``drawn``, part of a line as drawn, is in the field's font."""
        return float(TextInput._get_text_width(self, drawn, self.tab_width, self._label_cached))

    def _line_left(self, row: int) -> float:
        """Where line ``row`` starts on screen, as Kivy aligns it (``TextInput._get_cursor_pos``)."""
        padding_left, _top, padding_right, _bottom = self.padding
        free = self.width - padding_left - padding_right - self._get_row_width(row)
        shift = {"right": max(0, free), "center": max(0, free // 2)}.get(self.halign, 0)
        return float(self.x + padding_left + shift - self.scroll_x)


def _side_by_side(glyphs: list[int]) -> list[tuple[int, int]]:
    """Sorted glyph indices as (first, last) of each run of neighbours: ``[0, 1, 2, 5]`` is ``[(0, 2), (5, 5)]``."""
    runs: list[tuple[int, int]] = []
    for glyph in glyphs:
        if runs and runs[-1][1] == glyph - 1:
            runs[-1] = (runs[-1][0], glyph)
        else:
            runs.append((glyph, glyph))
    return runs
