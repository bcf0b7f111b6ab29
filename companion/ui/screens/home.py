"""Home: where the table starts a game, resumes one, or looks back.

"New game" or "Same table as last time" while a game is unfinished asks first:
resume it, or abandon it (it stays in the saved games, marked abandoned) and set
up the next one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.metrics import dp
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.errors import CompanionError
from companion.table.seating import Seating
from companion.ui.bidi import named
from companion.ui.i18n import listed, say, tr, when

from companion.ui.widgets import load_kv

load_kv(__file__)

if TYPE_CHECKING:
    from companion.ui.widgets.left_game import LeftGameSheet


class HomeScreen(Screen):
    can_resume = BooleanProperty(False)
    """An unfinished game is saved; Resume looks dimmed without one but still says why on a tap."""

    can_repeat = BooleanProperty(False)
    """A game has been played here: "Same table as last time" has a table to set again."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sheet: LeftGameSheet | None = None
        self.phone_code: Widget | None = None
        """The phone page's code in the corner, made when the page first starts (not for the first frame)."""
        App.get_running_app().phones.bind(url=self._phone_code)

    @property
    def sheet(self) -> LeftGameSheet:
        """The question asked when a new game would leave one unfinished: made after the first frame (the
        app's ``_build_ahead``) or when first asked, not for the first frame, which does not show it."""
        if self._sheet is None:
            from companion.ui.widgets.left_game import LeftGameSheet

            self._sheet = LeftGameSheet()
        return self._sheet

    def _phone_code(self, _phones: object, url: str) -> None:
        """While phones can follow the game, its code in the top corner; a tap shows it whole-screen."""
        if self.phone_code is None:
            from companion.ui.widgets.phone_link import PhoneCode

            self.phone_code = PhoneCode(size_hint=(None, None), size=(dp(112), dp(112)),
                                        pos_hint={"x": 0.01, "top": 0.985})
        if url and self.phone_code.parent is None:
            self.add_widget(self.phone_code)
        elif not url and self.phone_code.parent is not None:
            self.remove_widget(self.phone_code)
        self.phone_code.text = url

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Resume follows the store: none until it opens, after the first frame."""
        store = App.get_running_app().store
        self.can_resume = store is not None and store.unfinished_game() is not None
        self.can_repeat = store is not None and bool(store.list_games(limit=1))
        self.close_sheet()

    def same_table(self) -> None:
        """Set-up's last step with the latest game's rules, seats, colours and buzzers: then Start."""
        self._unless_unfinished(self._same_table)

    def _same_table(self) -> None:
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
        self.close_sheet()
        app = App.get_running_app()
        if not app.resume_game():
            app.notify(tr._("There is no unfinished game to resume"))

    def new_game(self) -> None:
        self._unless_unfinished(lambda: App.get_running_app().show("setup"))

    def _unless_unfinished(self, then: Callable[[], None]) -> None:
        """``then`` at once, unless a game is unfinished: then the table is asked first."""
        app = App.get_running_app()
        game_id = app.store.unfinished_game() if app.store is not None else None
        game = app.store.summary(game_id) if game_id is not None else None
        if game is None:
            then()
            return
        self.sheet.game_id, self.sheet.then = game.id, then
        self.sheet.text = named(tr._("The game of {when} with {names} is not finished."), {},
                                when=when(game.started_at), names=listed(game.names))
        if self.sheet.parent is None:
            self.add_widget(self.sheet)

    def abandon(self) -> None:
        """The unfinished game is given up (kept, marked abandoned); a store error keeps the question open."""
        app = App.get_running_app()
        if app.abandon(self.sheet.game_id):
            self.close_sheet()
            self.can_resume = app.store.unfinished_game() is not None
            self.sheet.then()

    def close_sheet(self) -> None:
        if self._sheet is not None and self._sheet.parent is not None:
            self.remove_widget(self._sheet)
