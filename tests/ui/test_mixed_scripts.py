"""A label holding Persian and Japanese letters, which no one font has both of: each line drawn in the order it
reads (right to left on a Persian table, left to right on the others), its Persian letters joined and its
numbers in the table's digits, each run in the font that has its letters, nothing a box."""

from __future__ import annotations

from typing import Any

import pytest
from arabic_reshaper import reshape

from companion.rules import SPICY, new_setup
from companion.ui.i18n import tr
from companion.ui.widgets.label import Label, Runs
from table_helpers import Table
from test_persian import read_as_drawn
from tests.test_ui_catalogue import undrawable

MIXED = "سارا برنده شد با 12 امتیاز، さくら دوم"
"""Sara won with 12 points, Sakura second."""
NAMES = ["Zoë", "Ёжик", "さくら", "佐藤", "سارا", "Ben"]


def drawn(label: Label) -> list[list[tuple[str, str]]]:
    """What the label draws, line by line top first, each as its (font, words) runs left to right."""
    label.texture_update()
    core = label._label
    assert isinstance(core, Runs)
    return [[(word.options["font_name"], word.text) for word in line.words] for line in core._cached_lines
            if line.words]


def check_right_to_left(text: str, lines: list[list[tuple[str, str]]]) -> None:
    """Each line holds the next words of ``text`` (the first line its start), drawn right to left, each word
    as the eye reads it (``read_as_drawn``); each run's letters all in its font."""
    logical = text.split()
    for line in lines:
        words = "".join(part for _font, part in line).split()
        assert words[::-1] == [read_as_drawn(word) for word in logical[:len(words)]], line
        del logical[:len(words)]
        for font, part in line:
            assert undrawable({part}, font) == {}, (font, part)
    assert logical == []
    assert {font for line in lines for font, _part in line} == {"DejaVuSans", "NotoSansJP"}


@pytest.mark.parametrize(("share", "lines"), [(1.2, 1), (0.6, 2), (0.35, 3)])
def test_a_persian_sentence_with_a_japanese_name_reads_right_to_left_at_three_widths(
        ui: Any, share: float, lines: int) -> None:
    ui.start()
    tr.switch("fa")
    try:
        whole = Label(text=MIXED, font_size=24)
        whole.texture_update()
        drawn_lines = drawn(Label(text=MIXED, font_size=24, text_size=(whole.texture_size[0] * share, None)))
    finally:
        tr.switch("en")
    assert len(drawn_lines) >= lines and (len(drawn_lines) == 1) == (lines == 1)
    check_right_to_left(MIXED, drawn_lines)
    assert "۱۲" in str(drawn_lines) and "12" not in str(drawn_lines)


def test_a_persian_and_a_japanese_name_in_an_english_sentence_read_left_to_right(ui: Any) -> None:
    ui.start()
    assert drawn(Label(text="سارا beat さくら", font_size=24)) == [
        [("DejaVuSans", reshape("سارا")[::-1] + " beat "), ("NotoSansJP", "さくら")]]


def test_a_challenge_between_a_persian_and_a_japanese_name_on_a_persian_table(ui: Any) -> None:
    """سارا challenges さくら's chili 1 by buzzer: the sheet's title and the seat's line read right to left."""
    table = Table(ui, new_setup(SPICY, NAMES, first=2, end_card=25), gpio=False)
    tr.switch("fa")
    try:
        ui.step(2)
        table.declare("chili", 1)
        table.view.press(4)
        ui.until(lambda: table.screen.sheet_name == "challenge")
        ui.step(2)
        title = table.sheet().ids.title
        assert "سارا" in title.text and "さくら" in title.text
        check_right_to_left(title.text, drawn(title))
        mixed = [label for label in ui.find_all(Label)
                 if label.opacity and isinstance(label._label, Runs) and label is not title]
        assert mixed, "a seat's line names さくら in Persian"
        for label in mixed:
            check_right_to_left(label.text, drawn(label))
    finally:
        tr.switch("en")
