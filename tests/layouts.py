"""The layouts the screens are checked at: one list for every test and the screenshots (the languages are
``companion.languages.CODES``).

Kivy-free: the table's layout tests (tests/test_table_layout.py) use it without a window, and
tests/ui/conftest.py, which opens the window once imported, gives it to the windowed tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import pytest


class Layout(NamedTuple):
    size: tuple[int, int]
    flat: bool = False
    """The seats face their edges: the screen lies flat (landscape only; a flat portrait screen stands)."""

    def __str__(self) -> str:
        """The test id and the screenshots' suffix: ``800x480``, ``800x480-flat``."""
        return "x".join(map(str, self.size)) + ("-flat" if self.flat else "")


LANDSCAPE = Layout((800, 480))
"""The Raspberry Pi touch display."""
WIDE = Layout((1280, 720))
PORTRAIT = Layout((720, 1280))
FLAT = Layout((800, 480), flat=True)
WIDE_FLAT = Layout((1280, 720), flat=True)

LAYOUTS = (LANDSCAPE, WIDE, PORTRAIT, FLAT)
"""Every screen, every language: the design's three sizes standing, and the small one lying flat."""
STANDING = (LANDSCAPE, WIDE, PORTRAIT)
FLATS = (FLAT, WIDE_FLAT)
"""Lying flat, the small screen and the wide one (the table's own screenshots take both)."""
SHAPES = (LANDSCAPE, PORTRAIT)
"""One landscape and one portrait: for what changes only with the screen's shape."""


def params(layouts: Iterable[Layout]) -> list[Any]:
    """For ``parametrize(("size", "flat"), ...)``, each named as its layout."""
    return [pytest.param(*layout, id=str(layout)) for layout in layouts]


def sizes(layouts: Iterable[Layout]) -> list[Any]:
    """For ``parametrize("size", ...)``, each named as its layout."""
    return [pytest.param(layout.size, id=str(layout)) for layout in layouts]


__all__ = ["FLAT", "FLATS", "LANDSCAPE", "LAYOUTS", "PORTRAIT", "SHAPES", "STANDING", "WIDE",
           "WIDE_FLAT", "Layout", "params", "sizes"]
