"""A sheet: a whole-screen layer over the table (challenge, reveal, result, draw pile) that takes every touch.

The table stays underneath in the session; closing the sheet shows it again. The table's undo
and redo stay over every sheet, in their place (``history``).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.floatlayout import FloatLayout

from companion.ui.widgets import load_kv


class Sheet(FloatLayout):
    view = ObjectProperty(None, allownone=True, rebind=True)
    history = NumericProperty(0)
    """How far from the sheet's left the table's undo and redo reach over its top, or 0 when they are
    not over it (turned to the far edge, it stops short of them): the sheet leaves them that room."""

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return self.collide_point(*touch.pos)


load_kv(__file__)
