"""Home: where the table starts a game, resumes one, or looks back."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from companion.ui.i18n import tr
from companion.ui.widgets import load_kv

load_kv(__file__)


class HomeScreen(Screen):
    can_resume = BooleanProperty(False)
    """An unfinished game is saved; Resume looks dimmed without one but still says why on a tap."""

    def on_pre_enter(self, *_args: object) -> None:
        store = App.get_running_app().store
        self.can_resume = store is not None and store.unfinished_game() is not None

    def resume(self) -> None:
        app = App.get_running_app()
        if not app.resume_game():
            app.notify(tr._("There is no unfinished game to resume"))
