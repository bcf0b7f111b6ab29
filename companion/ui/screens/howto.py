""""How to play": a rules card for newcomers, a page for each rules profile, from Home or the table's menu.

Opened at the table it starts on the game's own page, with the situation now on top ("Chili 7 on the stack:
say Chili 8, 9 or 10, or pass") and the game's variant cards; Back shows the table again as it was, which
stayed in the session all along. The rows are ``companion.ui.rules_card``'s; this screen only draws them.
"""

from __future__ import annotations

from typing import Any
from weakref import proxy

from kivy.factory import Factory
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.rules import PROFILES, State
from companion.ui.i18n import tr
from companion.ui.rules_card import Row, opening, page
from companion.ui.widgets import load_kv

load_kv(__file__)


class HowtoRow(BoxLayout):
    """One row of a page: its picture (a stack card or icons) and its title over its lines."""

    row = ObjectProperty(None, rebind=True)

    def on_row(self, _row: HowtoRow, row: Row) -> None:
        words = self.ids.words
        words.clear_widgets()
        words.add_widget(Factory.HowtoTitle(text=row.title))
        for line in row.lines:
            words.add_widget(Factory.HowtoLine(text=line.text))


class HowtoScreen(Screen):
    profile = StringProperty("spicy")
    """The page shown: a rules profile's id."""
    back = StringProperty("home")
    """Where Back goes: home, or the table it was opened from."""
    rows = ListProperty()
    """The page's ``rules_card.Row``s, as drawn."""
    game = ObjectProperty(None, allownone=True)
    """The game at hand's state when opened at the table, else None."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        tr.fbind("_", _word_again, proxy(self))

    def open(self, back: str, game: State | None = None) -> None:
        """Ready to show, from ``back``: on the game's page when there is a game at hand, else Spicy's."""
        self.back, self.game = back, game
        self.turn_to(opening(game))

    def turn_to(self, profile: str) -> None:
        self.profile = profile
        self._draw()

    def _draw(self, *_args: Any) -> None:
        self.rows = page(PROFILES[self.profile], self.game)
        box = self.ids.rows
        box.clear_widgets()
        for row in self.rows:
            box.add_widget(_made(row))
        self.ids.scroll.scroll_y = 1


def _word_again(screen: HowtoScreen, *_args: Any) -> None:
    """A language switch words the page again while it shows. A page not showing waits: ``open`` draws it, and
    redrawing its rows (their icons and cards) at every switch made each language button in Settings slow
    once the page had opened."""
    if screen.manager is not None and screen.manager.current == screen.name:
        screen._draw()


def _made(row: Row) -> HowtoRow:
    made: HowtoRow = Factory.HowtoRow()
    made.row = row  # after its kv rule: the row fills its words box
    return made
