"""A short message over whatever is showing: why a tap was refused, or a start-up notice.

One toast at a time: a new message replaces the old one and restarts its
clock, so a burst of refused taps never stacks up boxes over the table.
Touches pass through it: a toast must never eat the tap on the button under it.
It ends early when what it speaks of changes (``ends_with``), and it is never
drawn over a ``KeptClear`` button (the challenge buttons).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui.widgets.mirror import Row
from companion.ui.widgets import load_kv
from companion.ui.widgets.buttons import KeptClear

load_kv(__file__)


class Toast(Row):
    text = StringProperty("")
    above = NumericProperty(0)
    """The height kept clear at the bottom of the window: the on-screen keyboard's, while it shows."""
    at_top = BooleanProperty(False)
    """Shown at the top, clear of the button a refused save is retried with (Play again, Start)."""
    good = BooleanProperty(False)
    """Good news (a note saved), with a tick: the warning sign is for what went wrong or needs a look."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._hide = Clock.create_trigger(lambda _dt: self.dismiss(), 3.0)
        self._topic: tuple[EventDispatcher, Sequence[str]] | None = None
        self.bind(height=self._place, above=self._place, at_top=self._place)

    def show(self, text: str, seconds: float = 3.0, at_top: bool = False,
             ends_with: tuple[EventDispatcher, Sequence[str]] | None = None, good: bool = False) -> None:
        """``ends_with``: what the message speaks of, as an object and the properties that change with it
        (the table's turn, say); the toast ends as soon as one of them changes."""
        self._forget_topic()
        self.text = text
        self.at_top = at_top
        self.good = good
        if self.parent is None:
            Window.add_widget(self)
        self._hide.cancel()
        self._hide.timeout = seconds
        self._hide()
        if ends_with is not None:
            topic, names = ends_with
            for name in names:
                topic.bind(**{name: self._moved_on})
            self._topic = ends_with
        self._place()

    def dismiss(self) -> None:
        self._hide.cancel()
        self._forget_topic()
        if self.parent is not None:
            self.parent.remove_widget(self)

    def _moved_on(self, *_args: Any) -> None:
        self.dismiss()

    def _forget_topic(self) -> None:
        if self._topic is not None:
            topic, names = self._topic
            for name in names:
                topic.unbind(**{name: self._moved_on})
            self._topic = None

    def _place(self, *_args: Any) -> None:
        """At the bottom (above the on-screen keys), or the top when asked; where that would cover a
        kept-clear button, just beside the buttons (rather than over the far edge's Undo), else the far edge."""
        margin = dp(16)
        low, high = self.above + margin, Window.height - self.height - margin
        kept = list(_kept_clear())
        beside = [top + margin for _bottom, top in kept] + [bottom - self.height - margin for bottom, _top in kept]
        places = [high, *sorted(beside, reverse=True), low] if self.at_top else [low, *sorted(beside), high]
        for y in places:
            if low <= y <= high and not any(y < top and bottom < y + self.height for bottom, top in kept):
                self.y = y
                return
        self.y = places[0]


def _kept_clear() -> Iterator[tuple[float, float]]:
    """The bottom and top, on the screen, of every kept-clear button showing."""
    for layer in Window.children:
        if isinstance(layer, Toast):
            continue
        for widget in layer.walk(restrict=True):
            if isinstance(widget, KeptClear) and _showing(kept := cast(Widget, widget)):
                ys = [kept.to_window(x, y)[1] for x, y in ((kept.x, kept.y), (kept.right, kept.top))]
                yield min(ys), max(ys)


def _showing(widget: Widget) -> bool:
    if widget.width <= 1 or widget.height <= 1:
        return False
    while isinstance(widget, Widget):  # up to the window, which is its own parent
        if widget.opacity == 0:
            return False
        widget = widget.parent
    return True
