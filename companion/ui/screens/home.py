"""Home: where the table starts a game, resumes one, or looks back."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.seating import Seating
from companion.ui.i18n import say, tr
from companion.ui.widgets import load_kv

load_kv(__file__)


class HomeScreen(Screen):
    can_resume = BooleanProperty(False)
    """An unfinished game is saved; Resume looks dimmed without one but still says why on a tap."""

    can_repeat = BooleanProperty(False)
    """A game has been played here: "Same table as last time" has a table to set again."""

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Resume follows the store: none until it opens, after the first frame."""
        store = App.get_running_app().store
        self.can_resume = store is not None and store.unfinished_game() is not None
        self.can_repeat = store is not None and bool(store.list_games(limit=1))

    def same_table(self) -> None:
        """Set-up's last step with the latest game's rules, seats, colours and buzzers: then Start."""
        app = App.get_running_app()
        games = app.store.list_games(limit=1) if app.store is not None else []
        if not games:
            app.notify(tr._("No game has been played here yet: start a new one"))
            return
        game_id = games[0].id
        try:
            setup = app.store.load(game_id).setup
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        seating = app.store.seating(game_id) or Seating.default(len(setup.names))
        app.screen("setup").same_table(setup, seating)

    def resume(self) -> None:
        app = App.get_running_app()
        if not app.resume_game():
            app.notify(tr._("There is no unfinished game to resume"))
