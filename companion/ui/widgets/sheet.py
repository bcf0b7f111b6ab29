"""A sheet: a whole-screen layer over the table (challenge, reveal, result) that takes every touch.

The table stays underneath in the session; closing the sheet shows it again.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.floatlayout import FloatLayout

from companion.ui.widgets import load_kv


class Sheet(FloatLayout):
    view = ObjectProperty(None, allownone=True, rebind=True)

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return self.collide_point(*touch.pos)


load_kv(__file__)
