"""Tonight: a running leaderboard across the evening's games and its awards, each defined in one line.

The evening is the store's (``companion.store.review.tonight``): the newest games
with no pause longer than a few hours between one and the next.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.widgets.mirror import Row
from companion.errors import CompanionError
from companion.store.review import EVENING_GAP_HOURS, AwardKind, Evening, tonight
from companion.ui import theme
from companion.ui.bidi import join_named, named
from companion.ui.i18n import say, tr, when
from companion.ui.widgets import Label, load_kv, short
from companion.ui.widgets.tables import league_places, place_name
from companion.ui.words import delay

load_kv(__file__)


def award_words(kind: AwardKind) -> tuple[str, str]:
    """An award's title and its one-line definition."""
    return {
        AwardKind.BEST_BLUFFER: (tr._("Best bluffer"), tr._("Caught bluffing least often for each card played")),
        AwardKind.SHARPEST_CHALLENGER: (tr._("Sharpest challenger"), tr._("Most challenges won")),
        AwardKind.QUICKEST_HAND: (tr._("Quickest hand"),
                                  tr._("The quickest winning buzz, from the claim's tap")),
        AwardKind.MOST_TROPHIES: (tr._("Most trophies"), tr._("Most trophies taken tonight")),
    }[kind]


class BoardCell(Label):
    heading = BooleanProperty(False)
    name = BooleanProperty(False)
    """The player's name: left and bold; the numbers right."""


class AwardRow(Row):
    title = StringProperty("")
    definition = StringProperty("")
    winner = StringProperty("")
    figure = StringProperty("")
    """What won it, for an award that is a measure (the quickest hand's time)."""


class TonightScreen(Screen):
    since = StringProperty("")
    league = BooleanProperty(False)
    """The evening's games were at more than one table: the line above the board says how many at each."""
    standings = ListProperty()
    """(place, name, games, wins, points, trophies) per player, as shown."""
    awards = ListProperty()
    """(title, definition, name, figure) per award given; the figure (ms) for the quickest hand only."""

    def on_pre_enter(self, *_args: object) -> None:
        app = App.get_running_app()
        choice = self.ids.table_choice
        try:
            choice.offer(league_places(app.store))
            evening = tonight(app.store, table=choice.table) if app.store is not None else None
        except CompanionError as exc:
            app.notify(say(exc.reason))
            evening = None
        self.show(evening, choice.places)

    def show(self, evening: Evening | None, places: list[tuple[str, str]] | None = None) -> None:
        self.league = bool(evening and evening.tables)
        if evening is None:
            self.since, self.standings, self.awards = tr._("No game tonight yet"), [], []
        else:
            games = tr.ngettext("{n} game", "{n} games", len(evening.games)).format(n=len(evening.games))
            if evening.tables:  # the league's evening: how many games were at each table
                games = named(tr._("{games}: {tables}"), {}, games=games, tables=join_named(", ", [
                    named(tr._("{count} at {table}"), {"table": place_name(places or [], table)}, count=count)
                    for table, count in evening.tables]))
            self.since = named(tr._("Since {time} · {games} · a pause of over {hours} hours starts a new evening"), {},
                               time=when(evening.started_at), games=games, hours=EVENING_GAP_HOURS)
            self.standings = [
                (str(place), short(s.name), str(s.games), str(s.wins), theme.signed(s.points), str(s.trophies))
                for place, s in enumerate(evening.standings, start=1)
            ]
            self.awards = [(*award_words(a.kind), a.name, a.figure) for a in evening.awards]

    def on_standings(self, *_args: object) -> None:
        grid = self.ids.board
        grid.clear_widgets()
        headings = ("", tr._("Player"), tr._("Games"), tr._("Wins"), tr._("Points"), tr._("Trophies"))
        for row in [headings, *self.standings]:
            for i, text in enumerate(row):
                grid.add_widget(BoardCell(text=text, heading=row is headings, name=i == 1))

    def on_awards(self, *_args: object) -> None:
        box = self.ids.awards
        box.clear_widgets()
        for title, definition, name, figure in self.awards:
            box.add_widget(AwardRow(title=title, definition=definition, winner=short(name),
                                    figure="" if figure is None else delay(figure)))
