"""Right-to-left ordering without a window (``companion.ui.bidi``): a Latin name keeps the digits it was typed
with, in their place, inside a Persian line."""

from __future__ import annotations

import pytest

from companion.ui.bidi import isolated, named, places, visual

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


@pytest.mark.parametrize("name", ["Table 3", "Ben 2", "3 Cy", "R2 D2 7"])
def test_a_name_with_a_number_of_its_own_is_drawn_as_typed_before_the_apps_number(name: str) -> None:
    """Told where the name is (``named``), the line draws it whole: "Table 3", not "۳ Table", and the points
    after it in Persian digits at its left."""
    line = named("{name} ۵ امتیاز", {"name": name})  # "{name} 5 points"
    assert line == f"{name} ۵ امتیاز" and line.names == ((0, len(name)),)
    assert visual(isolated(line), True, PERSIAN_DIGITS).endswith(f"۵ {name}")
    assert visual(isolated(named("{name}", {"name": name})), True, PERSIAN_DIGITS) == name


def test_a_tables_name_and_code_read_right_to_left_the_name_as_typed() -> None:
    """The League screen's line: from the right, the name, then the code; "Table 3" in its Western digit."""
    line = named("{name} · {code}", {"name": "Table 3"}, code="3F9AB2C")
    assert visual(isolated(line), True, PERSIAN_DIGITS) == "3F9AB2C – Table 3"


def test_the_apps_words_and_numbers_around_two_names_keep_their_order() -> None:
    """"Points: Ben 2: 4, 3 Cy (−3)", read from the right: each name as typed, each score in Persian digits."""
    line = named("امتیاز {a}: 4، {b} (−3)", {"a": "Ben 2", "b": "3 Cy"})
    assert visual(isolated(line), True, PERSIAN_DIGITS) == "(−۳) 3 Cy ،۴ :Ben 2 " + visual("امتیاز", True)


def test_a_persian_name_with_a_number_reads_as_one_in_either_direction() -> None:
    """سارا 2 is drawn right to left as one name (its 2 at its left), before a Persian ۵ or an English "wins"."""
    name = "سارا 2"
    sara = visual("سارا", True)
    assert visual(isolated(named("{name} ۵ امتیاز", {"name": name})), True, PERSIAN_DIGITS).endswith(f"۵ 2 {sara}")
    assert visual(isolated(named("{name} wins 12", {"name": name})), False) == f"2 {sara} wins 12"


def test_a_name_wrapped_across_two_lines_keeps_its_digits_on_the_second() -> None:
    """The label orders each wrapped line apart: the line a name's end starts is still that name's."""
    first, second = isolated(named("{name} ۵ امتیاز", {"name": "Ben Table 3"})).split(" ", 1)
    assert visual(first, True, PERSIAN_DIGITS) == "Ben"
    assert visual(second, True, PERSIAN_DIGITS).endswith("۵ Table 3")


def test_a_plain_line_has_no_names_to_mark() -> None:
    assert isolated("Ben 2") == "Ben 2" and visual("Ben 2", True, PERSIAN_DIGITS) == "۲ Ben"


@pytest.mark.parametrize("separator", [", ", ",  ", ": "])
def test_a_signed_score_before_a_separator_has_it_at_its_left_in_a_persian_line(separator: str) -> None:
    """"Gus −4, Ana 7", the saved games' seats: read from the right, Gus, his −4, then the comma, then Ana."""
    line = named("{a} −4" + separator + "{b} 7", {"a": "Gus", "b": "Ana"})
    drawn = visual(isolated(line), True, PERSIAN_DIGITS)
    assert drawn == "۷ Ana" + separator[1:] + separator[0] + "−۴ Gus"
    assert visual("−4,5 −4.5 −12:30", True, PERSIAN_DIGITS) == "−۱۲:۳۰ −۴.۵ −۴,۵"  # a number's own separators


@pytest.mark.parametrize(("language", "separator"), [("en", ", "), ("fr", ", "), ("de", ", "), ("nl", ", "),
                                                     ("ru", ", "), ("ja", "、"), ("fa", "، ")])
def test_the_tables_names_are_listed_with_the_languages_own_separator(language: str, separator: str) -> None:
    """Persian writes its own comma between names, Japanese its 、: the separator is the catalogue's."""
    from companion.ui.i18n import listed, tr

    tr.switch(language)
    try:
        line = listed(["Ana", "Ben 2", "سارا"])
    finally:
        tr.switch("en")
    assert line == separator.join(["Ana", "Ben 2", "سارا"])
    assert [line[start:end] for start, end in line.names] == ["Ana", "Ben 2", "سارا"]
    if language == "fa":  # read from the right: Ana, its comma at its left, then Ben 2 as typed
        assert visual(isolated(line), True, PERSIAN_DIGITS) == f"{visual('سارا', True)} ،Ben 2 ،Ana"
