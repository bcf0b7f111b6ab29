"""A whole-screen layer over another screen (a saved game's log, the game left behind).

No kv of its own: the home screen's layer is made before the first frame.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.floatlayout import FloatLayout


class Layer(FloatLayout):
    """Every touch stops here, so nothing underneath is tapped through it."""

    def on_touch_down(self, touch: Any) -> bool:
        super().on_touch_down(touch)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        super().on_touch_up(touch)
        return True
