"""Saved games: every game, newest first, filtered by touch; a tap opens the game's page.

The list is a RecycleView fed a page of rows at a time as it scrolls towards
its end, so 10,000 games open as fast as ten: only the rows read so far are
held, and only the rows on screen are widgets.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout

from companion.errors import CompanionError, Reason
from companion.ui.bidi import as_name, join_named
from companion.ui.widgets.mirror import Row
from companion.rules import PROFILES, ProfileId
from companion.ui.threads import mainthread_now
from companion.store.review import Filter, GameLine, Status, count_games, games_page, periods
from companion.ui import theme
from companion.ui.i18n import number, period_words, say, table_word, tr, when
from companion.ui.widgets import ChoiceButton, load_kv, short
from companion.ui.widgets.fit import needed_width
from companion.ui.widgets.tables import league_places, place_name
from companion.ui.words import Sentence, joined, listing

load_kv(__file__)

PAGE = 40
"""Rows read at a time: a few screens' worth, a few milliseconds of SQL."""
LEAGUE_EVERY = 20.0
"""Seconds between two questions to Syncthing while the list shows: a table seen or games arriving show soon."""
MORE_WHEN = 0.2
"""Read the next page when less than this share of the list is left below the view."""


def result_text(game: GameLine) -> Sentence:
    """The game's outcome; a winner's name gives way to fit, never "won"."""
    if game.abandoned_at:
        return Sentence(tr._("abandoned"), {})
    if game.ended_at is None:
        return Sentence(tr._("unfinished"), {})
    fields = {f"winner{i}": name for i, name in enumerate(game.winners)}
    return Sentence(tr._("{winners} won").format(winners=" & ".join("{" + field + "}" for field in fields)), fields)


def profile_title(profile: str) -> str:
    """The rules' name as the set-up screen says it; a profile edited by hand into the row is shown as it is."""
    return table_word(PROFILES[profile].title) if profile in PROFILES else profile


