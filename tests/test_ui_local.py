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
