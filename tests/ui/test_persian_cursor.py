"""The name field's cursor on a Persian table, by touch: a Persian name typed on the Persian keys is drawn right
to left, and its cursor stands where the eye expects it (at the end of the name, on its left; before its
first letter, on its right), however Kivy's text input counts it; a tap puts it there, and the next key types
there."""

from __future__ import annotations

from typing import Any

import pytest
from arabic_reshaper import reshape
from kivy.base import EventLoop
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Rectangle

from companion.ui.i18n import tr
from companion.ui.widgets.keyboard import TextField
from conftest import Touch
from keyboard_helpers import keys, type_on_screen
from test_persian import persian_set_up


def drawn_width(field: TextField, text: str) -> float:
    """How wide ``text``'s glyphs are in the field's font: SDL2_ttf measuring them, not the field."""
    return float(CoreLabel(font_name=field.font_name, font_size=field.font_size).get_extents(text)[0])


def text_right(field: TextField) -> float:
    """Where a right-aligned line ends: the field's right, inside its padding."""
    return float(field.right - field.padding[2])


@pytest.fixture
def field(ui: Any) -> TextField:
    """The set-up's name field on a Persian table, focused, with the on-screen keyboard up."""
    name: TextField = persian_set_up(ui).ids.new_name
    yield name
    tr.switch("en")


def test_the_cursor_ends_a_persian_name_on_its_left_and_a_tap_on_its_right_puts_it_before_it(
        ui: Any, field: TextField) -> None:
    type_on_screen(ui, "سارا")
    assert field.text == "سارا" and field.cursor_col == 4
    left = text_right(field) - drawn_width(field, reshape("سارا"))
    assert abs(field.cursor_pos[0] - left) <= 2  # after the last letter typed: the name's left end

    ui.tap_at(*field.to_window(text_right(field) - 2, field.center_y))  # on the name's right: its first letter
    assert field.cursor_col == 0
    assert abs(field.cursor_pos[0] - text_right(field)) <= 2
    type_on_screen(ui, "ب")
    assert field.text == "بسارا"  # typed where the cursor showed: before the name

    left = text_right(field) - drawn_width(field, reshape("بسارا"))
    ui.tap_at(*field.to_window(left + 1, field.center_y))  # on the name's left: after its last letter
    assert field.cursor_col == 5
    ui.tap(keys(ui)["backspace"])
    assert field.text == "بسار"


def test_a_latin_name_after_a_persian_one_puts_the_cursor_at_the_latin_end(ui: Any, field: TextField) -> None:
    """علی Ben: in a right-to-left line the Latin word is drawn on the left, left to right; the cursor after
    its last letter stands at its right, between it and the Persian word."""
    type_on_screen(ui, "علی Ben")
    assert field.text == "علی Ben"
    left = text_right(field) - drawn_width(field, "Ben " + reshape("علی")[::-1])
    assert abs(field.cursor_pos[0] - (left + drawn_width(field, "Ben"))) <= 2


def highlighted(field: TextField) -> list[tuple[float, float]]:
    """Where the selection is drawn on the field's line: each box's left and right, left first."""
    boxes = [box for box in field.canvas.get_group("selection") if isinstance(box, Rectangle)]
    return sorted((box.pos[0], box.pos[0] + box.size[0]) for box in boxes)


def near(found: list[tuple[float, float]], wanted: list[tuple[float, float]]) -> bool:
    return len(found) == len(wanted) and all(abs(a - b) <= 2 for box, aim in zip(found, wanted, strict=True)
                                             for a, b in zip(box, aim, strict=True))


def test_a_double_tap_on_a_latin_word_highlights_that_word_where_it_is_drawn(ui: Any, field: TextField) -> None:
    """علی Ben, drawn "Ben علی": a double tap on Ben selects it, and the highlight covers Ben, at the left, not
    the Persian word (Kivy measured from the line's left by the typed order: "علی " first)."""
    type_on_screen(ui, "علی Ben")
    left = text_right(field) - drawn_width(field, "Ben " + reshape("علی")[::-1])
    at = field.to_window(left + drawn_width(field, "Be"), field.center_y)
    ui.tap_at(*at)
    second = Touch(*at)
    second.is_double_tap = True  # as Kivy's double-tap recogniser marks a second tap on the same place
    EventLoop.post_dispatch_input("begin", second)
    ui.step()
    EventLoop.post_dispatch_input("end", second)
    ui.step(3)
    assert field.selection_text == "Ben"
    assert near(highlighted(field), [(left, left + drawn_width(field, "Ben"))]), highlighted(field)


def test_a_drag_from_a_persian_word_into_a_latin_one_highlights_the_letters_it_selects(
        ui: Any, field: TextField) -> None:
    """A finger drawn from علی's start (the line's right) to between Ben's e and n selects "علی Be": on screen
    the Persian word with the space at the right and Be at the left, two boxes, the n between them plain."""
    type_on_screen(ui, "علی Ben")
    left = text_right(field) - drawn_width(field, "Ben " + reshape("علی")[::-1])
    finger = Touch(*field.to_window(text_right(field) - 1, field.center_y))
    EventLoop.post_dispatch_input("begin", finger)
    ui.step()
    finger.touch_move(*field.to_window(left + drawn_width(field, "Be"), field.center_y))
    ui.step()
    EventLoop.post_dispatch_input("end", finger)
    ui.step(2)
    assert field.selection_text == "علی Be"
    persian = drawn_width(field, " " + reshape("علی")[::-1])
    assert near(highlighted(field), [(left, left + drawn_width(field, "Be")),
                                     (text_right(field) - persian, text_right(field))]), highlighted(field)
