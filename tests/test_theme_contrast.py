"""Every text the theme draws on a fill reads from a metre: WCAG contrast of at least 4.5:1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.ui import theme

PAIRS = theme.text_on_fill()
KV = sorted(Path(theme.__file__).parent.rglob("*.kv"))


def named(kind: str) -> set[str]:
    """The theme colours the kv files name as a widget's ``kind`` (``color``, ``fill``, ...)."""
    line = re.compile(rf"^\s*{kind}: (.*)$", re.M)
    return {name for path in KV for value in line.findall(path.read_text(encoding="utf-8"))
            for name in re.findall(r"theme\.([A-Z][A-Z_0-9]*)", value)}


def colours(name: str) -> list[tuple[float, ...]]:
    value = getattr(theme, name)
    return list(value.values()) if isinstance(value, dict) else [value]


def test_every_text_colour_and_every_fill_the_screens_use_is_checked() -> None:
    """Muted on a button (4.15:1) and red on a button (3.94:1) were drawn, but no pair listed them."""
    texts = {text for text, _ in PAIRS.values()}
    fills = {fill for _, fill in PAIRS.values()}
    assert {name for name in named("color") - theme.NOT_TEXT if not set(colours(name)) <= texts} == set()
    opaque = {name for name in named("fill") | named("background_color") if colours(name)[0][3] == 1}  # not PRESSED
    assert {name for name in opaque if not set(colours(name)) <= fills} == set()
    assert all((text, fill) in PAIRS.values() for text in theme.LIGHT_TEXT.values()
               for fill in theme.DARK_FILLS.values())


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
