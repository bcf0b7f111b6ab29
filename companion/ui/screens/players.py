"""Players: everyone who sat down, with their games and wins; add a player, or tap one for their page.

Retired players keep every game; the list shows them apart, behind "Retired".
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.store.review import PlayerLine, player_lines
from companion.ui.i18n import say, tr
from companion.ui.widgets import load_kv

load_kv(__file__)


def player_data(line: PlayerLine) -> dict[str, Any]:
    rate = round(100 * line.wins / line.games) if line.games else 0
    games = tr.ngettext("{n} game", "{n} games", line.games).format(n=line.games)
    wins = tr.ngettext("{n} win", "{n} wins", line.wins).format(n=line.wins)
    return {"name": line.name, "figures": f"{games} · {wins} · {rate}%"}


class PlayerRow(ButtonBehavior, BoxLayout):
    name = StringProperty("")
    figures = StringProperty("")

    def on_release(self) -> None:
        app = App.get_running_app()
        if app.screen("player").open(self.name):
            app.show("player")


class PlayersScreen(Screen):
    retired = BooleanProperty(False)
    """The retired players show instead of the others."""
    count = NumericProperty(0)

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def on_retired(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        store = App.get_running_app().store
        lines = player_lines(store, self.retired) if store is not None else []
        self.count = len(lines)
        self.ids.list.data = [player_data(line) for line in lines]

    def add(self) -> None:
        app = App.get_running_app()
        field = self.ids.new_name
        try:
            app.store.add_player(field.text)
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        field.text = ""
        self.retired = False
        self.refresh()
