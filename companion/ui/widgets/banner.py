"""The last-card banner: nobody at the table may miss that a seat just played its last card."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets import load_kv


class Banner(BoxLayout):
    title = StringProperty("")
    line = StringProperty("")


load_kv(__file__)
