"""Players: everyone who sat down, ranked by skill rating with its uncertainty, with their games and wins;
add a player, or tap one for their page.

Retired players keep every game; the list shows them apart, behind "Retired".
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.screenmanager import Screen

from companion.ui.widgets.mirror import Row
from companion.errors import CompanionError
from companion.store.ratings import Rating, ratings
from companion.store.review import PlayerLine, player_lines
from companion.ui.i18n import number, percent, say, tr
from companion.ui.widgets import load_kv
from companion.ui.widgets.tables import league_places
from companion.ui.widgets.keyboard import TextField  # noqa: F401  (used in the kv)

load_kv(__file__)


def player_data(line: PlayerLine, rank: int | None = None, rating: Rating | None = None) -> dict[str, Any]:
    """A row: the name, the ranking's place with the skill and its uncertainty, then games, wins and win %."""
    games = tr.ngettext("{n} game", "{n} games", line.games).format(n=line.games)
    wins = tr.ngettext("{n} win", "{n} wins", line.wins).format(n=line.wins)
    skill = "" if rating is None else f"#{rank}  {number(rating.mu, 1)} ± {number(rating.sigma, 1)}"
    return {"name": line.name, "figures": f"{games} · {wins} · {percent(line.wins / line.games if line.games else 0)}", "skill": skill}


def ranked(lines: list[PlayerLine], found: list[Rating]) -> list[dict[str, Any]]:
    """The list in the ranking's order (best skill less uncertainty first), players without a rating after."""
    place = {rating.name: (rank, rating) for rank, rating in enumerate(found, start=1)}
    lines = sorted(lines, key=lambda line: place[line.name][0] if line.name in place else len(place) + 1)
    return [player_data(line, *place.get(line.name, (None, None))) for line in lines]


class PlayerRow(ButtonBehavior, Row):
    name = StringProperty("")
    figures = StringProperty("")
    skill = StringProperty("")
    """The place in the ranking and the rating, ``#2  27.1 ± 3.0``; empty before a finished game."""

    def on_release(self) -> None:
        app = App.get_running_app()
        if app.screen("player").open(self.name, app.screen("players").ids.table_choice.table):
            app.show("player")


class PlayersScreen(Screen):
    retired = BooleanProperty(False)
    """The retired players show instead of the others."""
    count = NumericProperty(0)

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def on_size(self, *_args: object) -> None:
        """Records in the bar, beside the title; standing, at the end of the add row instead, where the field
        gives it room: the bar then keeps its title readable with the table button there too."""
        records, bar, row = self.ids.records.__self__, self.ids.bar.__self__, self.ids.add_row.__self__
        wanted = bar if self.width > self.height else row  # (the widgets, not the ids' proxies, compared)
        if records.parent is not wanted:
            records.parent.remove_widget(records)
            wanted.add_widget(records, index=len(bar.children) - 1 if wanted is bar else 0)

    def on_retired(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        store = App.get_running_app().store
        if store is None:
            return
        choice = self.ids.table_choice
        try:
            choice.offer(league_places(store))
            lines, found = player_lines(store, self.retired, table=choice.table), ratings(store)
        except CompanionError as exc:
            App.get_running_app().notify(say(exc.reason))
            return
        self.count = len(lines)
        self.ids.list.data = ranked(lines, found)
        self.ids.list.scroll_y = 1  # a new list starts at its top: a short one was drawn at the bottom

    def show_records(self) -> None:
        """The records, of the table this list shows (or the league's)."""
        app = App.get_running_app()
        app.screen("records").open(self.ids.table_choice.table)
        app.show("records")

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
