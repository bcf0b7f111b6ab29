"""A saved game's page: the final breakdown, the score race and the timeline, in the table's words.

The rules engine replays the game once (``SavedGame.game``); the timeline and
the race come from the store's review (``companion.store.review``), so the page
shows what ``spicy-companion games show`` prints, in the chosen language.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.screenmanager import Screen

from companion.ui.widgets.mirror import Row
from companion.errors import CompanionError
from companion.rules import Challenge, EventKind, Reveal, Resolve, State
from companion.rules.state import TROPHY_POINTS
from companion.table.seating import Seating
from companion.store import SavedGame
from companion.store.review import Moment, score_race, timeline
from companion.ui import theme
from companion.ui.i18n import say, table_word, tr, when
from companion.ui.words import Sentence, card_words, claim_words, end_reason_text, sentence
from companion.ui.widgets import Icon, Label, load_kv
from companion.ui.widgets.chart import LineChart
from companion.ui.widgets.fit import fit_names
from companion.ui.widgets.keyboard import TextField  # noqa: F401  (used in the kv)
from companion.ui.widgets.play_log import show_play_log

load_kv(__file__)

__all__ = ["GameScreen", "LineChart"]


def moment_words(moment: Moment, state: State) -> Sentence:
    """One timeline line as the table says it; ``state`` names the seats (the game's last state)."""
    event, before = moment.event, moment.before
    said = {"name": state.name(event.seat)} if event.seat is not None else {}
    if event.kind == EventKind.CHALLENGE and before.window is not None:
        names = {"challenger": said.get("name", ""), "player": state.name(before.window.player)}
        claim = claim_words(before.window.claim.spice, before.window.claim.number)
        attribute = moment.move.attribute if isinstance(moment.move, Challenge) else None
        if attribute is None:  # five-spices: a challenge names nothing
            return sentence(tr._("{challenger} challenges {player}'s {claim}"), names, claim=claim)
        call = tr._('"not that spice!"') if attribute == "spice" else tr._('"not that number!"')
        return sentence(tr._("{challenger} challenges {player}'s {claim}: {call}"), names, claim=claim, call=call)
    if event.kind == EventKind.CHALLENGE_WON:
        return _how(moment, said)
    if event.kind == EventKind.STACK_WON:
        return sentence(tr.ngettext("{name} wins the stack of {n} card", "{name} wins the stack of {n} cards",
                                    event.count), said, n=event.count)
    if event.kind == EventKind.RAID:
        return sentence(tr.ngettext("{name} raids the stack of {n} card", "{name} raids the stack of {n} cards",
                                    event.count), said, n=event.count)
    if event.kind == EventKind.TROPHY:
        return sentence(tr._("{name} takes a trophy (+{points})"), said, points=TROPHY_POINTS)
    if event.kind == EventKind.LAST_CARD:
        return sentence(tr._("{name}: last card!"), said)
    if event.kind == EventKind.END:
        return sentence("{words}", {}, words=end_reason_text(state.end_reason))
    return sentence("{words}", {}, words=say(event.text))


def _how(moment: Moment, said: dict[str, str]) -> Sentence:
    """Who won the challenge, and how it was decided."""
    if isinstance(moment.move, Reveal):
        return sentence(tr._("{name} wins the challenge: the card is {card}"), said, card=card_words(moment.move.card))
    if isinstance(moment.move, Resolve):
        return sentence(tr._("{name} wins the challenge: the table says so"), said)
    if isinstance(moment.move, Challenge):
        return sentence(tr._("{name} wins the challenge: a universal card always survives"), said)
    return sentence(tr._("{name} wins the challenge"), said)


class LegendItem(Row):
    """A seat's colour in the race and its name."""

    text = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))


class MomentRow(Row):
    """One line of the timeline: the move's number, the time and what happened."""

    depth = StringProperty("")
    at = StringProperty("")
    text = StringProperty("")
    """What happened, every name whole."""
    said = ObjectProperty(Sentence("", {}))
    """The same as a ``Sentence``, whose names give way to fit the row: one property, so a row the list
    reuses never holds one line's template with another's names."""
    kind = StringProperty("")


def cell(text: str, colour: tuple[float, ...] = theme.TEXT, bold: bool = False, name: bool = False) -> Label:
    """A cell of the breakdown; a seat's name gives way from its end (``fit_names``), as everywhere, where
    Kivy's own shortening cut it in the middle ("Bar...ew")."""
    label = Label(
        text=text, color=colour, bold=bold, font_size=sp(theme.FONT_BODY), shorten=not name,
        halign="left" if name else "right", valign="middle", size_hint_y=None, height=dp(32),
    )

    def fit(widget: Label, size: tuple[float, float]) -> None:
        widget.text_size = size
        if name:
            widget.text = fit_names("{name}", {"name": text}, size[0], widget.font_size, bold=bold)

    label.bind(size=fit)
    return label


