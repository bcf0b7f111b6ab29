"""A seat's panel: name, colour, hand, won pile, trophies and live score, in every state of the design.

A long press on the panel claims a challenge for that seat, for tables without
buzzers; with the copy-cat variant, a tap copies the top card for that seat
(undo is the net for a stray tap, as everywhere on the table). ``Facing`` turns a panel to face its edge of a screen lying flat; the
Scatter it is built on maps touches, so buttons inside still land.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.scatterlayout import ScatterLayout
from kivy.uix.widget import Widget

from companion.ui.view import SeatView
from companion.ui.widgets import load_kv

LONG_PRESS = 0.6
"""Seconds a finger rests on a panel to claim a challenge: longer than any tap."""


class SeatPanel(FloatLayout):
    seat = ObjectProperty(SeatView(), rebind=True)
    universals_shown = BooleanProperty(False)
    """Sweet & Spicy: the panel counts the seat's universal cards held."""

    __events__ = ("on_long_press", "on_copy")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._hold: Any = None

    def on_long_press(self) -> None:
        pass

    def on_copy(self) -> None:
        pass

    def on_touch_down(self, touch: Any) -> bool:
        if super().on_touch_down(touch):
            return True
        if not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        self._hold = Clock.schedule_once(lambda _dt: self.dispatch("on_long_press"), LONG_PRESS)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            if self._hold is not None and self._hold.is_triggered:
                self._hold.cancel()
                if self.seat.can_copy:
                    self.dispatch("on_copy")
            self._hold = None
            return True
        return super().on_touch_up(touch)


LOOKS = (
    {"armed": True}, {"armed": False, "challenger": True}, {"armed": True, "challenger": False},
    {"armed": False, "locked": True}, {"armed": True, "locked": False}, {"armed": False},
    {"winner": True}, {"winner": False},
)
"""What a buzz and its cancel do to seats, one change after another in the order the view makes them; then
what the end does to a winner's panel (drawn under the end screen, it is made on the end's frame too)."""


@cache
def prepare_looks() -> None:
    """Take a stand-in panel through a buzz's looks and the end's, so that the rings and outlines they draw
    exist before the first challenge and the end: the kit makes a texture the first time a size and line are
    drawn, even on the way from one look to the next, and the first challenge of a game paid for a handful
    of them. Kv draws a canvas's change on the next frame: ``Builder.sync`` draws each look now. The kit
    keeps its textures for good, so once a process is enough."""
    seat = SeatView()
    SeatPanel(seat=seat)
    for looks in LOOKS:
        for name, value in looks.items():
            setattr(seat, name, value)
            Builder.sync()


class Facing(Widget):
    """A slot in the layout whose one panel is turned by ``angle`` (Kivy degrees, anticlockwise)."""

    angle = NumericProperty(0)
    panel = ObjectProperty(None, allownone=True)

    def __init__(self, panel: Widget, angle: float = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._scatter = ScatterLayout(do_rotation=False, do_scale=False, do_translation=False, size_hint=(None, None))
        self._scatter.add_widget(panel)
        self.add_widget(self._scatter)
        self.panel = panel
        self.angle = angle
        self.bind(pos=self._place, size=self._place, angle=self._place)
        self._place()

    def _place(self, *_args: Any) -> None:
        """Turned and sized from upright when the angle or the size changes; only moved when the slot is
        (each turn of a Scatter transforms its whole panel: a table's first layout paid for two a move)."""
        scatter = self._scatter
        sideways = round(self.angle) % 180 == 90
        size = (self.height, self.width) if sideways else (self.width, self.height)
        if (round(self.angle) - round(scatter.rotation)) % 360 or tuple(scatter.size) != size:
            scatter.rotation = 0
            scatter.size = size
            scatter.rotation = self.angle
        scatter.center = (self.x + self.width / 2, self.y + self.height / 2)  # ``center`` may not have caught up


load_kv(__file__)
