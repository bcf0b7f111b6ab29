"""The end: final scores, each seat's breakdown, and the winner or winners.

The game is already saved (every action is). "Play again" starts a new game
with the same seats and rules; undo takes the last action back and returns to
the table.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.properties import ColorProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui import theme
from companion.ui.i18n import tr
from companion.ui.view import TableView
from companion.ui.words import end_reason_text, short_name
from companion.ui.widgets import load_kv

load_kv(__file__)


class ScoreRow(BoxLayout):
    rank = StringProperty("")
    name = StringProperty("")
    colour = ColorProperty()
    won = StringProperty("")
    won_note = StringProperty("")
    trophies = StringProperty("")
    trophies_note = StringProperty("")
    hand = StringProperty("")
    hand_note = StringProperty("")
    score = StringProperty("")
    winner = ObjectProperty(False)


class EndScreen(Screen):
    view = ObjectProperty(None, allownone=True, rebind=True)

    def open(self, view: TableView) -> None:
        if self.view is not view:
            if self.view is not None:
                self.view.unbind(ended=self._reopened)
            view.bind(ended=self._reopened)
        self.view = view
        self._fill()

    def _reopened(self, _view: TableView, ended: bool) -> None:
        """Undo took the end back: the table again."""
        if not ended and self.manager is not None and self.manager.current == self.name:
            App.get_running_app().show("table")
        elif ended:
            self._fill()

    def _fill(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        view = self.view
        ranked = sorted(view.seats, key=lambda s: (s.index not in view.winners, -(s.score or 0), s.index))
        for place, seat in enumerate(ranked):
            row = ScoreRow(name=short_name(seat.name, 16), colour=seat.colour, winner=seat.index in view.winners)
            row.rank = str(place + 1)
            row.hand = str(seat.hand)
            row.hand_note = tr.ngettext("{n} card in hand", "{n} cards in hand", seat.hand).format(n=seat.hand)
            parts = seat.score_parts
            if parts is not None:  # the rules' parts: a universal card counts 5, in the won pile and in hand
                row.won = f"+{parts.won}"
                row.won_note = tr.ngettext("{n} card", "{n} cards", seat.won).format(n=seat.won)
                row.trophies = f"+{parts.trophies}" if seat.trophies else "0"
                row.trophies_note = (tr.ngettext("{n} trophy", "{n} trophies", seat.trophies).format(
                    n=seat.trophies) if seat.trophies else tr._("none"))
                row.hand = theme.signed(parts.hand)
                row.score = theme.signed(parts.total)
            rows.add_widget(row)

    def title_text(self, view: TableView | None, *_deps: Any) -> str:
        if view is None or not view.winners:
            return ""
        names = [view.seats[i].name for i in view.winners]
        if len(names) == 1:
            return tr._("{name} wins!").format(name=short_name(names[0], 16))
        return tr._("{names} share the win!").format(names=tr._(" and ").join(short_name(n, 10) for n in names))

    def reason_text(self, view: TableView | None, *_deps: Any) -> str:
        return "" if view is None else end_reason_text(view.end_reason)

    def saved_text(self, view: TableView | None, *_deps: Any) -> str:
        if view is None:
            return ""
        actions = view.actions_saved
        return tr.ngettext("Saved · {n} action", "Saved · {n} actions", actions).format(n=actions)

    def play_again(self) -> None:
        """The same seats and rules; a new first player drawn at random."""
        setup = self.view.setup
        app = App.get_running_app()
        app.start_game(replace(setup, first=random.randrange(len(setup.names))), app.seating)

    def home(self) -> None:
        App.get_running_app().show("home")