def trophies_heading() -> Icon:
    """The trophy icon heads its column: the word does not fit a narrow column in every language."""
    return Icon(source=theme.icon("trophy"), color=theme.MUTED, size_hint_y=None, height=dp(20))


class GameScreen(Screen):
    game_id = NumericProperty(0)
    title = StringProperty("")
    outcome = StringProperty("")
    unfinished = BooleanProperty(False)
    racing = BooleanProperty(False)
    """The score race shows in place of the final breakdown."""
    scored = BooleanProperty(True)
    """The rules keep a score (not five-spices): there is a race to draw."""
    legend = ListProperty()
    """(name, colour) per seat, under the race."""

    def open(self, game_id: int, back: str = "games") -> bool:
        """Read and replay the game; False (and a toast) when it cannot be read. Back goes to ``back``, the
        screen it was opened from (Saved games, or Records)."""
        app = App.get_running_app()
        try:
            saved = app.store.load(game_id)
            game = saved.game()
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return False
        state = game.state
        self.game_id = game_id
        self.ids.header.back = back
        self.unfinished = not state.ended and saved.abandoned_at is None  # an abandoned game is not resumed
        self.racing = False
        self.title = f"{table_word(state.profile.title)} · {when(saved.started_at)}"
        if state.ended:
            self.outcome = end_reason_text(state.end_reason)
        else:
            self.outcome = tr._("abandoned") if saved.abandoned_at else tr._("unfinished")
        self._breakdown(state)
        race = score_race(game)
        self.scored = bool(race)
        seating = app.store.seating(game_id)  # the colours the table saw; seat order for a game saved without
        picked = seating.colours if seating is not None else range(len(state.seats))
        colours = [theme.SEAT_COLOURS[c % len(theme.SEAT_COLOURS)] for c in picked]
        self.ids.race.series = [(colour, [scores[i] for scores in race]) for i, colour in enumerate(colours)]
        self.legend = [(seat.name, colour) for seat, colour in zip(state.seats, colours, strict=True)]
        self.ids.note.text = saved.note or ""
        self.ids.timeline.data = [
            {"depth": str(m.depth), "at": m.at[11:16], "text": said.text, "said": said,
             "kind": str(m.event.kind)}
            for m in timeline(saved, game) for said in (moment_words(m, state),)
        ]
        for scrolled in (self.ids.timeline, self.ids.final_scroll):
            scrolled.scroll_y = 1  # another game's page starts at its top, not where the last was left
        Clock.schedule_once(lambda _dt: self._replay_ahead(saved, seating))  # once the page is drawn
        return True

    def _replay_ahead(self, saved: SavedGame, seating: Seating | None) -> None:
        """The replay's screen made ready for this game while the page is read, unless the app has stopped."""
        app = App.get_running_app()
        if app is not None and app.root is self.manager:
            app.screen("replay").prepare(saved, seating)

    def _breakdown(self, state: State) -> None:
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

    def on_legend(self, _screen: GameScreen, legend: list[Any]) -> None:
        box = self.ids.legend
        box.clear_widgets()
        for name, colour in legend:
            box.add_widget(LegendItem(text=name, colour=colour))

    def keep_note(self) -> None:
        """Save the note as typed; the list's row shows it from now on. The keys go: the note is done."""
        app = App.get_running_app()
        self.ids.note.focus = False
        try:
            kept = app.store.set_note(int(self.game_id), self.ids.note.text)
        except CompanionError as exc:
            app.notify(say(exc.reason))
            return
        self.ids.note.text = kept or ""
        app.notify(tr._("Note saved") if kept else tr._("Note taken away"), good=True)

    def resume(self) -> None:
        App.get_running_app().resume_game(int(self.game_id))

    def replay(self) -> None:
        """The game on the table, read-only, from its deal (a toast instead when its log no longer replays)."""
        app = App.get_running_app()
        if app.screen("replay").open(int(self.game_id)):
            app.show("replay")

    def log_play(self) -> None:
        show_play_log(self, int(self.game_id))

    def take_home(self) -> None:
        """The take-home screen, its Export for this game only."""
        app = App.get_running_app()
        app.screen("takehome").only = int(self.game_id)
        app.show("takehome")
