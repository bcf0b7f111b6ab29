"""What every label on screen must keep, in every language: its words drawn inside its box, none cut.

``misfits(root)`` walks the widgets under ``root`` and names each label whose drawn text (its texture, as
Kivy's label draws it, centred on the label) runs out of the label's box (a wrapping label) or out of the
widget that holds it (a label sized to its words, as a button's), and each label that Kivy cut: shortened
with "...", lines dropped past ``max_lines`` or its height, or a word broken across two lines (a line of
Japanese may break between any two characters; a word in a script with spaces never).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterator

from kivy.core.text.markup import MarkupLabel
from kivy.uix.label import Label
from kivy.uix.widget import Widget

SLACK = 2
"""Pixels a texture may pass its box by: Kivy rounds a label's position to whole pixels."""


def misfits(root: Widget) -> list[str]:
    """What is wrong with the labels shown under ``root``, one line a label."""
    return [problem for label in shown_labels(root) for problem in _label_misfits(label)]


def shown_labels(root: Widget) -> Iterator[Label]:
    """The labels under ``root`` that draw something: not hidden by an opacity of 0 on the way down."""
    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and widget.text.strip() and _seen(widget, root):
            yield widget


def _seen(widget: Widget, root: Widget) -> bool:
    while widget is not None:
        if widget.opacity == 0 or widget.width <= 0 or widget.height <= 0:
            return False
        if widget is root:
            return True
        widget = widget.parent
    return True


def _label_misfits(label: Label) -> list[str]:
    label.texture_update()
    width, height = label.texture_size
    name = f"{label.text!r} ({type(label.parent).__name__}, font {label.font_size:.0f})"
    left, bottom = label.center_x - width / 2, label.center_y - height / 2
    drawn = _on_window(label.parent, (left, bottom, left + width, bottom + height))
    problems = []
    if label.text_size[0] is not None and width > label.width + SLACK:
        problems.append(f"{name}: {width} wide in a box {label.width:.0f} wide")
    holder = label.parent  # across only: a tab may sit on its panel's edge by design
    if holder is not None and not _inside(drawn, _box(holder)):
        problems.append(f"{name}: drawn at {_round(drawn)}, out of its {type(holder).__name__} at "
                        f"{_round(_box(holder))}")
    problems += [f"{name}: {cut}" for cut in _cuts(label)]
    return problems


def _cuts(label: Label) -> list[str]:
    """How Kivy cut the label's words as it laid them out, if it did."""
    core = label._label
    if isinstance(core, MarkupLabel):
        return []  # a text in several fonts: its lines are made of spans (fit checks its sentences itself)
    lines = ["".join(word.text for word in line.words) for line in core._cached_lines]
    joined = "".join(lines)
    if "..." in joined and "..." not in label.text:
        return ["shortened with ..."]
    if type(core).__name__ == "Ordered":
        return []  # drawn in visual order, its letters joined: compared by the bidi tests instead
    if Counter("".join(joined.split())) != Counter("".join(label.text.split())):
        return [f"drawn as {lines}"]
    words = set(label.text.split())
    broken = [word for line in lines for word in line.split() if word not in words and not _breakable(word)]
    return [f"a word broken across lines: {lines}"] if broken else []


def _breakable(word: str) -> bool:
    """A piece of a line where a line may break between characters: one holding Japanese (or Chinese)."""
    return any(unicodedata.east_asian_width(char) in "WF" for char in word)


def _box(widget: Widget) -> tuple[float, float, float, float]:
    return _on_window(widget.parent, (widget.x, widget.y, widget.right, widget.top))


def _on_window(parent: Widget | None, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``box`` in ``parent``'s coordinates (where its children are placed), on the window."""
    if parent is None:
        return box
    corners = [parent.to_window(x, y, initial=False) for x in (box[0], box[2]) for y in (box[1], box[3])]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    """``inner`` lies within ``outer`` from side to side."""
    return inner[0] >= outer[0] - SLACK and inner[2] <= outer[2] + SLACK


def _round(box: tuple[float, ...]) -> tuple[int, ...]:
    return tuple(round(v) for v in box)
