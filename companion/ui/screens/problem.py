"""What the app shows when it cannot start a table at all: the saved games cannot be opened.

A kiosk has no terminal to print a traceback to, so the reason is a screen,
in words, with the file named, and the games are left where they are.
"""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.widgets import load_kv

load_kv(__file__)


class ProblemScreen(Screen):
    reason = StringProperty("")

    def explain(self, reason: str) -> None:
        self.reason = reason
