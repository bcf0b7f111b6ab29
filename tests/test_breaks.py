"""Where a line of Japanese breaks (``companion.ui.breaks``), measured by a width a character."""

from __future__ import annotations

import pytest

from companion.ui.breaks import NO_END, NO_START, pieces, wrap


def width(text: str) -> float:
    """Ten pixels a character, as a fixed-width font draws."""
    return 10.0 * len(text)


def test_a_latin_word_and_a_number_in_japanese_stay_whole() -> None:
    assert pieces("同じWi-Fiの Ben 10点") == ["同", "じ", "Wi-Fi", "の", " ", "Ben", " ", "10", "点"]


@pytest.mark.parametrize("line", [40, 60, 80, 120])
def test_every_line_fits_and_none_starts_with_a_sign_that_closes(line: int) -> None:
    text = "カードを1枚伏せて出し、スパイスと数字を宣言する。ほかの席の誰でもBenのカードにチャレンジできる。"
    lines = wrap(text, line, width).split("\n")
    assert "".join(lines) == text  # nothing lost, nothing added
    assert all(width(shown) <= line for shown in lines), lines
    assert not [shown for shown in lines if shown[0] in NO_START], lines
    assert "Ben" in "\n".join(lines)


def test_a_stop_takes_the_character_before_it_to_the_next_line() -> None:
    assert wrap("宣言する。", 40, width).split("\n") == ["宣言す", "る。"]


@pytest.mark.parametrize("line", [50, 60, 70, 80, 90])
def test_an_opening_bracket_goes_down_with_what_it_opens(line: int) -> None:
    lines = wrap("あなたは「チャレンジ」と言った。", line, width).split("\n")
    assert "".join(lines) == "あなたは「チャレンジ」と言った。"
    assert not [shown for shown in lines if shown[-1] in NO_END or shown[0] in NO_START], lines


def test_a_line_breaks_at_a_space_without_drawing_it() -> None:
    assert wrap("同着！ チャレンジ", 30, width).split("\n") == ["同着！", "チャレ", "ンジ"]


def test_its_own_line_breaks_are_kept() -> None:
    assert wrap("あいう\nえお", 100, width) == "あいう\nえお"


def test_a_no_break_space_keeps_what_it_joins_on_one_line() -> None:
    assert pieces("手札\u00a07\u00a0(+2)   獲得\u00a00") == ["手札\u00a07\u00a0(+2)", "   ", "獲得\u00a00"]
    assert wrap("手札\u00a07\u00a0(+2)   獲得\u00a00", 90, width).split("\n") == ["手札\u00a07\u00a0(+2)", "獲得\u00a00"]
