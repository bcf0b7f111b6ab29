"""Records: the table's records (the league's, or one table's), each with its holder and its game; a tap on one
opens that game's page.

The records are the store's (``companion.store.review.records``), the same that
``spicy-companion stats --records`` prints; the screen only says them.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior

from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.store.review import Record, RecordKind, records
from companion.ui.bidi import named
from companion.ui.i18n import say, tr, when
from companion.ui.widgets import load_kv
from companion.ui.widgets.mirror import Row
from companion.ui.widgets.tables import league_places, place_name

load_kv(__file__)


def record_words(kind: RecordKind) -> tuple[str, str]:
    """A record's title and what it counts, in one line."""
    return {
        RecordKind.HIGHEST_SCORE: (tr._("Highest score"), tr._("The most points at a game's end")),
        RecordKind.BIGGEST_STACK: (tr._("Biggest stack won"), tr._("The most cards won in one stack")),
        RecordKind.LONGEST_GAME: (tr._("Longest game"), tr._("From the first card to the end")),
        RecordKind.MOST_CHALLENGES_WON: (tr._("Most challenges won"), tr._("By one player in one game")),
        RecordKind.LONGEST_SURVIVAL: (tr._("Longest run survived"),
                                      tr._("Challenges survived in a row, in one game")),
    }[kind]


def record_value(kind: RecordKind, value: int) -> str:
    """The record itself, in its unit: points, cards, minutes or challenges."""
    if kind is RecordKind.HIGHEST_SCORE:
        return tr.ngettext("{n} point", "{n} points", value).format(n=value)
    if kind is RecordKind.BIGGEST_STACK:
        return tr.ngettext("{n} card", "{n} cards", value).format(n=value)
    if kind is RecordKind.LONGEST_GAME:
        return tr._("{n} min").format(n=value)
    return tr.ngettext("{n} challenge", "{n} challenges", value).format(n=value)


def record_data(kind: RecordKind, record: Record | None, places: list[tuple[str, str]]) -> dict[str, Any]:
    """What one row shows: the record, its holder, and its game's date and (in a league) table; a record no
    game has set yet says so."""
    title, definition = record_words(kind)
    if record is None:
        return {"title": title, "definition": definition, "value": "", "holder": "", "game_id": 0,
                "game": tr._("No game has set it yet")}
    at = place_name(places, record.table)
    game = named("{when} · {table}", {"table": at}, when=when(record.started_at)) if at else when(record.started_at)
    holder = record.name if record.name is not None else tr._("Everyone who played it")
    return {"title": title, "definition": definition, "value": record_value(kind, record.value),
            "holder": holder, "game_id": record.game_id, "game": game, "named": record.name is not None}


class RecordRow(ButtonBehavior, Row):
    title = StringProperty("")
    definition = StringProperty("")
    value = StringProperty("")
    holder = StringProperty("")
    named = BooleanProperty(True)
    """The holder is a player (the longest game is everyone's who played it)."""
    game = StringProperty("")
    """The game's date, and in a league its table; or that no game has set the record yet."""
    game_id = NumericProperty(0)
    """0: no game yet, nothing to open."""

    def on_release(self) -> None:
        app = App.get_running_app()
        if self.game_id and app.screen("game").open(int(self.game_id), back="records"):
            app.show("game")


class RecordsScreen(Screen):
    rows = ListProperty()
    """Each record's row (``record_data``), in the order of ``RecordKind``; empty before any finished game."""
    empty = BooleanProperty(False)
    """No finished game yet: one line says so."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._opening = False

    def open(self, table: str | None = None) -> None:
        """The league's records, or one table's (``table``), as from Players showing that table; read as the
        screen shows, not once more here."""
        choice = self.ids.table_choice
        choice.offer(league_places(App.get_running_app().store))
        self._opening = True
        choice.table = table if table in [place for place, _name in choice.places] else None
        self._opening = False

    def on_table_chosen(self) -> None:
        """The table button tapped: the records of the table now chosen (or the league's)."""
        if not self._opening:
            self.refresh()

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.store is None:
            return
        choice = self.ids.table_choice
        try:
            choice.offer(league_places(app.store))
            found = {record.kind: record for record in records(app.store, choice.table)}
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        self.empty = not found
        self.rows = [record_data(kind, found.get(kind), choice.places) for kind in RecordKind] if found else []

    def on_rows(self, *_args: object) -> None:
        box = self.ids.records
        box.clear_widgets()
        for row in self.rows:
            box.add_widget(RecordRow(**row))
