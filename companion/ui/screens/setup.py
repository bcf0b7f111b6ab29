"""Set-up, in five steps: rules, seats, buzzers, first player, and the table's own set-up.

The screen shows a :class:`~companion.ui.draft.Draft` and turns taps into
calls on it; nothing is saved until "Start the game", which hands the rules'
``Setup`` and the ``Seating`` (colours, buzzers) to ``app.start_game``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.rules import Setup
from companion.rules.variants import VARIANTS
from companion.table.seating import Seating
from companion.ui.bidi import named
from companion.ui.draft import Draft, SetupRefused
from companion.ui.i18n import tr
from companion.ui.sounds import buzz
from companion.ui.threads import after_drawn, mainthread_now
from companion.ui.widgets import load_kv, short
from companion.ui.widgets.keyboard import FieldButton, TextField  # noqa: F401  (used in the kv)

load_kv(__file__)

STEPS = ("rules", "seats", "buzzers", "first", "table")
REGULARS = 12
"""Saved players offered as chips, most recent first."""
DRAW_TICKS = 14
"""How many seats the random draw lights on its way to the one it landed on."""


def step_title(step: str) -> str:
    return {
        "rules": tr._("Rules"),
        "seats": tr._("Seats"),
        "buzzers": tr._("Buzzers"),
        "first": tr._("First player"),
        "table": tr._("On the table"),
    }[step]


def profile_line(profile_id: str) -> str:
    return {
        "spicy": tr._("Chili, wasabi and pepper, 1 to 10; wild cards, 3 trophies, the World's End card"),
        "sweet-spicy": tr._("Lemon for wasabi, and universal cards that always win a challenge"),
        "five-spices": tr._("Five spices, no numbers: only the next seat may challenge; an empty hand wins"),
    }[profile_id]


def made(kind: str, on_release: Callable[[Any], None] | None = None, **props: Any) -> Any:
    """A widget of a kv-only class with these properties (kv classes take none in their constructor)."""
    widget = Factory.get(kind)()
    for name, value in props.items():
        setattr(widget, name, value)
    if on_release is not None:
        widget.bind(on_release=on_release)
    return widget


class SetupScreen(Screen):
    draft = ObjectProperty(Draft(), rebind=True)
    step = StringProperty("rules")
    changed = NumericProperty(0)
    """Bumped after every change to the draft, so kv rules that read the draft run again."""
    drawing = BooleanProperty(False)
    """The first-player draw is animating: taps on seats wait for it."""
    starting = BooleanProperty(False)
    """"Start the game" was tapped: the button says so in the frame of the tap, and the game starts on
    the next one (building its table takes longer than a frame). It stays set once the game has
    started, so a second tap on the way out starts nothing; set-up clears it when entered again."""
    title = StringProperty("")
    progress = StringProperty("")
    profile_line = StringProperty("")
    deal_line = StringProperty("")
    end_card = NumericProperty(0)
    end_card_line = StringProperty("")
    first_line = StringProperty("")
    shows_trophies = BooleanProperty(True)
    shows_end_card = BooleanProperty(True)
    """What the table puts out before the first card, by the rules chosen: the five-spice game has neither."""
    regulars = ListProperty([])
    """The saved players' chips, read once as the seats step opens, so no chip moves under a finger."""
    after_draw = BooleanProperty(False)
    """Next was tapped during the draw: the step moves on when it lands."""
    rng: random.Random = random.SystemRandom()
    again: Draft | None = None
    """The draft to open with instead of a new one (Home's "Same table as last time")."""

    def on_pre_enter(self, *_args: object) -> None:
        self.starting = False
        again, self.again = self.again, None
        self.draft = again or Draft()
        self.go("table" if again else "rules")

    def same_table(self, setup: Setup, seating: Seating) -> None:
        """Open on the last step with the table of a game before, ready for Start."""
        self.again = Draft.again(setup, seating, self.rng)
        App.get_running_app().show("setup")

    def on_leave(self, *_args: object) -> None:
        App.get_running_app().listen(None)
        self.ids.new_name.focus = False  # the on-screen keyboard goes with the screen

    # --- moving between steps ----------------------------------------------------------------

    def go(self, step: str) -> None:
        app = App.get_running_app()
        app.listen(self._pressed if step == "buzzers" else None)
        if step == "seats":
            store = app.store
            self.regulars = (store.recent_players() if store else [])[:REGULARS]
        self.step = step
        self.ids.steps.current = step
        self.refresh()
        if step == "table":
            after_drawn(self._table_ahead)

    def _table_ahead(self) -> None:
        """The table is built for this set-up while the table deals (``TableScreen.ahead``)."""
        if self.step != "table" or self.starting:
            return
        try:
            setup, seating = self._table()
        except SetupRefused:
            return  # Start will say why
        App.get_running_app().screen("table").ahead(setup, seating)

    def next(self) -> None:
        index = STEPS.index(self.step)
        if self.step == "seats" and len(self.draft.names) < 2:
            self.refuse(tr._("Two seats at least"))
            return
        if self.step == "first" and self.drawing:
            self.after_draw = True
            return
        if self.step == "first" and self.draft.first is None:
            self.refuse(tr._("Choose who plays first, or draw"))
            return
        if self.step == "table":
            if not self.starting:
                self.starting = True
                after_drawn(self.start)
            return
        self.go(STEPS[index + 1])

    def back(self) -> None:
        index = STEPS.index(self.step)
        if index == 0:
            App.get_running_app().show("home")
        else:
            self.go(STEPS[index - 1])

    def refuse(self, reason: str) -> None:
        App.get_running_app().notify(reason)

    def change(self, method: str, *args: Any) -> None:
        """Call a draft method; a refusal is a toast and the draft stays as it was."""
        try:
            getattr(self.draft, method)(*args)
        except SetupRefused as exc:
            self.refuse(exc.words)
        self.refresh()

    # --- what each step shows ----------------------------------------------------------------

    def refresh(self) -> None:
        draft = self.draft
        self.title = tr._("New game: {step}").format(step=step_title(self.step))
        self.progress = tr._("Step {n} of {total}").format(n=STEPS.index(self.step) + 1, total=len(STEPS))
        self.profile_line = profile_line(draft.profile.id)
        hand = draft.profile.hand_size
        if draft.profile.universals:
            self.deal_line = tr._("Deal {n} cards to each seat, and 1 universal card each").format(n=hand)
        elif draft.profile.end_card:
            self.deal_line = tr._("Deal {n} cards to each seat").format(n=hand)
        else:
            self.deal_line = tr._("Deal {n} cards to each seat, and turn one card up to start the pile").format(n=hand)
        self.shows_trophies = draft.profile.trophies > 0 and draft.profile.numbered
        self.shows_end_card = draft.profile.end_card
        self.end_card = draft.end_card_value()
        default = draft.profile.default_end_card(len(draft.names))
        self.end_card_line = tr._("about a third from the bottom (usual: {n})").format(n=default)
        if draft.first is not None and draft.first < len(draft.names):
            self.first_line = named(tr._("{name} plays first"), {"name": draft.names[draft.first]})
        self.changed += 1
        builders = {"rules": self._rules, "seats": self._seats, "buzzers": self._buzzers, "first": self._first}
        if self.step in builders:
            builders[self.step]()

    def _rules(self) -> None:
        grid = self.ids.variants
        grid.clear_widgets()
        for variant, card in VARIANTS.items():
            line = tr._(card.line)
            grid.add_widget(
                made("VariantRow",
                    variant=variant,
                    title=tr._(card.name),
                    line=tr._("Reading: {rule}").format(rule=line) if card.reading else line,
                    selected=variant in self.draft.variants,
                    dimmed=not self.draft.profile.numbered,
                    screen=self,
                )
            )

    def _seats(self) -> None:
        rows = self.ids.seat_rows
        rows.clear_widgets()
        for seat, name in enumerate(self.draft.names):
            rows.add_widget(made("SeatRow", seat=seat, name=name, colour=self.draft.colours[seat], screen=self))
        players = self.ids.players
        players.clear_widgets()
        for name in self.regulars:
            players.add_widget(
                made("PlayerChip", text=short(name), player=name, selected=name in self.draft.names,
                     on_release=lambda chip: self.toggle_player(chip.player))
            )
        self.ids.no_players.opacity = 0 if self.regulars else 1

    def _buzzers(self) -> None:
        rows = self.ids.buzzer_rows
        rows.clear_widgets()
        waiting = self.draft.unbound_seat()
        for seat, name in enumerate(self.draft.names):
            buzzer = self.draft.buzzers[seat]
            status = (
                tr._("buzzer {number}").format(number=buzzer + 1)
                if buzzer is not None
                else tr._("press your buzzer now") if seat == waiting else tr._("waiting")
            )
            rows.add_widget(
                made("BuzzerRow",
                    name=name, colour=self.draft.colours[seat], status=status, waiting=seat == waiting,
                    bound=buzzer is not None,
                )
            )

    def _first(self) -> None:
        grid = self.ids.first_seats
        grid.clear_widgets()
        for seat, name in enumerate(self.draft.names):
            grid.add_widget(
                made("FirstChoice",
                    seat=seat, text=short(name), colour=self.draft.colours[seat], selected=seat == self.draft.first,
                    on_release=lambda choice: self.choose_first(choice.seat),
                )
            )

    # --- seats -------------------------------------------------------------------------------

    def add(self, name: str) -> None:
        before = len(self.draft.names)
        self.change("add_seat", name)
        if len(self.draft.names) > before:
            self.ids.new_name.text = ""

    def toggle_player(self, name: str) -> None:
        """A saved player's chip seats them, or takes their seat back; the chips stay where they are."""
        if name in self.draft.names:
            self.change("remove_seat", self.draft.names.index(name))
        else:
            self.change("add_seat", name)

    # --- buzzers -----------------------------------------------------------------------------

    def _pressed(self, buzzer: int, _edge_time: float) -> None:
        self.bind_buzzer(buzzer)

    @mainthread_now
    def bind_buzzer(self, buzzer: int) -> None:
        """The press goes to the next seat still waiting (``Draft.press_buzzer``)."""
        seat = self.draft.press_buzzer(buzzer) if self.step == "buzzers" else None
        if seat is None:
            return
        app = App.get_running_app()
        app.play_sound(buzz(self.draft.colours[seat]))  # the seat's own, as its slaps will sound in the game
        if app.referee is not None:
            app.referee.light([buzzer])
        self.refresh()

    def clear_buzzers(self) -> None:
        self.draft.buzzers = [None] * len(self.draft.names)
        self.refresh()

    # --- the first player --------------------------------------------------------------------

    def choose_first(self, seat: int) -> None:
        if self.drawing:
            return
        self.draft.first = seat
        self.refresh()

    def draw_first(self) -> None:
        """Light the seats in turn, slowing down, and stop on the one drawn."""
        if self.drawing:
            return
        seats = len(self.draft.names)
        drawn = self.draft.draw_first(self.rng)
        self.draft.first = None
        self.drawing = True
        self.after_draw = False
        ticks = DRAW_TICKS + (drawn - DRAW_TICKS) % seats  # the last tick lands on the drawn seat

        def tick(n: int) -> None:
            seat = n % seats
            for choice in self.ids.first_seats.children:
                choice.selected = choice.seat == seat
            if n < ticks:
                Clock.schedule_once(lambda _dt: tick(n + 1), 0.04 + 0.012 * n)
            else:
                self.drawing = False
                self.draft.first = drawn
                App.get_running_app().play_sound("decision")
                self.refresh()
                if self.after_draw and self.step == "first":
                    self.after_draw = False
                    self.next()

        tick(0)

    # --- the table's own set-up, then start --------------------------------------------------

    def _table(self) -> tuple[Setup, Seating]:
        """The rules' set-up and the seating of the draft; SetupRefused when it cannot start."""
        buzzers = App.get_running_app().buzzers
        return self.draft.setup(), self.draft.seating(buzzers.seats if buzzers is not None else 0)

    def start(self) -> None:
        try:
            setup, seating = self._table()
        except SetupRefused as exc:
            self.starting = False
            self.refuse(exc.words)
            return
        if not App.get_running_app().start_game(setup, seating):  # the app has said why the store could not save it
            self.starting = False
