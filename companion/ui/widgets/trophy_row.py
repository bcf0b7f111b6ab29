"""The trophies still on the table, and who took the others."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, StringProperty

from companion.ui.widgets.mirror import Row
from companion.ui.widgets import load_kv


class TrophySlot(Row):
    taken = BooleanProperty(False)
    taker = StringProperty("")
    dot = ColorProperty((0, 0, 0, 0))
    across = BooleanProperty(False)


class TrophyRow(Row):
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
        """A slot a trophy, made only when there are more trophies than slots or the row turns across: a
        trophy taken, or given back by an undo, changes only its slot's looks. A slot is made across or not
        (its icon keeps the width it is made with)."""
        slots = self.ids.slots
        if any(slot.across != self.across for slot in slots.children):
            slots.clear_widgets()
        while len(slots.children) > int(self.total):
            slots.remove_widget(slots.children[0])
        while len(slots.children) < int(self.total):
            slots.add_widget(TrophySlot(across=self.across))  # after the others
        for i, slot in enumerate(reversed(slots.children)):
            taken = i < len(self.takers)
            name, colour = self.takers[i] if taken else ("", (0, 0, 0, 0))
            slot.taken, slot.taker, slot.dot = taken, name, colour


load_kv(__file__)
