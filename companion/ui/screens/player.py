"""A player's page: their figures under one rules profile at a time, the bluffing figures first among them;
results over time; head-to-head against anyone they met; rename, merge and retire. In a league, how many of
their games were at each table, and a button to show one table's games alone.

Every number comes from the store's review queries (``companion.store.review``),
the same that ``spicy-companion stats --player`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, OptionProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.store.review import (
    BuzzFigures,
    Figures,
    Opponent,
    buzz_figures,
    figures,
    head_to_heads,
    nemesis,
    player_lines,
    player_tables,
    results,
    rival,
)
from companion.ui import theme
from companion.ui.bidi import named
from companion.ui.i18n import number, percent, say, tr
from companion.ui.screens.games import profile_title
from companion.ui.words import delay, spice_name
from companion.ui.widgets import ChoiceButton, load_kv, short
from companion.ui.widgets.fit import needed_width
from companion.ui.widgets.tables import league_places, place_name
from companion.ui.widgets.layer import Layer
from companion.ui.widgets.chart import LineChart
from companion.ui.widgets.keyboard import TextField  # noqa: F401  (used in the kv)

load_kv(__file__)

__all__ = ["AskSheet", "LineChart", "PlayerScreen"]


def figure_rows(f: Figures, buzz: BuzzFigures | None = None) -> list[tuple[str, str]]:
    """The page's figures, the bluffing ones first: what no play logger can count. The buzz figures show
    "–" under rules with no saved buzz time (games from before they were saved, challenges by touch)."""
    quickest = "–" if buzz is None or buzz.quickest_ms is None else delay(buzz.quickest_ms)
    margin = "–" if buzz is None or buzz.median_margin_ms is None else delay(buzz.median_margin_ms)
    early = [(tr._("Buzzed before the tap"), str(buzz.before_tap))] if buzz is not None and buzz.before_tap else []
    average = "–" if f.average_score is None else number(f.average_score, 1)
    best = "–" if f.best_score is None else theme.signed(f.best_score)
    return [
        (tr._("Challenges made"), str(f.challenges_made)),
        (tr._('"Not that spice!" won'), f"{f.spice_challenges_won} / {f.spice_challenges}"),
        (tr._('"Not that number!" won'), f"{f.number_challenges_won} / {f.number_challenges}"),
        (tr._("Caught bluffing"), str(f.caught_bluffing)),
        (tr._("Challenged and survived"), str(f.survived_challenges)),
        (tr._("Favourite spice declared"), spice_name(f.favourite_spice) if f.favourite_spice else "–"),
        (tr._("Quickest buzz, from the tap"), quickest),
        *early,
        (tr._("Median buzz margin"), margin),
        (tr._("Games"), str(f.games)),
        (tr._("Wins"), f"{f.wins} · {percent(f.win_rate)}"),
        (tr._("Average score"), average),
        (tr._("Best score"), best),
        (tr._("Trophies"), str(f.trophies)),
    ]


def opponent_text(opponent: Opponent | None) -> str:
    """The rival or nemesis and how many times: ``Dee (4)``."""
    return "–" if opponent is None else named("{name} ({times})", {"name": short(opponent.name, 12)},
                                              times=opponent.times)


class AskSheet(Layer):
    """Asked once over the player's page before a rename, a merge or a retirement, naming what changes."""

    text = StringProperty("")
    yes = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.then: Callable[[], None] = lambda: None