def row_data(game: GameLine, places: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """What a row shows of one game: when, the rules, how long and who won; at which table of a league
    (``places``), then who sat down with their scores.

    Both lines are sentences whose names give way (``fit_names``), from their ends, as everywhere."""
    if game.problem:
        return {"game_id": game.id, "title": Sentence(f"#{game.id} · {when(game.started_at)}", {}),
                "names": Sentence(say(game.problem), {}), "note": "", "height": row_height(False)}
    length = tr.ngettext("{n} move", "{n} moves", game.actions).format(n=game.actions)
    if game.minutes is not None:
        length += " · " + tr._("{n} min").format(n=game.minutes)
    result = result_text(game)
    title = joined((when(game.started_at), profile_title(game.profile), length), " · ", result)
    separator = tr._(", ")  # the language's own: "、" in Japanese, "، " in Persian
    if game.scores and any(score is not None for score in game.scores):
        scored = [(name, " " + theme.signed(score or 0)) for name, score in zip(game.names, game.scores, strict=True)]
        names = listing(scored, separator + " ")  # a wider gap between one seat's score and the next seat
    else:
        names = listing([(name, "") for name in game.names], separator)
    at = place_name(places or [], game.table)
    if at:  # a league's game: its table first on the seats' line, which has the room
        names = joined([as_name(at)], " · ", names)
    return {"game_id": game.id, "title": title, "names": names, "note": game.note or "",
            "height": row_height(bool(game.note))}


def row_height(note: bool) -> float:
    """A row with a note has a third line for it."""
    return float(dp(96 if note else 72))


class GameRow(RecycleDataViewBehavior, ButtonBehavior, Row):
    """One saved game: when, rules, length and result on the first line, seats and scores on the second."""

    game_id = NumericProperty(0)
    title = ObjectProperty(Sentence("", {}))
    names = ObjectProperty(Sentence("", {}))
    note = StringProperty("")

    def on_release(self) -> None:
        App.get_running_app().screen("game").open(int(self.game_id))
        App.get_running_app().show("game")


class FilterChoices(StackLayout):
    """One filter's choices as buttons that wrap: any, then each value."""


class GamesScreen(Screen):
    total = NumericProperty(0)
    """Games the filter keeps, in the database (the list reads them a page at a time)."""
    filtering = BooleanProperty(False)
    """The filters' panel shows instead of the list."""
    summary = StringProperty("")
    """The filter in words, above the list."""
    filtered = BooleanProperty(False)
    places_shown = BooleanProperty(False)
    """The store holds games from more than one table: the list names each game's, and the filter has them."""
    league = StringProperty("")
    """The league's state in words, one line each, while this table is in one; empty (and no strip) otherwise."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chosen = Filter()
        self._read = 0
        self.places: list[tuple[str, str]] = []
        self._asking = False
        self._every: Any = None

    def on_pre_enter(self, *_args: object) -> None:
        self.filtering = False
        self.reload()
        self.ask_league()
        self._every = Clock.schedule_interval(lambda _dt: self.ask_league(), LEAGUE_EVERY)

    def on_leave(self, *_args: object) -> None:
        if self._every is not None:
            self._every.cancel()
            self._every = None

    def ask_league(self) -> None:
        """The league's state asked of Syncthing on a thread of its own (it waits on a socket): the list is never
        held up, and one question at a time."""
        app = App.get_running_app()
        config = getattr(getattr(app, "config_", None), "league", None)
        if config is None or self._asking:
            return
        from companion.league.syncthing import words_now  # here: Syncthing's client is not needed for the first frame

        self._asking = True
        threading.Thread(target=lambda: self._told(words_now(config)), name="league-strip", daemon=True).start()

    @mainthread_now
    def _told(self, words: list[Reason] | None) -> None:
        self._asking = False
        self.league = join_named("\n", [say(reason) for reason in words or []])

    def reload(self) -> None:
        """The list from its first page, for the current filter."""
        store = App.get_running_app().store
        self.places = league_places(store)
        self.places_shown = bool(self.places)
        if self.chosen.table is not None and self.chosen.table not in dict(self.places):
            self.chosen = replace(self.chosen, table=None)
        self.total = count_games(store, self.chosen) if store is not None else 0
        self._read = 0
        self.ids.list.data = []
        self.ids.list.scroll_y = 1
        self.summary = self._summary()
        self.filtered = self.chosen != Filter()
        self.read_more()

    def read_more(self) -> None:
        store = App.get_running_app().store
        if store is None or self._read >= self.total:
            return
        try:
            page = games_page(store, self.chosen, self._read, PAGE)
        except CompanionError as exc:
            App.get_running_app().notify(say(exc.reason))
            return
        self._read += len(page) or self.total  # rows gone meanwhile: stop reading
        rows = self.ids.list
        above = (1 - rows.scroll_y) * max(0.0, self._content_height() - rows.height)
        rows.data.extend(row_data(game, self.places) for game in page)
        # the rows in view stay in view: the same distance from the top of a longer list
        rows.scroll_y = 1 - above / max(1.0, self._content_height() - rows.height)

    def _content_height(self) -> float:
        """The list's height as its layout will make it: each row's height and the gaps between them."""
        data = self.ids.list.data
        return float(sum(row["height"] for row in data) + dp(theme.GAP) * max(0, len(data) - 1))

    def scrolled(self, scroll_y: float) -> None:
        """Near the end of what was read, read the next page (on the next frame: not inside the scroll)."""
        if scroll_y < MORE_WHEN and self._read < self.total:
            Clock.schedule_once(lambda _dt: self.read_more(), 0)

    def _summary(self) -> str:
        count = tr.ngettext("{n} game", "{n} games", self.total).format(n=number(self.total))
        chosen = self.chosen
        words = [
            status_text(chosen.status) if chosen.status else None,
            profile_title(chosen.profile) if chosen.profile else None,
            period_words(chosen.period) if chosen.period else None,
            as_name(chosen.player) if chosen.player else None,
            as_name(place_name(self.places, chosen.table)) if chosen.table is not None else None,
        ]
        return join_named(" · ", [count, *(word for word in words if word)])

    # --- the filters' panel ------------------------------------------------------

    def toggle_filters(self) -> None:
        self.filtering = not self.filtering
        if self.filtering:
            self.fill_filters()

    def fill_filters(self) -> None:
        store = App.get_running_app().store
        months = periods(store) if store is not None else []
        years = sorted({month[:4] for month in months}, reverse=True)
        groups: Sequence[tuple[str, Sequence[tuple[str, Any]], Callable[[Any], Filter]]] = (
            ("status", [(status_text(s), s) for s in Status], lambda v: replace(self.chosen, status=v)),
            ("profile", [(profile_title(p), ProfileId(p)) for p in PROFILES], lambda v: replace(self.chosen, profile=v)),
            ("period", [(period_words(p), p) for p in years + months], lambda v: replace(self.chosen, period=v)),
            ("player", [(short(name), name) for name in (store.recent_players(retired=True) if store else [])],
             lambda v: replace(self.chosen, player=v)),
            ("table", [(short(name), table_id) for table_id, name in self.places],
             lambda v: replace(self.chosen, table=v)),
        )
        for field, choices, choose in groups:
            box = self.ids[field]
            box.clear_widgets()
            current = getattr(self.chosen, field)
            for text, value in [(tr._("Any"), None), *choices]:
                button = ChoiceButton(text=text, selected=current == value, size_hint=(None, None),
                                      height=dp(theme.TARGET))
                button.width = needed_width(button, button.font_size)
                button.bind(on_release=lambda _b, v=value, c=choose: self.choose(c(v)))
                box.add_widget(button)

    def choose(self, chosen: Filter) -> None:
        self.chosen = chosen
        self.fill_filters()
        self.reload()

    def clear_filters(self) -> None:
        self.chosen = Filter()
        self.filtering = False
        self.reload()


def status_text(status: Status) -> str:
    return {Status.FINISHED: tr._("Finished"), Status.UNFINISHED: tr._("Unfinished"),
            Status.ABANDONED: tr._("Abandoned")}[status]
