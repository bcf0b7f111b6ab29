"""A short message over whatever is showing: why a tap was refused, or a start-up notice.

One toast at a time: a new message replaces the old one and restarts its
clock, so a burst of refused taps never stacks up boxes over the table.
Touches pass through it: a toast must never eat the tap on the button under it.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets import load_kv

load_kv(__file__)


class Toast(BoxLayout):
    text = StringProperty("")
    above = NumericProperty(0)
    """The height kept clear at the bottom of the window: the on-screen keyboard's, while it shows."""
    at_top = BooleanProperty(False)
    """Shown at the top, clear of the button a refused save is retried with (Play again, Start)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._hide = Clock.create_trigger(lambda _dt: self.dismiss(), 3.0)

    def show(self, text: str, seconds: float = 3.0, at_top: bool = False) -> None:
        self.text = text
        self.at_top = at_top
        if self.parent is None:
            Window.add_widget(self)
        self._hide.cancel()
        self._hide.timeout = seconds
        self._hide()

    def dismiss(self) -> None:
        self._hide.cancel()
        if self.parent is not None:
            self.parent.remove_widget(self)
