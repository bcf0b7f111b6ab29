"""The scroll views, their bar on the side a line ends in a right-to-left language (the left), where it stands
clear of the words that start at the right.

Each is named as Kivy's class it stands for, and ``companion.ui.widgets`` registers this module under those
names: kv's ``ScrollView:`` and ``RecycleView:`` import it when a rule first uses one. The home screen has
none, so its first frame does not import Kivy's scrolling, its effects and its recycle view.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.recycleview import RecycleView as KivyRecycleView
from kivy.uix.scrollview import ScrollView as KivyScrollView

from companion.ui.widgets.mirror import mirrored


class _BarSide:
    bar_pos_y: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.follow_direction()

    def follow_direction(self) -> None:
        self.bar_pos_y = "left" if mirrored() else "right"


class ScrollView(_BarSide, KivyScrollView):
    """Kivy's scroll view, its bar on the side a line ends."""


class RecycleView(_BarSide, KivyRecycleView):
    """Kivy's recycle view (the long lists), its bar as the scroll view's."""
