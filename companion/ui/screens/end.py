"""The end: final scores, each seat's breakdown, and the winner or winners.

The game is already saved (every action is). "Play again" starts a new game
with the same seats and rules; undo takes the last action back and returns to
the table. Each acts only while this game is still ended when the press is let
go, so two fingers at once never do both.

The screen is built while the game is played (``prepare``: its rows, their
outlines' textures, their fonts), so the end of a game only changes the rows'
texts (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Fbo
from kivy.lang import Builder
from kivy.properties import ColorProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.widgets.mirror import Row
from companion.ui import theme
from companion.ui.i18n import tr
from companion.table.model import SeatModel
from companion.ui.view import SeatView, TableView
from companion.ui.words import Sentence, end_reason_text, length_words, winner_words
from companion.ui.widgets import load_kv
from companion.ui.widgets.play_log import show_play_log

load_kv(__file__)


class ScoreRow(Row):
    rank = StringProperty("")
    name = StringProperty("")
    colour = ColorProperty()
    won = StringProperty("")
    won_note = StringProperty("")
    trophies = StringProperty("")
    trophies_note = StringProperty("")
    hand = StringProperty("")
    hand_note = StringProperty("")
    universals = StringProperty("")
    """Sweet & Spicy: the universal cards' ±5 each, won and in hand; "" in the other games."""
    universals_note = StringProperty("")
    score = StringProperty("")
    winner = ObjectProperty(False)


class EndScreen(Screen):
    view = ObjectProperty(None, allownone=True, rebind=True)

    def on_pre_enter(self, *_args: object) -> None:
        """Clearing the window to the felt's edge draws the screen's background for next to nothing: a
        rectangle over the whole window would be filled again every frame."""
        Window.clearcolor = theme.FELT_EDGE

    def prepare(self, view: TableView) -> None:
        """Ahead of the end: one row a seat, each laid out and drawn once as a winner's and once not, so
        that the outlines' textures and the labels' fonts exist when the game ends (kv draws a look on the
        next frame: ``Builder.sync`` draws each now); then, on the next frame, the screen drawn once off
        screen, so that its canvas is ready (as the table's sheets are, ``TableScreen.prepare``). A game that
        ended before this (a short one) has its rows filled and shown already: they are left as they are."""
        if view.ended:
            return
        if self.manager is not None:
            self.manager.fit(self)
        self._watch(view)
        rows = self._rows(len(view.seats))
        self._fill()  # the standings of now: names and numbers in the fonts the end draws them in
        for winner in (True, False):
            for row in rows:
                row.winner = winner
                row.do_layout()
            Builder.sync()
        Clock.schedule_once(self._draw_ahead)

    def _draw_ahead(self, _dt: float) -> None:
        if self.parent is None:
            fbo = Fbo(size=(1, 1))
            fbo.add(self.canvas)
            fbo.draw()
            fbo.remove(self.canvas)

    def open(self, view: TableView) -> None:
        self._watch(view)
        self._fill()

    def _watch(self, view: TableView) -> None:
        if self.view is not view:
            if self.view is not None:
                self.view.unbind(ended=self._reopened)
            view.bind(ended=self._reopened)
        self.view = view

    def _reopened(self, _view: TableView, ended: bool) -> None:
        """Undo took the end back: the table again; redo brings it back (the table opens it)."""
        if not ended and self.manager is not None and self.manager.current == self.name:
            App.get_running_app().show("table")

    def _rows(self, count: int) -> list[ScoreRow]:
        """``count`` rows, the ones there reused: at the end, only their texts change."""
        grid = self.ids.rows
        while len(grid.children) > count:
            grid.remove_widget(grid.children[0])
        while len(grid.children) < count:
            grid.add_widget(ScoreRow(), index=len(grid.children))
        return list(reversed(grid.children))

    def _fill(self) -> None:
        """One row a seat, in the rules' places: equal scores share one, and the winners are lit."""
        view = self.view
        # the model, not the seats' properties: the end shows as ``ended`` is copied, before the seats are
        seats = sorted(zip(view.seats, view.model.seat_models, strict=True), key=lambda s: (s[1].place, s[0].index))
        for row, (seat, facts) in zip(self._rows(len(seats)), seats, strict=True):
            _fill_row(row, seat, facts, view.has_universals)

    def title_text(self, view: TableView | None, *_deps: Any) -> Sentence:
        if view is None or not view.winners:
            return Sentence("", {})
        return winner_words([view.seats[i].name for i in view.winners])

    def reason_text(self, view: TableView | None, *_deps: Any) -> str:
        return "" if view is None else end_reason_text(view.end_reason)

    def saved_text(self, view: TableView | None, *_deps: Any) -> str:
        if view is None:
            return ""
        actions = view.actions_saved
        saved = tr.ngettext("Saved · {n} action", "Saved · {n} actions", actions).format(n=actions)
        return f"{length_words(view.session.length())}\n{saved}"

    def _still_ended(self) -> bool:
        """A press acts on the game as it is when it is let go: while one finger held it, another may have
        taken the end back (Undo) or started the next game (Play again), and this screen is no longer that
        game's end."""
        view = self.view
        return view is not None and view.ended and view.session is App.get_running_app().session

    def play_again(self) -> None:
        """The same seats and rules; a new first player drawn at random. A database that cannot save
        (busy, full, read-only) gets a toast from the app, and the end screen stays."""
        if not self._still_ended():
            return
        setup = self.view.setup
        app = App.get_running_app()
        app.start_game(replace(setup, first=random.randrange(len(setup.names))), app.seating)

    def undo(self) -> None:
        """Take the end back, and the table again (``_reopened``)."""
        if self._still_ended():
            self.view.undo()

    def log_play(self) -> None:
        """The play as BG Stats' link, in a QR code over this screen."""
        show_play_log(self, App.get_running_app().session.game_id)

    def home(self) -> None:
        App.get_running_app().show("home")


def _fill_row(row: ScoreRow, seat: SeatView, facts: SeatModel, universals: bool) -> None:
    """A seat's final score by its parts (the rules' ``ScoreParts``), each with what it counts."""
    row.name, row.colour, row.winner = seat.name, seat.colour, facts.winner
    row.rank = str(facts.place) if facts.place else ""
    row.won = row.won_note = row.trophies = row.trophies_note = row.score = ""
    row.universals = row.universals_note = ""
    spice_in_hand = facts.hand - facts.universals
    row.hand = str(facts.hand)
    row.hand_note = tr.ngettext("{n} card in hand", "{n} cards in hand", spice_in_hand).format(n=spice_in_hand)
    parts = facts.score_parts
    if parts is None:  # five-spices: no scores, only the cards left
        return
    won = facts.won - facts.won_universals
    row.won = f"+{parts.won}"
    row.won_note = tr.ngettext("{n} card", "{n} cards", won).format(n=won)
    row.trophies = f"+{parts.trophies}" if facts.trophies else "0"
    row.trophies_note = (tr.ngettext("{n} trophy", "{n} trophies", facts.trophies).format(n=facts.trophies)
                         if facts.trophies else tr._("none"))
    row.hand = theme.signed(parts.hand)
    if universals:
        row.universals = f"+{parts.universals}" if parts.universals > 0 else theme.signed(parts.universals)
        row.universals_note = tr._("{won} won, {held} held").format(won=facts.won_universals,
                                                                       held=facts.universals)
    row.score = theme.signed(parts.total)
