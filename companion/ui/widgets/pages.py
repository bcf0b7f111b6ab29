"""Screens shown one at a time, straight away, and not masked.

Kivy's ``ScreenManager`` masks its screens with a stencil so that a sliding
transition stays inside it; with no transition (the app and set-up's steps
cut straight from one to the next) the mask only costs two more full-window
passes a frame on a software renderer.
"""

from __future__ import annotations

from kivy.uix.screenmanager import Screen, ScreenManager

from companion.ui.widgets import load_kv


class Pages(ScreenManager):
    def fit(self, screen: Screen) -> None:
        """``screen``, not on show, laid out at the size it will show at: one built or filled ahead keeps the
        size it last had (at first Kivy's 100 x 100), and would lay itself out again on the frame it shows."""
        if screen.parent is None:
            screen.pos, screen.size = self.pos, self.size


load_kv(__file__)
