"""The live table as the screens see it: one observable object over the session.

Screens bind to the Kivy properties here and call its methods; nothing else in
the UI reads the engine's state. The facts come from one frozen value,
``companion.table.model.table_model(game, buzz)``, computed by the rules: this
object only copies its fields into properties of the same names, says the hint
and the result in words (``companion.ui.words``), and turns taps, long presses
and buzzer presses into actions.

Buzzers: when a card is played every seat the rules let challenge is armed (its
LED lit); the first press by edge time, or the first claim at the screen, takes
the challenge through the referee's one arbiter. ``companion.table.link`` arms
and reads the referee in seats, for the card on top only; the referee calls back
on its own thread, and ``@mainthread_now`` brings every callback to the UI loop
without waiting for the next frame's turn.
"""

from __future__ import annotations

from typing import Any
from weakref import proxy

from kivy.event import EventDispatcher
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)

from companion.buzzers import Decision, Ignored, Referee
from companion.rules import (
    Action,
    AdjustDrawPile,
    Card,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    IllegalAction,
    Pass,
    Play,
    Redo,
    Resolve,
    Reveal,
    Setup,
    State,
    TakeUniversal,
    Undo,
    apply,
)
from companion.rules.cards import Attribute
from companion.table.replay import Replay
from companion.table.session import Preview, Session
from companion.store import BuzzTime, StoreError
from companion.table.link import RefereeLink
from companion.table.model import SEAT_FIELDS, TABLE_FIELDS, Buzz, TableModel, outcome, table_model
from companion.ui import theme
from companion.ui.calls import action_call, challenge_call, tie_call
from companion.ui.i18n import say, tr
from companion.ui.sounds import buzz as buzz_sound
from companion.ui.threads import after_drawn, mainthread_now
from companion.ui.words import choose_spice_words, held_words, hint_words, press_words, result_words, too_late_words

__all__ = ["Buzz", "SeatView", "TableView"]


class SeatView(EventDispatcher):
    """One seat's panel: counts, score and what it is doing right now."""

    index = NumericProperty(0)
    name = StringProperty("")
    colour = ColorProperty(theme.SEAT_COLOURS[0])
    hand = NumericProperty(0)
    universals = NumericProperty(0)
    won = NumericProperty(0)
    won_universals = NumericProperty(0)
    trophies = NumericProperty(0)
    score = ObjectProperty(None, allownone=True)
    """None in five-spices, which has no scores."""
    score_parts = ObjectProperty(None, allownone=True)
    """The rules' ``ScoreParts``: won cards, trophies and hand in points; None in five-spices."""
    to_play = BooleanProperty(False)
    armed = BooleanProperty(False)
    """Its buzzer is live: it may challenge the top card."""
    played = StringProperty("")
    """The claim on the mini card when this seat's card is the one on top (it cannot buzz)."""
    played_spice = StringProperty("")
    challenger = BooleanProperty(False)
    locked = BooleanProperty(False)
    """Pressed too, but later than the challenger."""
    winner = BooleanProperty(False)
    place = NumericProperty(0)
    """Its place at the end, 1 the best, shared by equal scores; 0 while the game goes on."""
    can_copy = BooleanProperty(False)


