"""A saved game replayed on the real table, read-only: step back and forward, jump from challenge to challenge.

The game's page opens it. The replay (``companion.table.replay.Replay``) makes each
step's state as it is shown, from the store's snapshots; the table here is a
second ``TableScreen`` in its read-only mode, drawing the table model of the
step shown, so nothing of the running game (its table, its session, the
buzzers) is touched and nothing is saved. The replay's controls take the place
of Undo, Redo and the menu: standing, in the table's top bar; lying flat, in a
strip along the bottom edge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.table.replay import Replay
from companion.table.seating import Seating
from companion.store import SavedGame, SavedLog
from companion.ui import theme
from companion.ui.i18n import say, tr
from companion.ui.screens.game import moment_words
from companion.ui.screens.table import TableScreen, direction_words
from companion.ui.view import TableView
from companion.ui.words import Sentence, sentence
from companion.ui.widgets import load_kv
from companion.ui.widgets.mirror import mirrored

load_kv(__file__)

__all__ = ["ReplayScreen", "ReplayView"]


def cannot_replay(error: CompanionError) -> str:
    """One line, the same whether the log stops replaying at the opening or at a step."""
    return tr._("This game cannot be replayed: {reason}").format(reason=say(error.reason))


class ReplayView(TableView):
    """The table view over a ``Replay``: it moves along the game and refuses whatever would change it."""

    position = NumericProperty(0)
    """How many standing moves the table shows (0: the deal)."""
    last = NumericProperty(0)
    has_previous_challenge = BooleanProperty(False)
    has_next_challenge = BooleanProperty(False)

    def __init__(self, replay: Replay) -> None:
        """No referee: a replay arms no buzzer."""
        self.replay = replay
        super().__init__(replay)
        self.last = replay.last
        self._moved()

    def go(self, position: int) -> None:
        """One line, and the table as it was, when the log no longer replays there."""
        try:
            self.replay.go(position)
        except CompanionError as exc:
            self.dispatch("on_notice", cannot_replay(exc))
            return
        self._refresh()
        self._moved()

    def forward(self) -> None:
        self.go(self.replay.position + 1)

    def back(self) -> None:
        self.go(self.replay.position - 1)

    def next_challenge(self) -> None:
        found = self.replay.next_challenge()
        if found is None:
            self.dispatch("on_notice", tr._("No challenge after this"))
        else:
            self.go(found)

    def previous_challenge(self) -> None:
        found = self.replay.previous_challenge()
        if found is None:
            self.dispatch("on_notice", tr._("No challenge before this"))
        else:
            self.go(found)

    def _refresh(self, moved: bool = False) -> None:
        """The table's model, but no ring says a buzzer is live: on a replay none is (the seat whose card
        is on top still shows it, and a challenger still shows as one)."""
        super()._refresh(moved)
        for seat in self.seats:
            seat.armed = False

    def press(self, seat: int) -> bool:
        """A replay takes no challenge (its table takes no tap, its buzzers are not armed)."""
        return False

    def step_words(self, position: int, *_deps: Any) -> Sentence:
        """What the move at ``position`` did, as the game's timeline says it; for a plain play or pass,
        the direction of play when a card can turn it (the table's title says it, which a replay hides).
        A sentence, so its names give way to fit the bar (``fit_names``)."""
        names = self.replay.state
        said = {f"moment{index}": moment_words(moment, names).text
                for index, moment in enumerate(self.replay.moments(position))}
        if not said:
            return Sentence(direction_words(self.direction) if self.direction else "", {})
        return sentence("  ·  ".join("{" + field + "}" for field in said), {}, **said)

    def _moved(self) -> None:
        replay = self.replay
        self.position = replay.position
        self.has_previous_challenge = replay.previous_challenge() is not None
        self.has_next_challenge = replay.next_challenge() is not None


class ReplayScreen(Screen):
    view = ObjectProperty(None, allownone=True, rebind=True)
    over_table = BooleanProperty(False)
    """Standing (and in portrait), the controls sit where the table's Undo, Redo and menu were (its layout
    keeps that bar clear); lying flat, in a strip under the table, facing the bottom edge as sheets do."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = TableScreen(name="replay-table", size_hint=(None, None), replaying=True)
        """Made here, not in the kv: a table screen's own rule must have run when it is made."""
        self.add_widget(self.table, index=len(self.children))  # under the controls
        self.bind(size=self._fit)
        self.table.ids.undo.bind(pos=self._fit)

    def _fit(self, *_args: Any) -> None:
        w, h = self.size
        table, controls, undo = self.table, self.ids.controls, self.table.ids.undo
        self.over_table = w < h or not App.get_running_app().face_seats  # as the table lies flat only landscape
        if self.over_table:
            table.pos, table.size = (0, 0), (w, h)
            if mirrored():  # undo stands at the right: the controls run from it to the left edge
                controls.pos, controls.size = (dp(theme.MARGIN), undo.y), (undo.right - dp(theme.MARGIN), undo.height)
            else:
                controls.pos, controls.size = undo.pos, (w - undo.x - dp(theme.MARGIN), undo.height)
        else:
            strip = dp(72)
            controls.pos, controls.size = (0, 0), (w, strip)
            table.pos, table.size = (0, strip), (w, h - strip)

    def prepare(self, saved: SavedGame, seating: Seating | None) -> None:
        """While a game's page is read, ahead of its Replay button, one step a frame from the next (this
        screen may have been made in this one): each seat's panel, then the table laid out on the game's deal
        at the window's size, its claim pad's keys made. The tap then reads the log and changes only what
        differs (docs/PERFORMANCE.md)."""
        seats = len(saved.setup.names)
        deal = SavedLog(saved.id, saved.setup, saved.started_at, (), (), ())
        self._ahead([
            *[lambda: self.table.make_panel(seats)] * seats,
            lambda: self._show(Replay(deal, seating)) if self.manager.current != self.name else None,
        ])

    def _ahead(self, steps: list[Callable[[], object]]) -> None:
        def step(_dt: float) -> None:
            app = App.get_running_app()
            if app is not None and app.root is self.manager:  # not once its app has stopped
                steps[0]()
                self._ahead(steps[1:])

        if steps:
            Clock.schedule_once(step)

    def open(self, game_id: int) -> bool:
        """Replay the saved game from its deal; False, and one line saying why, when its log no longer replays."""
        app = App.get_running_app()
        try:
            replay = Replay(app.store.load_log(game_id), app.store.seating(game_id))
        except CompanionError as exc:
            app.notify(cannot_replay(exc))
            return False
        self._show(replay)
        return True

    def _show(self, replay: Replay) -> None:
        self.size = self.manager.size  # ahead of being shown too
        self.view = ReplayView(replay)
        self.table.replay(self.view)
        self._fit()  # the controls' place follows the setting, lying flat or standing

    def position_text(self, view: ReplayView | None, *_deps: Any) -> str:
        if view is None:
            return ""
        return tr._("action {n} of {total}").format(n=view.position, total=view.last)

    def close(self) -> None:
        App.get_running_app().show("game")

    def on_pre_enter(self) -> None:
        """As on the table: the window clears to the felt's centre, and the table draws its corners."""
        Window.clearcolor = theme.FELT_CENTRE

    def on_pre_leave(self) -> None:
        Window.clearcolor = theme.FELT_EDGE
