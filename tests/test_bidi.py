"""Right-to-left ordering without a window (``companion.ui.bidi``): a Latin name keeps the digits it was typed
with, in their place, inside a Persian line."""

from __future__ import annotations

import pytest

from companion.ui.bidi import places, visual

PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"


@pytest.mark.parametrize("name", ["Ben2", "R2D2", "Jo3l", "Ann-Li2"])
def test_a_name_with_digits_in_it_is_drawn_as_typed_in_a_persian_line(name: str) -> None:
    line = f"{name} ۵ امتیاز"  # "{name} 5 points"
    drawn = visual(line, True, PERSIAN_DIGITS)
    assert drawn.endswith(f"۵ {name}")  # read from the right: the name, then its points
    assert visual(name, True, PERSIAN_DIGITS) == name


def test_a_tables_default_name_and_its_code_read_as_written_in_a_persian_line() -> None:
    """A league table named by its id's start ("Table 3f9a") and its code, as the League screen shows them."""
    assert visual("Table 3f9a · 3F9AB2C", True, PERSIAN_DIGITS) == "Table 3f9a – 3F9AB2C"


def test_a_name_with_digits_keeps_its_cursor_places_in_typed_order() -> None:
    """A text field places its cursor by these: each typed letter of "Ben2" one glyph further right."""
    drawn, where = places("Ben2", True, PERSIAN_DIGITS)
    assert drawn == "Ben2"
    assert [place[0] for place in where if place is not None] == [0, 1, 2, 3]


@pytest.mark.parametrize(("line", "read"), [("Ana (4)", "(۴) Ana"), ("Ben: 1", "۱ :Ben"), ("Ben −3", "−۳ Ben"),
                                            ("Ben2 (4)", "(۴) Ben2")])
def test_a_number_after_a_name_stays_apart_from_it(line: str, read: str) -> None:
    assert visual(line, True, PERSIAN_DIGITS) == read
