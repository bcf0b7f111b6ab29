"""Saved games: newest first; a tap shows that game's summary (and resumes it if unfinished).

A simple list on purpose: the review of a game, move by move, is its own screen later.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.store import GameSummary
from companion.ui import theme
from companion.ui.i18n import say, table_word, tr
from companion.ui.words import end_reason_text
from companion.ui.widgets import Icon, load_kv, short
from companion.ui.widgets.play_log import show_play_log

load_kv(__file__)

LIMIT = 100
"""Rows in the list; older games stay in the database and in ``spicy-companion games``."""


def when(stamp: str) -> str:
    """``2026-11-30T20:14:03.000+00:00`` as ``2026-11-30 20:14``."""
    return stamp[:16].replace("T", " ")


def result_text(game: GameSummary) -> str:
    if game.ended_at is None:
        return tr._("unfinished")
    return tr._("{winners} won").format(winners=" & ".join(short(name, 12) for name in game.winners))


class GameRow(ButtonBehavior, BoxLayout):
    """One saved game: when and how it ended on the first line, who sat down on the second."""

    game_id = NumericProperty(0)
    title = StringProperty("")
    names = StringProperty("")


def cell(text: str, colour: tuple[float, ...] = theme.TEXT, bold: bool = False, name: bool = False) -> Label:
    label = Label(
        text=text, color=colour, bold=bold, font_size=sp(theme.FONT_BODY), shorten=True,
        halign="left" if name else "right", valign="middle", size_hint_y=None, height=dp(32),
    )
    label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
    return label


def trophies_heading() -> Icon:
    """The trophy icon heads its column: the word does not fit a narrow column in every language."""
    return Icon(source=theme.icon("trophy"), color=theme.MUTED, size_hint_y=None, height=dp(20))


class GamesScreen(Screen):
    chosen = NumericProperty(0)
    """The game whose summary shows; 0 for none."""
    title = StringProperty("")
    outcome = StringProperty("")
    unfinished = BooleanProperty(False)

    def on_pre_enter(self, *_args: object) -> None:
        self.chosen = 0
        self.title = ""
        self.unfinished = False
        self.ids.summary.clear_widgets()
        box = self.ids.rows
        box.clear_widgets()
        store = App.get_running_app().store
        games = store.list_games(limit=LIMIT) if store is not None else []
        for game in games:
            row = GameRow(
                game_id=game.id, title=f"{when(game.started_at)} · {result_text(game)}", names=", ".join(game.names)
            )
            row.bind(on_release=lambda row: self.show(row.game_id))
            box.add_widget(row)
        self.ids.empty.opacity = 0 if games else 1

    def show(self, game_id: int) -> None:
        app = App.get_running_app()
        try:
            saved = app.store.load(game_id)
            state = saved.game().state
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        self.chosen = game_id
        self.unfinished = not state.ended
        self.title = f"{table_word(state.profile.title)} · {when(saved.started_at)}"
        self.outcome = end_reason_text(state.end_reason) if state.ended else tr._("unfinished")
        grid = self.ids.summary
        grid.clear_widgets()
        for heading in (tr._("Seat"), tr._("Hand"), tr._("Won"), "", tr._("Score")):
            label = cell(heading.upper(), theme.MUTED, bold=True, name=heading == tr._("Seat"))
            label.font_size = sp(theme.FONT_CAPTION)
            grid.add_widget(label if heading else trophies_heading())
        for i, seat in enumerate(state.seats):
            score = state.score(i)
            winner = i in state.winners
            grid.add_widget(cell(seat.name, theme.TROPHY if winner else theme.TEXT, bold=winner, name=True))
            for number in (seat.hand, seat.won, seat.trophies):
                grid.add_widget(cell(str(number), theme.TEXT_2))
            grid.add_widget(cell("" if score is None else theme.signed(score), bold=True))

    def log_play(self) -> None:
        show_play_log(self, self.chosen)

    def take_home(self) -> None:
        """The take-home screen, its Export for this game only."""
        app = App.get_running_app()
        app.screen("takehome").only = self.chosen
        app.show("takehome")

    def resume(self) -> None:
        App.get_running_app().resume_game(self.chosen)
