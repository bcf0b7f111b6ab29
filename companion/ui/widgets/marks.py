"""Marks: laid over a key to single it out (the claimed card on the reveal sheet, the spice picked on the pad),
and the struck spice and struck number that say what a challenge calls false.

A mark laid over a key is its own widget, drawn over the grid that holds its
key, so the key keeps its plain look everywhere else and the grid's layout is
untouched.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ColorProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui.widgets import load_kv
from companion.ui.widgets.fit import one_line_size


class Mark(Widget):
    target = ObjectProperty(None, allownone=True)
    """The key marked, in the same coordinates as the mark; None hides the mark."""

    def __init__(self, **kwargs: Any) -> None:
        self._followed: Widget | None = None
        super().__init__(**kwargs)

    def on_target(self, _mark: Mark, target: Widget | None) -> None:
        if self._followed is not None:
            self._followed.unbind(pos=self._follow, size=self._follow)
        self._followed = target
        if target is not None:
            target.bind(pos=self._follow, size=self._follow)
        self._follow()

    def _follow(self, *_args: Any) -> None:
        target = self.target
        self.opacity = 0 if target is None else 1
        if target is not None:
            self.place(target)

    def place(self, target: Widget) -> None:
        raise NotImplementedError


class ClaimMark(Mark):
    """A dashed accent outline and a "CLAIM" tag round the card that was declared: the table finds it at a glance."""

    def tag_size(self, text: str, size: float, width: float) -> float:
        """The tag's type: ``size``, or smaller for a long word ("AANKONDIGING") to stay on the mark."""
        return one_line_size(text, size, width)

    def place(self, target: Widget) -> None:
        out = dp(4)
        self.pos, self.size = (target.x - out, target.y - out), (target.width + 2 * out, target.height + 2 * out)


class CheckBadge(Mark):
    """A check on the corner of the spice picked, as the design marks a selected spice."""

    def place(self, target: Widget) -> None:
        self.center = (target.right - dp(4), target.top - dp(4))


class StruckMark(Widget):
    """The claim's spice or number, struck through: "not that spice", "not that number", as the mockup
    draws the challenge's two choices. It shows the claim itself (a chili, a 7), so the challenger reads
    what they call false from across the table, where a wild card's icon said nothing about the claim.

    The strike runs from the lower left to the upper right: a white bar edged in dark ink, so it reads on
    the white disc and on every spice's colour; it is two of the kit's rounded boxes, turned."""

    kind = OptionProperty("spice", options=["spice", "number"])
    spice = StringProperty("")
    """The claimed spice: the disc's icon, or the number card's colour."""
    number = NumericProperty(0)
    fill = ColorProperty()
    """The spice's colour: the number is drawn on a card of it."""


load_kv(__file__)
