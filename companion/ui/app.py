"""The Kivy app: one window, a screen manager, the store and the buzzers.

Screens are registered by name from ``companion/ui/screens/<name>.py``; each
module loads its own ``.kv``. The app owns the long-lived things (the store,
the buzzers) so a screen can come and go without reopening them.
"""

from __future__ import annotations

import importlib
from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.buzzers import Buzzers, open_buzzers
from companion.config import Config
from companion.rules import Setup
from companion.session import Session
from companion.store import Store
from companion.ui import theme
from companion.ui.i18n import tr

SCREENS: tuple[str, ...] = ("home",)
"""Screen names, each a module in ``companion.ui.screens`` with a class ``<Name>Screen``."""


class SpicyApp(App):
    title = "Spicy Companion"
    face_seats = BooleanProperty(False)
    """Seat panels turn to face their edges (a screen lying flat); the table binds to it."""
    session = ObjectProperty(None, allownone=True)
    """The live game, when there is one."""

    def __init__(self, config: Config, *, pin_factory: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.config_ = config
        self.pin_factory = pin_factory
        self.store: Store | None = None
        self.buzzers: Buzzers | None = None
        self.face_seats = config.ui.face_seats
        tr.switch(config.ui.language)

    def build(self) -> ScreenManager:
        Window.clearcolor = theme.FELT_EDGE
        self.store = Store.open(self.config_.store.db, self.config_.store.busy_timeout)
        self.buzzers = open_buzzers(self.config_.buzzers, pin_factory=self.pin_factory)
        manager = ScreenManager(transition=NoTransition())
        for name in SCREENS:
            module = importlib.import_module(f"companion.ui.screens.{name}")
            screen_class = getattr(module, f"{name.capitalize()}Screen")
            manager.add_widget(screen_class(name=name))
        return manager

    def on_stop(self) -> None:
        if self.buzzers is not None:
            self.buzzers.close()
        if self.store is not None:
            self.store.close()

    def start_game(self, setup: Setup) -> None:
        """Save a new game from ``setup`` and show its table."""
        assert self.store is not None
        self.show_table(Session.new(self.store, setup))

    def show_table(self, session: Session) -> None:
        self.session = session
        table = self.root.get_screen("table")
        table.open(session)
        self.root.current = "table"

    def play_sound(self, name: str) -> None:
        """A short sound ("buzz", "decision", "last-card", "end"), unless sounds are off."""

    def notify(self, text: str) -> None:
        """A toast with ``text`` over whatever screen is showing."""
