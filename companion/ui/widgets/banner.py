"""The last-card banner: nobody at the table may miss that a seat just played its last card.

On a screen lying flat it is printed twice, head to tail, so both sides of the
table read it the right way up.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from companion.ui.widgets.mirror import Row
from companion.ui.widgets import load_kv
from companion.ui.widgets.seat_panel import Facing


class BannerLine(Row):
    title = StringProperty("")
    """A template: its {name} gives way to fit the line (``fit_names``), never its words."""
    name = StringProperty("")
    line = StringProperty("")
    compact = BooleanProperty(False)


class Banner(Row):
    title = StringProperty("")
    """A template whose {name} is the seat with one card left."""
    name = StringProperty("")
    line = StringProperty("")
    flat = BooleanProperty(False)

    def on_kv_post(self, _base_widget: Any) -> None:
        upside_down = BannerLine()
        self.bind(title=upside_down.setter("title"), name=upside_down.setter("name"), line=upside_down.setter("line"))
        upside_down.compact = True  # only lying flat is it shown
        self._far_side = Facing(upside_down, angle=180)
        self.bind(flat=self._show_far_side)
        self._show_far_side()

    def _show_far_side(self, *_args: Any) -> None:
        if self.flat and self._far_side.parent is None:
            self.add_widget(self._far_side, index=len(self.children))
        elif not self.flat and self._far_side.parent is not None:
            self.remove_widget(self._far_side)


load_kv(__file__)
