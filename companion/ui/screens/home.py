"""Home: where the table starts a game, resumes one, or looks back."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from companion.ui.widgets import load_kv

load_kv(__file__)


class HomeScreen(Screen):
    pass
