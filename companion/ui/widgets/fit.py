"""Text that must fit its box: a word or a number drawn smaller, a sentence whose names give way, a path
broken into lines.

Measured by the font without rendering a texture, so a kv rule can call these
with the box's width and run again whenever the box is resized.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from kivy.core.text import Label as CoreLabel

from companion.ui.bidi import Named, Whole, as_name, named
from companion.ui.breaks import pieces
from companion.ui.i18n import tr
from companion.ui.widgets.label import Ordered, Runs, drawn_size, ordered, runs, spans, width as drawn_width

ELLIPSIS = "\u2026"


LEAST = 6.0
"""The least size a text is measured at while it is made smaller: below it no word is read, and a box that
narrow is one not laid out yet (a button at Kivy's first 100 pixels less its padding and icon), so its
words get the size the width asks for without opening the font at it."""


def one_line_size(text: str, size: float, width: float, bold: bool = True) -> float:
    """``size``, or less when the bold ``text`` would be wider than ``width``.

    A smaller size is a whole number (``drawn_size``): Kivy draws a text at the whole part of its size."""
    tried = size
    while tried > 1 and text:
        extent = drawn_width(text, tried, bold)
        if extent <= width:
            break
        size = max(1.0, min(size - 1, size * width / extent))
        tried = drawn_size(size)
        if tried < LEAST:
            break
    return tried


def lines_size(text: str, size: float, width: float) -> float:
    """``one_line_size`` for words on one or more lines: the size at which the widest line fits."""
    return min(one_line_size(line, size, width) for line in text.split("\n"))


def words_width(text: str, size: float) -> float:
    """How wide the bold ``text`` is drawn at ``size``: its widest line."""
    return max(drawn_width(line, size) for line in text.split("\n"))


def needed_width(button: Any, size: float) -> float:
    """How wide ``button`` (a ``BaseButton``) must be to draw its icon and its words whole at ``size``:
    its row of a spacer, the icon, the words and a spacer keeps three gaps, even beside nothing."""
    left, _top, right, _bottom = button.padding
    words = words_width(button.text, size) if button.text else 0.0
    return left + right + 3 * button.spacing + (button.icon_size if button.icon else 0) + words


def fit_names(template: str, names: Mapping[str, str], width: float, font_size: float, *, bold: bool = False,
              height: float | None = None, **words: object) -> str:
    """``template`` filled in, its names (``names``' fields) cut with an ellipsis just enough for the whole
    sentence to fit: on one line ``width`` wide, or, given ``height``, wrapped within ``width`` × ``height``.

    The table reads a sentence by its fixed words ("wins if it isn't", "last card!"): a name gives way, the
    sentence never does. The longest names are cut first, to the same length, so two long names both stay
    recognisable. When even one letter a name does not fit, the names keep one letter each. The sentence knows
    where its names are (``bidi.Named``): its label draws each as typed, "Table 3" in a Persian line too.

    A kv rule passes its label's width and font size, so it runs again as they change; a ``Sentence``
    (``companion.ui.words``) unpacks into the first two arguments: ``fit_names(*sentence, self.width, ...)``.
    """
    if not names and not words:
        return template  # nothing to fill in (``Sentence`` with no names): the text as it is

    def filled(keep: int) -> str:
        return named(template, {field: _cut(name, keep) for field, name in names.items()}, **words)

    def fits(text: str) -> bool:
        return _fits(text, width, height, round(font_size, 1), bold)

    longest = max((len(name) for name in names.values() if not isinstance(name, Whole)), default=0)
    if longest == 0 or width <= 0 or fits(filled(longest)):
        return filled(longest)
    low, high = 1, longest - 1  # the most letters a name keeps: binary search on what fits
    while low < high:
        keep = (low + high + 1) // 2
        if fits(filled(keep)):
            low = keep
        else:
            high = keep - 1
    return filled(low)


def sentence_size(template: str, names: Mapping[str, str], size: float, width: float, keep: int = 7, *,
                  bold: bool = True, height: float | None = None) -> float:
    """``size``, or less when the sentence would not fit on one line with its names cut to ``keep`` letters
    ("Maximil…"): a long name gives way first (``fit_names``), a long word makes the type smaller, so
    "Ben побеждает!" in a 720-wide window is drawn whole, not as "B… побеждает!" wrapped out of its box.

    Given ``height``, wrapped within ``width`` × ``height``: Kivy draws a line past a label's height cut
    off, where ``max_lines`` would have dropped it and the label drawn its words smaller."""
    text = named(template, {field: _cut(name, keep) for field, name in names.items()}) if names else template
    if height is None:
        return one_line_size(text, size, width, bold)
    tried = drawn_size(size)
    while tried > LEAST and not _fits(text, width, height, tried, bold):
        tried -= 1
    return tried


BREAKS_AFTER = frozenset("/\\-_")
"""Where a word too long for its line (a file's name, a path) is broken: after a part of it."""


def broken(text: str, width: float, font_size: float, bold: bool = False) -> str:
    """``text`` with each word wider than ``width`` (a backup's file name, the path it was written to) broken
    into lines after a slash, a hyphen or an underscore where its line is full, or between two letters
    where it has none. Kivy wraps at spaces only: the label would draw the whole text smaller, then that word
    past its box's edge, cut off (in a right-to-left language, every line with it). The names the text knows
    (a ``bidi.Named``'s) stay known where they are.

    A kv rule passes its label's width and font size, so it runs again as they change."""
    cuts: list[int] = []
    at = 0
    for paragraph in text.split("\n") if width > 0 else ():
        for piece in pieces(paragraph):
            if not piece.isspace() and drawn_width(piece, font_size, bold) > width:
                cuts += [at + cut for cut in _cuts(piece, width, font_size, bold)]
            at += len(piece)
        at += 1  # its line break
    if not cuts:
        return text
    lines = [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    names = [part for start, end in getattr(text, "names", ())  # a name broken is a name on each of its lines
             for part in zip([start, *_within(cuts, start, end)], [*_within(cuts, start, end), end], strict=True)]
    return Named("\n".join(lines), [(start + bisect_right(cuts, start), end + bisect_left(cuts, end))
                                    for start, end in names])


def _within(cuts: list[int], start: int, end: int) -> list[int]:
    return cuts[bisect_right(cuts, start):bisect_left(cuts, end)]


def _cuts(word: str, width: float, font_size: float, bold: bool) -> list[int]:
    """Where ``word`` is broken to fit lines ``width`` wide: the last place after a part that fits, else the
    last letter that does (at least one letter a line). A line's letters are measured only until one more
    would not fit: a longer piece is never narrower."""
    cuts, start = [], 0
    while drawn_width(word[start:], font_size, bold) > width:
        end = start + 1
        while drawn_width(word[start:end + 1], font_size, bold) <= width:
            end += 1
        after_part = [at for at in range(start + 1, end + 1) if word[at - 1] in BREAKS_AFTER]
        start = max(after_part or [end])
        cuts.append(start)
    return cuts


def short(name: str, limit: int = 16) -> str:
    """A name of at most ``limit`` characters, for a button that sizes to its text: with no box to fit,
    it is cut the same way as in a sentence, and known as a name (``bidi.as_name``).

    >>> short("Bartholomew-Alexander"), short("Ana")
    ('Bartholomew-Ale…', 'Ana')
    """
    return as_name(name if len(name) <= limit else _cut(name, limit - 1))


def _cut(name: str, keep: int) -> str:
    """``name`` to ``keep`` letters and an ellipsis, with no space or hyphen left dangling before it; a ``Whole``
    name as it is."""
    if len(name) <= keep or isinstance(name, Whole):
        return name
    return name[:keep].rstrip(" -") + ELLIPSIS


def _fits(text: str, width: float, height: float | None, size: float, bold: bool) -> bool:
    """Whether ``text`` fits on one line ``width`` wide, or, given ``height``, wrapped within ``width`` ×
    ``height`` with no word (a long name) broken across two lines; Kivy wraps at plain spaces only, so a
    no-break space keeps French punctuation with its word."""
    if height is None:
        return _drawn(text, size, bold, None)[0] <= width
    return _drawn(text, size, bold, int(width))[1] <= height and all(
        _drawn(word, size, bold, None)[0] <= width for word in re.split(r"[ \n]", text))


def _drawn(text: str, font_size: float, bold: bool, wrap: int | None) -> tuple[int, int]:
    """The laid-out size of ``text`` as its label draws it: one line, or wrapped at ``wrap`` pixels."""
    return _laid_out(runs(text), drawn_size(font_size), bold, wrap, tr.language if ordered(text) else "")


@lru_cache(maxsize=4096)
def _laid_out(parts: tuple[tuple[str, str], ...], font_size: float, bold: bool, wrap: int | None,
              order: str) -> tuple[int, int]:
    """Cached: a kv rule asks again on every resize, and the table's sentences come back turn after turn.
    ``order``: the language whose order and digits a right-to-left text is drawn in (joined Persian letters
    are narrower than the letters alone), "" for a text drawn as it is."""
    if len(parts) > 1:
        label = Runs(text=spans(parts), font_size=font_size, bold=bold, text_size=(wrap, None))
    else:
        ((font, words),) = parts
        kind = Ordered if order else CoreLabel
        label = kind(text=words, font_name=font, font_size=font_size, bold=bold, text_size=(wrap, None))
    width, height = label.render()
    return int(width), int(height)
