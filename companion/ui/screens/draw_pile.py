"""The draw-pile sheet: the table's own count of the cards above the World's End card.

A misread gauge or a dropped card makes the companion's count wrong, and it ends the
game when its own count runs out (docs/RULES.md 6, ``adjust draw-pile N``). A tap on
the draw pile opens this sheet at the companion's count; − and + move it, OK sets it
(saved and undone like any action). The World's End card showing is told here too.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import NumericProperty

from companion.ui.widgets import load_kv
from companion.ui.widgets.buttons import SecondaryButton
from companion.ui.widgets.sheet import Sheet

HOLD = 0.5
"""Seconds a − or + is held before it repeats."""
REPEAT = 0.1
"""Seconds between steps while it is held: a table counting twenty cards off holds, it does not tap twenty times."""


class CountStep(SecondaryButton):
    """− or +: a tap moves the count by ``by``; held, it keeps moving until it is let go."""

    by = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.register_event_type("on_step")
        super().__init__(**kwargs)
        self._repeat = Clock.create_trigger(lambda _dt: self.dispatch("on_step"), REPEAT, interval=True)
        self._hold = Clock.create_trigger(lambda _dt: self._repeat(), HOLD)

    def on_press(self) -> None:
        self.dispatch("on_step")
        self._hold()

    def on_release(self) -> None:
        self._hold.cancel()
        self._repeat.cancel()

    def on_step(self) -> None:
        """The sheet moves its count."""


load_kv(__file__)


class DrawPileSheet(Sheet):
    value = NumericProperty(0)
    """The count the table is setting."""
    counted = NumericProperty(0)
    """The companion's count when the sheet opened."""
    most = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.register_event_type("on_close")
        super().__init__(**kwargs)

    def open_at(self, counted: int, most: int) -> None:
        self.counted, self.most, self.value = counted, most, counted

    def step(self, by: int) -> None:
        self.value = min(self.most, max(0, self.value + by))

    def ok(self) -> None:
        if self.value == self.counted or self.view.set_draw_pile(int(self.value)):
            self.dispatch("on_close")

    def end_card_showed(self) -> None:
        self.dispatch("on_close")
        self.view.end_card_showed()

    def on_close(self) -> None:
        """The table screen closes the sheet."""
