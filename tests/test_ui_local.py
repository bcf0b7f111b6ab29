"""Dates, months, numbers and plurals as each language writes them (CLDR, through Babel and gettext)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.ui.i18n import number, percent, period_words, tr, when

STAMP = "2026-11-30T20:14:03.000+00:00"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    tr.switch("en")


@pytest.mark.parametrize(("language", "date", "month", "thousands", "figure", "rate"), [
    ("en", "Nov 30, 2026, 8:14\u202fPM", "November 2026", "12,345", "12.5", "46%"),
    ("fr", "30 nov. 2026, 20:14", "novembre 2026", "12\u202f345", "12,5", "46\u00a0%"),
    ("ru", "30 нояб. 2026\u202fг., 20:14", "ноябрь 2026\u202fг.", "12\u00a0345", "12,5", "46\u00a0%"),
])
def test_a_date_a_month_and_figures_read_as_the_language_writes_them(
        language: str, date: str, month: str, thousands: str, figure: str, rate: str) -> None:
    tr.switch(language)
    assert when(STAMP) == date  # the clock time as saved, whatever the machine's zone
    assert (period_words("2026-11"), period_words("2026")) == (month, "2026")
    assert (number(12345), number(12.5, 1), percent(0.456)) == (thousands, figure, rate)


def test_one_game_is_singular_and_french_says_zero_in_the_singular() -> None:
    one, many = "{n} game", "{n} games"
    assert [tr.ngettext(one, many, n).format(n=n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    tr.switch("fr")
    assert [tr.ngettext(one, many, n).format(n=n) for n in (0, 1, 2)] == ["0 partie", "1 partie", "2 parties"]
    together = tr.ngettext("{games} game together: {name} won {wins}, {other} won {losses}",
                           "{games} games together: {name} won {wins}, {other} won {losses}", 1)
    assert together.startswith("{games} partie ensemble\u202f:")


def test_russian_has_three_plural_forms_chosen_by_the_last_digits() -> None:
    """One for 1, 21, 101; another for 2 to 4, 22 to 24; the third for 0, 5 to 20, 25 to 30, 111 to 114."""
    tr.switch("ru")
    counts = (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112)
    assert [tr.ngettext("{n} game", "{n} games", n).format(n=n) for n in counts] == [
        "0 партий", "1 партия", "2 партии", "4 партии", "5 партий", "11 партий", "12 партий", "14 партий",
        "21 партия", "22 партии", "25 партий", "101 партия", "111 партий", "112 партий"]
    assert [tr.ngettext("{n} trophy", "{n} trophies", n).format(n=n) for n in (1, 3, 7)] == [
        "1 трофей", "3 трофея", "7 трофеев"]
    played = [tr.ngettext("Played for {minutes} min", "Played for {minutes} min", n).format(minutes=n) for n in (1, 2, 5)]
    assert played == ["Игра шла 1 минуту", "Игра шла 2 минуты", "Игра шла 5 минут"]
