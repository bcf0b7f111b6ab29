"""Settings: the language, the sounds, and seat panels that face their edges for a screen lying flat.

Each change applies at once and is kept across restarts (``companion.ui.prefs``).
"""

from __future__ import annotations

from kivy.uix.screenmanager import Screen

from companion.ui.widgets import load_kv

load_kv(__file__)


class SettingsScreen(Screen):
    pass
