"""The question asked over home when a new game would leave one unfinished: resume it, or abandon it (it stays
in the saved games, marked abandoned) and set up the next one. Its own module and kv, made after the first
frame (the app's ``_build_ahead``) or when first asked: home's first frame does not parse its rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import NumericProperty, StringProperty

from companion.ui.widgets import load_kv
from companion.ui.widgets.layer import Layer

load_kv(__file__)


class LeftGameSheet(Layer):
    """Asked over home when a new game would leave one unfinished; takes every touch while it shows."""

    game_id = NumericProperty(0)
    text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.then: Callable[[], None] = lambda: None
        """Where abandoning the game leads: set-up, or the same table as last time."""
