"""Every text the theme draws on a fill reads from a metre: WCAG contrast of at least 4.5:1."""

from __future__ import annotations

import pytest

from companion.ui import theme

PAIRS = theme.text_on_fill()


def test_every_spice_is_drawn_on_every_kind_of_fill() -> None:
    """A new spice gets a card, a key, a number key, a name and a claim on the sheet, each checked below."""
    for fills in (theme.SPICE_DARK, theme.SPICE_TILE, theme.SPICE_KEY, theme.SPICE_GHOST):
        assert set(fills) == set(theme.SPICE_FILL)
    assert {f"{spice} card" for spice in theme.SPICE_FILL} <= set(PAIRS)


@pytest.mark.parametrize("where", sorted(PAIRS))
def test_text_on_its_fill_has_a_contrast_of_at_least_4_5(where: str) -> None:
    text, fill = PAIRS[where]
    assert theme.contrast(text, fill) >= 4.5, (where, round(theme.contrast(text, fill), 2))


def test_the_contrast_is_the_wcag_ratio() -> None:
    """Checked against ratios the WCAG gives: black on white is 21, grey #777 on white about 4.48."""
    black, white = (0.0, 0.0, 0.0, 1.0), theme.WHITE
    assert theme.contrast(black, white) == pytest.approx(21.0)
    assert theme.contrast(white, black) == pytest.approx(21.0)
    assert theme.contrast(theme.rgba("#777777"), white) == pytest.approx(4.48, abs=0.01)
    assert theme.contrast(white, white) == pytest.approx(1.0)


def test_a_pepper_card_and_the_light_keys_get_the_ink_that_reads() -> None:
    """The issue's cases: light text on a pepper card, dark ink on the lemon, salt and garlic cards."""
    assert theme.ink_on(theme.SPICE_FILL["pepper"]) == theme.TEXT
    for spice in ("lemon", "salt", "garlic"):
        assert theme.ink_on(theme.SPICE_FILL[spice]) == theme.ACCENT_INK
