"""A word or a number that must stay whole on one line is drawn smaller rather than wrapped or cut."""

from __future__ import annotations

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
