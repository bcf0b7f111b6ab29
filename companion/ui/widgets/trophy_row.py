"""The trophies still on the table, and who took the others."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets import load_kv


class TrophySlot(BoxLayout):
    taken = BooleanProperty(False)
    taker = StringProperty("")
    dot = ColorProperty((0, 0, 0, 0))
    across = BooleanProperty(False)


class TrophyRow(BoxLayout):
    total = NumericProperty(3)
    left = NumericProperty(3)
    takers = ListProperty()
    """(name, colour) for each trophy taken."""
    across = BooleanProperty(False)
    """The row is tall and narrow (lying flat): one trophy a line, its taker's name beside it, not under it."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self.bind(total=self._fill, takers=self._fill, across=self._fill)
        self._fill()

    def _fill(self, *_args: Any) -> None:
        slots = self.ids.slots
        slots.clear_widgets()
        for i in range(int(self.total)):
            taken = i < len(self.takers)
            name, colour = self.takers[i] if taken else ("", (0, 0, 0, 0))
            slots.add_widget(TrophySlot(taken=taken, taker=name, dot=colour, across=self.across))


load_kv(__file__)
