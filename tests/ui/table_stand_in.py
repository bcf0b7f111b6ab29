"""Where ``app.show_table`` lands while there is no table screen module beside the set-up's screens.

Only added when ``companion/ui/screens/table.py`` does not exist, so with the
real table in place the tests run against it unchanged.
"""

from __future__ import annotations

import importlib.util

from kivy.uix.screenmanager import Screen, ScreenManager

from companion.session import Session
from companion.ui.app import SpicyApp


class TableStandIn(Screen):
    session: Session | None = None

    def open(self, session: Session) -> None:
        self.session = session


def with_a_table(build):  # type: ignore[no-untyped-def]
    """Wrap ``SpicyApp.build`` so a table screen exists."""

    def build_with_a_table(app: SpicyApp) -> ScreenManager:
        manager = build(app)
        if importlib.util.find_spec("companion.ui.screens.table") is None:
            manager.add_widget(TableStandIn(name="table"))
        return manager

    return build_with_a_table
