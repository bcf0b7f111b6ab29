"""A word or a number that must stay whole on one line is drawn smaller rather than wrapped or cut."""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel


def one_line_size(text: str, size: float, width: float) -> float:
    """``size``, or less when the bold ``text`` would be wider than ``width``.

    Measured by the font without rendering a texture, so a kv rule can call it
    with the box's width and run again whenever the box is resized.
    """
    while size > 1 and text:
        drawn = float(CoreLabel(font_size=size, bold=True).get_extents(text)[0])
        if drawn <= width:
            break
        size = max(1.0, min(size - 1, size * width / drawn))
    return size


def lines_size(text: str, size: float, width: float) -> float:
    """``one_line_size`` for words on one or more lines: the size at which the widest line fits."""
    return min(one_line_size(line, size, width) for line in text.split("\n"))


def words_width(text: str, size: float) -> float:
    """How wide the bold ``text`` is drawn at ``size``: its widest line."""
    label = CoreLabel(font_size=size, bold=True)
    return max(float(label.get_extents(line)[0]) for line in text.split("\n"))


def needed_width(button: Any, size: float) -> float:
    """How wide ``button`` (a ``BaseButton``) must be to draw its icon and its words whole at ``size``:
    its row of a spacer, the icon, the words and a spacer keeps three gaps, even beside nothing."""
    left, _top, right, _bottom = button.padding
    words = words_width(button.text, size) if button.text else 0.0
    return left + right + 3 * button.spacing + (button.icon_size if button.icon else 0) + words