class TableView(EventDispatcher):
    """Everything the table screen and its sheets show, and every action they can take.

    Events: ``on_refused(reason)`` when an action is refused (nothing changed),
    ``on_not_saved(error)`` when the store could not save it (nothing changed either:
    the app says why, as for every screen), ``on_notice(text)`` for a press that does
    not count, ``on_sound(name)``, ``on_call(text)``, what the table says aloud (``companion.ui.calls``;
    "" stops the call in progress, as an undo does), ``on_table`` after every change of the table model
    (the phone page follows it), and ``on_copied`` once the model's fields are all in the properties (the
    claim pad, which reads several of them, follows them once, not once for each).
    """

    seats = ListProperty()
    profile = StringProperty("spicy")
    title = StringProperty("")
    numbered = BooleanProperty(True)
    spices = ListProperty()
    turn = NumericProperty(-1)
    """The seat to play, -1 when the game is over."""
    stack = NumericProperty(0)
    claim_spice = StringProperty("")
    claim_number = NumericProperty(0)
    """0 when the claim has no number (five-spices) or there is none."""
    stack_spice = StringProperty("")
    """The spice the claim pad starts on; "" on a new stack, where the seat must choose."""
    draw_pile = NumericProperty(0)
    draw_pile_most = NumericProperty(0)
    """The most the table can set the draw pile to."""
    direction = StringProperty("")
    """Which way the turn goes ("clockwise", "counter-clockwise") while a card in play can turn it; else ""."""
    has_end_card = BooleanProperty(True)
    end_level = OptionProperty("calm", options=["calm", "warning", "danger"])
    draw_pile_start = NumericProperty(1)
    trophies_total = NumericProperty(3)
    trophies_left = NumericProperty(3)
    trophy_takers = ListProperty()
    """One seat index per trophy taken."""
    has_universals = BooleanProperty(False)
    universal_pile = NumericProperty(0)
    may_take_universal = NumericProperty(-1)
    last_card = StringProperty("")
    """The name of the seat whose last card is on top, else ""."""
    window = BooleanProperty(False)
    """A card is on top and may still be challenged."""
    top_player = NumericProperty(-1)
    top_universal = BooleanProperty(False)
    move_to = NumericProperty(-1)
    """The seat to play, when the challenge waiting may be for the card it has just laid; else -1."""
    moving = BooleanProperty(False)
    """The challenge sheet shows the claim pad of ``move_to``: its claim moves the challenge to its card."""
    buzz = ObjectProperty(None, allownone=True)
    """A Buzz waiting for the challenger to name spice or number."""
    pending = BooleanProperty(False)
    """A challenge is made and waits for the card to be turned."""
    pending_attribute = StringProperty("")
    challenger = NumericProperty(-1)
    result = ObjectProperty(None, allownone=True)
    """The Result of the challenge just decided, until the table taps OK."""
    ended = BooleanProperty(False)
    end_reason = StringProperty("")
    winners = ListProperty()
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    legal = DictProperty()
    """Spice -> the numbers it may be declared with now."""
    can_tuck = BooleanProperty(False)
    can_pass = BooleanProperty(True)
    """Dimmed, Pass still answers a tap with the reason it is refused."""
    copy_cat = BooleanProperty(False)
    hint = StringProperty("")
    """What the seat to play may do, in words."""
    window_entry = ObjectProperty(None, allownone=True)
    """The card on top by its place in the log (``Game.window_entry``): the window every decision names."""
    moment = ObjectProperty(None, allownone=True)
    """Changes as the turn moves on: another seat to play, another card on top, a challenge taken, called
    or dropped, the end. A toast about a refused tap or a press speaks of the moment, and ends with it."""

    __events__ = ("on_refused", "on_not_saved", "on_notice", "on_sound", "on_call", "on_table", "on_copied")

    def __init__(self, session: Session | Replay | Preview, referee: Referee | None = None) -> None:
        """The session's seating gives each seat its colour and the buzzer bound to it at set-up.

        A ``Replay`` in place of the session shows a saved game read-only, a ``Preview`` the deal of a game
        not yet started: either refuses every action."""
        super().__init__()
        self.session = session
        colours = session.seating.colours
        self.seats = [
            SeatView(index=i, name=name, colour=theme.SEAT_COLOURS[colours[i] % len(theme.SEAT_COLOURS)])
            for i, name in enumerate(session.state.setup.names)
        ]
        self.model: TableModel | None = None
        self.link = RefereeLink(referee, session.seating)
        self.closed = False
        """Set by ``close()``: the referee stops reporting then, but a call it posted just before still
        runs on the UI loop afterwards, and must not reach a game that has left the table."""
        self.link.report_to(self._decided, self._ignored)
        self._language = tr.fbind("_", _say_again, proxy(self))
        """The hint is built here in words, not in a kv rule: a language switch builds it again."""
        saved = session.saved_buzz()
        if saved is not None:  # the power went while a challenger was naming spice or number
            self.buzz = Buzz(saved)
        self._refresh()

    def on_refused(self, reason: str) -> None:
        pass

    def on_not_saved(self, error: StoreError) -> None:
        pass

    def on_notice(self, text: str) -> None:
        pass

    def on_table(self) -> None:
        pass

    def on_copied(self) -> None:
        pass

    def on_sound(self, name: str) -> None:
        pass

    def on_call(self, text: str) -> None:
        pass

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def setup(self) -> Setup:
        return self.session.game.setup

    @property
    def actions_saved(self) -> int:
        return len(self.session.game.log)

    def name(self, seat: int) -> str:
        return self.state.name(seat)

    def close(self) -> None:
        """Stop listening to the buzzers (the app's referee keeps them for the next game) and to language switches."""
        self.closed = True
        tr.unbind_uid("_", self._language)
        self.link.close()

    # --- the seat to play ------------------------------------------------------------

    def declare(self, spice: str, number: int | None = None, universal: bool = False, tuck: int = 0) -> bool:
        """The seat to play lays a card with this claim (the engine refuses an illegal one).

        A number with no spice is refused here: on a new stack the claim pad picks none for the seat."""
        if self.numbered and not spice:
            self.dispatch("on_refused", choose_spice_words(self.seats[max(self.turn, 0)].name))
            return False
        return self._apply(Play(max(self.turn, 0), spice, number, universal, tuck), moved=self.moving)

    def explain(self, spice: str) -> None:
        """Why this spice cannot be declared now, in the engine's words."""
        numbers = self.legal.get(spice) or [1]
        reason = self._refusal(Play(max(self.turn, 0), spice, numbers[0]))
        if reason:
            self.dispatch("on_refused", reason)

    def chain(self, spice: str) -> bool:
        """Five-spices: the player whose card was not challenged plays again at once."""
        return self._apply(Play(max(self.top_player, 0), spice))

    def pass_turn(self) -> bool:
        """Pass and draw 1 (five-spices: draw)."""
        seat = max(self.turn, 0)
        return self._apply(Pass(seat) if self.numbered else Draw(seat))

    def copy(self, seat: int) -> bool:
        return self._apply(Copy(seat))

    def take_universal(self) -> bool:
        return self._apply(TakeUniversal(max(self.may_take_universal, 0)))

    def end_card_showed(self) -> bool:
        return self._apply(EndCardDrawn())

    def set_draw_pile(self, value: int) -> bool:
        """The table's count of the cards above the World's End card replaces the companion's."""
        return self._apply(AdjustDrawPile(value))

    def undo(self) -> bool:
        """Take back the last thing done: a buzz not yet called first (as Cancel does), else the last action."""
        if self.buzz is not None:
            self.cancel()
            return True
        return self._apply(Undo())

    def redo(self) -> bool:
        return self._apply(Redo())

    # --- challenges ----------------------------------------------------------------------

    def press(self, seat: int) -> bool:
        """A challenge claimed without a buzzer (a long press on a panel, a key).

        With a referee it goes through the same arbiter as the buzzers, as a
        press at the moment the referee takes it: a buzzer pressed before it
        still wins, and its decision comes back as a buzzer's does. Without
        one it is decided at once.
        """
        if self.buzz is not None or self.pending:
            busy = self._busy_words(seat)
            if busy:
                self.dispatch("on_notice", busy)
            return False
        reason = self._refusal(Challenge(seat, "spice" if self.numbered else None))
        if reason:
            self.dispatch("on_notice", reason)
            return False
        if not self.link.claim(seat):
            self._take_buzz(Buzz(seat))
        return True

    def call(self, attribute: Attribute) -> bool:
        """The challenger names what is false: "spice" or "number"."""
        if self.buzz is None or self.buzz.challenger is None:
            self.dispatch("on_refused", tr._("Nobody has buzzed: there is no challenge to call"))
            return False
        challenger = self.buzz.challenger
        return self._apply(Challenge(challenger, attribute), self.link.buzz_time(challenger))

    def pick(self, seat: int) -> bool:
        """A tie: the table decides which of the tied seats challenges."""
        if self.buzz is None or seat not in self.buzz.tie:
            return False
        self._hold(Buzz(seat, self.buzz.later, (), self.buzz.before_tap))
        return True

    def move_challenge(self, moving: bool = True) -> None:
        """The challenge waiting is for the card the seat to play has just laid (``moving``): the sheet
        shows that seat's claim pad, and its claim moves the challenge there, with every press it holds.
        False keeps it on the card on top, as doing nothing does."""
        self.moving = moving and self.move_to >= 0

    def cancel(self) -> None:
        """Nobody challenges after all: the window opens again."""
        self.buzz = None
        try:
            self.session.drop_buzz()
        except StoreError as exc:
            self.dispatch("on_not_saved", exc)
        self._refresh()

    def reveal(self, card: Card) -> bool:
        return self._apply(Reveal(card))

    def resolve(self, challenger_right: bool) -> bool:
        return self._apply(Resolve(challenger_right))

    def dismiss_result(self) -> None:
        self.result = None

    # --- the referee's callbacks (any thread; a closed table ignores them) ------------------

    @mainthread_now
    def _decided(self, decision: Decision) -> None:
        buzz = None if self.closed else self.link.buzz(decision)
        if buzz is None:
            return  # decided on a card that is no longer the one on top
        self._take_buzz(buzz)
        for seat in self.link.stuck(decision):
            self.dispatch("on_notice", held_words(self.name(seat)))

    @mainthread_now
    def _ignored(self, ignored: Ignored) -> None:
        press = None if self.closed else self.link.press(ignored)
        if press is None:
            return  # judged on another card, or a buzzer no seat is bound to
        names = self.state.setup.names
        text = press_words(press, names) or self._busy_words(press.seat) or self._refusal(
            Challenge(press.seat, "spice" if self.numbered else None)
        ) or too_late_words(names[press.seat], None)
        self.dispatch("on_notice", text)

    def _busy_words(self, seat: int) -> str:
        """Why a press cannot count while a challenge is under way, else ""."""
        if self.buzz is not None and self.buzz.challenger is not None:
            if seat == self.buzz.challenger:
                return ""
            return too_late_words(self.name(seat), self.name(self.buzz.challenger))
        if self.pending:
            return too_late_words(self.name(seat), self.name(self.challenger))
        return ""

    def _take_buzz(self, buzz: Buzz) -> None:
        if self.ended or not self.window:
            return
        for seat in buzz.tie if buzz.challenger is None else (buzz.challenger,):
            self.dispatch("on_sound", buzz_sound(self.session.seating.colours[seat]))  # a tie: its seats' chord
        self.dispatch("on_call", tie_call() if buzz.challenger is None else challenge_call(self.name(buzz.challenger)))
        if buzz.challenger is not None and not self.numbered:
            self.buzz = None
            self._apply(Challenge(buzz.challenger), self.link.buzz_time(buzz.challenger))
            return
        self._hold(buzz)

    def _hold(self, buzz: Buzz) -> None:
        """The buzz waits for spice or number; saved as it happens, so a power cut leaves it with its seat."""
        if buzz.challenger is not None:
            try:
                self.session.keep_buzz(buzz.challenger)
            except StoreError as exc:
                self.dispatch("on_not_saved", exc)
        self.buzz = buzz
        self._refresh()

    # --- applying and redrawing -------------------------------------------------------------

    def _refusal(self, action: Action) -> str:
        try:
            apply(self.state, action)
        except IllegalAction as exc:
            return say(exc.reason)
        return ""

    def _apply(self, action: Action, buzz_time: BuzzTime | None = None, moved: bool = False) -> bool:
        """``buzz_time``: how a challenge was won by buzzer, saved with it; ``moved``: the card laid takes
        the challenge that waited on the card below (``move_challenge``)."""
        before, level = self.state, self.end_level
        try:
            after = self.session.apply(action, buzz_time)
        except IllegalAction as exc:
            self.dispatch("on_refused", say(exc.reason))
            return False
        except StoreError as exc:
            self.dispatch("on_not_saved", exc)
            return False
        self.buzz = None
        self._refresh(moved)
        decided = outcome(before, after, action)
        if decided is not None:
            self.result = result_words(decided, after.setup.names)
            self.dispatch("on_sound", "decision")
        elif isinstance(action, (Undo, Redo)):
            self.result = None
        if any(event.kind == "last-card" for event in after.events):
            self.dispatch("on_sound", "last-card")
        ended = after.ended and not before.ended
        if ended:
            self.dispatch("on_sound", "end")
        call = action_call(self, action, after.events, self.result if decided else None, level, ended)
        if call or isinstance(action, Undo):
            self.dispatch("on_call", call)
        return True

    def _refresh(self, moved: bool = False) -> None:
        """Copy the table model into the properties, and arm the buzzers for an open window.

        At the end of a live game only what the end screen shows is copied at once (``ended`` last: it
        opens that screen); the rest follows on the next frame. The end screen covers the table, so the
        table's own changes (the pad, the panels, the hub) wait a frame instead of delaying it
        (docs/PERFORMANCE.md)."""
        model = self.model = table_model(self.session.game, self.buzz)
        if model.ended and not self.ended and isinstance(self.session, Session):
            for field in END_FIELDS:
                setattr(self, field, _property_value(getattr(model, field)))
            after_drawn(self._copy)
        else:
            self._copy()
        self.moment = (model.turn, model.window_entry, self.buzz is not None, model.pending, model.ended)
        own_card = model.top_player if model.top_player >= 0 else None
        self.link.follow(model.window_entry, model.armed, own_card, buzzed=self.buzz is not None, moved=moved)
        self.link.show_turn(model.turn if model.turn >= 0 else None)
        if model.move_to < 0:
            self.moving = False
        self.dispatch("on_table")

    def _copy(self) -> None:
        """The model now (a copy put off to the next frame takes the newest) into the properties."""
        model = self.model
        if self.closed or model is None:
            return
        for field in TABLE_FIELDS:
            setattr(self, field, _property_value(getattr(model, field)))
        for seat, seat_model in zip(self.seats, model.seat_models, strict=True):
            for field in SEAT_FIELDS:
                setattr(seat, field, getattr(seat_model, field))
        self.hint = hint_words(model.hint, self.state.setup.names)
        self.dispatch("on_copied")


END_FIELDS = ("end_reason", "winners", "can_undo", "can_redo", "ended")
"""What the end screen reads of the view's own properties; ``ended`` last, as it opens the screen."""


def _property_value(value: Any) -> Any:
    """Kivy's list properties take lists; the model's values are frozen tuples."""
    return list(value) if isinstance(value, tuple) else value


def _say_again(view: TableView, *_args: object) -> None:
    if view.model is not None:
        view.hint = hint_words(view.model.hint, view.state.setup.names)
