"""Screens shown one at a time, straight away, and not masked.

Kivy's ``ScreenManager`` masks its screens with a stencil so that a sliding
transition stays inside it; with no transition (the app and set-up's steps
cut straight from one to the next) the mask only costs two more full-window
passes a frame on a software renderer.
"""

from __future__ import annotations

from kivy.uix.screenmanager import ScreenManager

from companion.ui.widgets import load_kv


class Pages(ScreenManager):
    pass


load_kv(__file__)
