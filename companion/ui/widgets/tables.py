"""Club night on the review screens: which table a game was at, and a button to show one table's games.

A store that holds one table's games (no league, or nothing taken in yet) gets
none of it: the button takes no room and no game names its table, so a single
table's screens stay as they were.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty

from companion.store.db import Store
from companion.store.review import HERE, tables
from companion.ui.i18n import tr
from companion.ui.widgets.fit import needed_width, short
from companion.ui.widgets.forms import ChoiceButton


def league_places(store: Store | None) -> list[tuple[str, str]]:
    """(id, name) of each table with games in the store, this one first; empty for a single table's store."""
    found = tables(store) if store is not None else []
    if len(found) < 2:
        return []
    return [(place.id, place.name or tr._("This table")) for place in found]


def place_name(places: list[tuple[str, str]], table: str) -> str:
    """The name of the table a game was at, for a league's screens; empty when there is one table."""
    return next((name for table_id, name in places if table_id == table), "") if places else ""


class TableChoice(ChoiceButton):
    """All the league's games, or one table's: each tap shows the next table's, then all again."""

    places = ListProperty()
    """(id, name) per table (``league_places``); fewer than two: the button is hidden."""
    table = ObjectProperty(None, allownone=True)
    """The table shown (``HERE``: this one), or None for the whole league."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size_hint_x = None
        self.bind(places=self._shown, table=self._shown)
        self._shown()

    def on_release(self) -> None:
        ids = [None, *(table_id for table_id, _name in self.places)]
        self.table = ids[(ids.index(self.table) + 1) % len(ids)] if self.table in ids else None

    def offer(self, places: list[tuple[str, str]]) -> None:
        """The tables to choose from, as the store has them now (set only when they change: no refresh loop),
        its words again in the language chosen meanwhile."""
        if [tuple(place) for place in self.places] != places:
            self.places = places
        else:
            self._shown()

    def _shown(self, *_args: object) -> None:
        if self.table is not None and self.table not in [table_id for table_id, _ in self.places]:
            self.table = None  # that table's games are gone (a file restored): the league again
            return
        self.selected = self.table is not None
        self.text = short(place_name(self.places, self.table)) if self.table is not None else tr._("All tables")
        shown = len(self.places) > 1
        self.opacity, self.disabled = (1, False) if shown else (0, True)
        self.width = max(dp(150), needed_width(self, self.font_size)) if shown else 0


__all__ = ["HERE", "TableChoice", "league_places", "place_name"]