class PlayerScreen(Screen):
    name_shown = StringProperty("")
    retired = BooleanProperty(False)
    profiles = ListProperty()
    """The rules this player has finished games under, most games first."""
    profile = StringProperty("")
    rows = ListProperty()
    """(label, value) of the chosen profile's figures."""
    rival = StringProperty("")
    nemesis = StringProperty("")
    tab = OptionProperty("results", options=["results", "versus", "manage"])
    versus = StringProperty("")
    """The head-to-head chosen, in words."""
    chart_caption = StringProperty("")
    merge_target = StringProperty("")
    """The player this profile is about to be merged into."""
    merged = StringProperty("")
    """The player last merged into this one, while the merge can be undone (until the next game starts)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sheet = AskSheet()
        self._opening = False

    def open(self, name: str, table: str | None = None) -> bool:
        """The page of ``name``, over the league's games or one table's (``table``)."""
        app = App.get_running_app()
        choice = self.ids.table_choice
        try:
            choice.offer(league_places(app.store))
            lines = player_lines(app.store, name=name)
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return False
        self._opening = True  # one read below, not one more for the table set
        choice.table = table if table in [place for place, _name in choice.places] else None
        self._opening = False
        if not self._read(name, choice.table):
            return False
        self.retired = bool(lines and lines[0].retired)
        self.tab = "results"
        self.merged = app.store.merge_to_undo(name) or ""
        self.close_sheet()
        self.ids.merge.clear_widgets()
        self.ids.rename.text = name
        for scrolled in ("figures_scroll", "opponents_scroll", "manage"):
            self.ids[scrolled].scroll_y = 1  # another player's page starts at its top, not where the last was left
        return True

    def on_table_chosen(self) -> None:
        """The table button tapped: the same page over the games of the table now chosen (or every table's)."""
        if self.name_shown and not self._opening:
            self._read(self.name_shown, self.ids.table_choice.table)

    def _read(self, name: str, table: str | None) -> bool:
        """Everything the page shows of ``name`` at ``table`` (None: the league), read and shown; the rules
        chosen stay chosen while the player still has games under them."""
        app = App.get_running_app()
        try:
            found = figures(app.store, player=name, table=table)
            self._buzzes = buzz_figures(app.store, name, table)
            self._rival, self._nemesis = rival(app.store, name, table), nemesis(app.store, name, table)
            self._against = head_to_heads(app.store, name, table=table)
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return False
        same = name == self.name_shown
        self.name_shown = name
        self._figures = {f.profile: f for f in sorted(found, key=lambda f: -f.games)}
        kept = self.profile if same and self.profile in self._figures else None
        self.profiles = list(self._figures)
        self.profile = kept or (self.profiles[0] if self.profiles else "")
        self.rival, self.nemesis = opponent_text(self._rival), opponent_text(self._nemesis)
        self.versus = ""
        self.ids.opponents.clear_widgets()
        self._fill()
        if self.tab == "versus":
            self.on_tab(self, "versus")
        return True

    def on_profile(self, *_args: object) -> None:
        self._fill()

    def on_rows(self, *_args: object) -> None:
        box = self.ids.rows
        box.clear_widgets()
        for label, value in self.rows:
            box.add_widget(Factory.FigureRow(label=label, value=value))

    def _fill(self) -> None:
        chosen = self._figures.get(self.profile) if hasattr(self, "_figures") else None
        self.rows = figure_rows(chosen, self._buzzes.get(self.profile)) if chosen else []
        if chosen:
            self.rows = [*self._tables(chosen.profile), *self.rows]
        self._choices(self.ids.profiles, [(profile_title(p), p) for p in self.profiles], self.profile,
                      lambda value: setattr(self, "profile", value))
        self._chart(chosen)

    def _tables(self, profile: str) -> list[tuple[str, str]]:
        """In a league, a row a table saying how many of the player's games (under these rules) were there."""
        app = App.get_running_app()
        try:
            places = league_places(app.store)
            at = player_tables(app.store, self.name_shown, profile) if places else []
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return []
        chosen = self.ids.table_choice.table
        return [(named(tr._("Games at {table}"), {"table": place_name(places, table)}), number(games))
                for table, games in at if chosen is None or table == chosen]

    def on_tab(self, _screen: PlayerScreen, tab: str) -> None:
        """The versus and manage choices are made when their tab opens: the page opens with the figures alone."""
        if tab == "versus":
            self._choices(self.ids.opponents, [(short(h.other), h.other) for h in self._against], None,
                          self.against)
        elif tab == "manage":
            self.merge_choices()

    def _chart(self, chosen: Figures | None) -> None:
        """Scores game by game under the chosen rules, over the newest games; five-spices keeps none, so its wins
        so far instead (counted from the player's first game)."""
        app = App.get_running_app()
        try:
            games = results(app.store, self.name_shown, chosen.profile,
                            table=self.ids.table_choice.table) if chosen else []
        except CompanionError as exc:
            app.notify(say(exc.reason))
            games = []
        if games and games[0].score is not None:
            self.chart_caption = tr._("Score, game by game")
            values = [float(r.score or 0) for r in games]
        else:
            self.chart_caption = tr._("Wins so far, game by game")
            before = (chosen.wins if chosen else 0) - sum(r.won for r in games)  # wins older than the chart's
            values = [float(wins) for wins in accumulate((r.won for r in games), initial=before)][1:]
        self.ids.chart.series = [(theme.ACCENT, values)] if values else []

    @staticmethod
    def _choices(box: Any, choices: list[tuple[str, str]], current: str | None, choose: Any) -> None:
        box.clear_widgets()
        for text, value in choices:
            button = ChoiceButton(text=text, selected=value == current, size_hint=(None, None),
                                  height=dp(theme.TARGET))
            button.width = needed_width(button, button.font_size)
            button.bind(on_release=lambda _b, v=value: choose(v))
            box.add_widget(button)

    def against(self, other: str) -> None:
        h = next(h for h in self._against if h.other == other)
        self.versus = named(tr.ngettext("{games} game together: {name} won {wins}, {other} won {losses}",
                                        "{games} games together: {name} won {wins}, {other} won {losses}", h.games),
                            {"name": short(self.name_shown), "other": short(other)}, games=h.games, wins=h.wins,
                            losses=h.losses)
        for button in self.ids.opponents.children:
            button.selected = button.text == short(other)

    # --- managing the profile ----------------------------------------------------

    def _change(self, change: Callable[[], object], then: str) -> None:
        app = App.get_running_app()
        self.close_sheet()
        try:
            change()
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        if self.open(then, self.ids.table_choice.table):
            self.tab = "manage"  # where the change was asked, and where a merge is undone

    def _ask(self, text: str, yes: str, then: Callable[[], None]) -> None:
        self.sheet.text, self.sheet.yes, self.sheet.then = text, yes, then
        if self.sheet.parent is None:
            self.add_widget(self.sheet)

    def close_sheet(self) -> None:
        if self.sheet.parent is not None:
            self.remove_widget(self.sheet)

    def _games(self) -> int:
        return int(App.get_running_app().store.games_of(self.name_shown))

    def rename(self) -> None:
        """Asked first: every saved game and export of this player will say the new name."""
        old, new = self.name_shown, self.ids.rename.text.strip()
        self.ids.rename.focus = False  # the keys go: the name is typed
        store = App.get_running_app().store
        self._ask(
            named(tr._("{name}'s {games} games will say {new}."), {"name": short(old), "new": short(new)},
                  games=self._games()),
            tr._("Rename"), lambda: self._change(lambda: store.rename_player(old, new), new))

    def choose_merge(self, other: str) -> None:
        """The first tap picks whom to merge into; the Merge button then asks, naming what changes."""
        self.merge_target = other
        for button in self.ids.merge.children:
            button.selected = button.text == short(other)

    def merge(self) -> None:
        name, other = self.name_shown, self.merge_target
        if not other:
            return
        store = App.get_running_app().store
        self._ask(
            named(tr._("{name}'s {games} games become {other}'s. {other}'s page can undo it until the next game "
                       "starts."), {"name": short(name), "other": short(other)}, games=self._games()),
            tr._("Merge"), lambda: self._change(lambda: store.merge_players(name, other), other))

    def undo_merge(self) -> None:
        """The merge into this player taken back: the merged player's page opens, with their games again."""
        app = App.get_running_app()
        kept = self.name_shown
        try:
            back = app.store.undo_merge(kept)
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        self.open(back, self.ids.table_choice.table)
        app.notify(named(tr._("{name} has their {games} games back"), {"name": short(back)}, games=self._games()),
                   good=True)

    def toggle_retired(self) -> None:
        """Retiring asks first; bringing back does not (it hides nothing)."""
        name = self.name_shown
        store = App.get_running_app().store
        if self.retired:
            self._change(lambda: store.retire_player(name, False), name)
            return
        self._ask(named(tr._("{name} moves to the Retired list; their {games} games and figures stay."),
                        {"name": short(name)}, games=self._games()),
            tr._("Retire"), lambda: self._change(lambda: store.retire_player(name), name))

    def merge_choices(self) -> None:
        """Whom this profile can be merged into: every other player."""
        names = [n for n in App.get_running_app().store.players() if n != self.name_shown]
        self.merge_target = ""
        self._choices(self.ids.merge, [(short(n), n) for n in names], None, self.choose_merge)
