"""The live table as the screens see it: one observable object over the session.

Screens bind to the Kivy properties here and call its methods; nothing else in
the UI reads the engine's state, so a renamed field in the rules is a fix in
this file alone. ``Session`` stays plain Python: this object turns it into
properties, and turns taps, long presses and buzzer presses into actions.

Buzzers: when a card is played every other seat is armed (its LED lit); the
first press by edge time takes the challenge, later ones are listed with their
delay, and a press that cannot count (the card's own player, outside a window,
after the decision) is answered with a message. The app's referee owns the
buzzers: the view only posts to it (arming never waits on a port or a pin),
and it calls back on its own thread; ``@mainthread_now`` brings every callback to
the UI loop without waiting for the next frame's turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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

from companion.buzzers import Contested, Decision, Ignored, Referee, format_delay
from companion.buzzers.arbiter import EARLY, OWN_CARD, STUCK
from companion.rules import (
    Action,
    Card,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    EndReason,
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
    Variant,
    apply,
    challengers,
    is_legal,
    legal_claims,
    starting_draw_pile,
)
from companion.rules.cards import Attribute
from companion.session import Session
from companion.store import StoreError
from companion.ui import theme
from companion.ui.i18n import say, tr
from companion.ui.threads import mainthread_now


def spice_name(spice: str, _: Callable[[str], str] = tr._) -> str:
    """A spice as the table says it, in the chosen language.

    A kv rule passes ``tr._`` so that it reads it, and a language switch runs the rule again.
    """
    names = {
        "chili": tr._("Chili"),
        "wasabi": tr._("Wasabi"),
        "pepper": tr._("Pepper"),
        "lemon": tr._("Lemon"),
        "salt": tr._("Salt"),
        "sugar": tr._("Sugar"),
        "garlic": tr._("Garlic"),
        "cinnamon": tr._("Cinnamon"),
    }
    return names.get(spice, spice)


def claim_words(spice: str, number: int | None) -> str:
    return spice_name(spice) if number is None else f"{spice_name(spice)} {number}"


def card_words(card: Card) -> str:
    if card.wild == "wild-spice":
        return tr._("Wild spice")
    if card.wild == "wild-number":
        return tr._("Wild number")
    assert card.spice is not None
    return claim_words(card.spice, card.number)


def short_name(name: str, limit: int = 12) -> str:
    """Long names are cut with an ellipsis so a panel never overflows.

    >>> short_name("Maximilian-Alexander"), short_name("Ana")
    ('Maximilian-…', 'Ana')
    """
    return name if len(name) <= limit else name[: limit - 1] + "…"


def end_reason_text(reason: str | None) -> str:
    """Why the game ended, the same on the end screen and in the saved games ("" while it goes on)."""
    words: dict[str, str] = {
        EndReason.SECOND_TROPHY: tr._("A second trophy wins outright."),
        EndReason.ALL_TROPHIES: tr._("The last trophy was taken."),
        EndReason.END_CARD: tr._("The World's End card showed."),
        EndReason.EMPTY_HAND: tr._("An empty hand wins."),
    }
    return words.get(reason or "", "")


@dataclass(frozen=True)
class Buzz:
    """Who takes the challenge, before they name spice or number.

    ``later`` lists the seats that pressed after the winner, with their delay
    as the table reads it ("+1 ms"); ``tie`` lists seats whose edges came at
    the very same time (the table picks one); ``before_tap`` the seats among
    them that pressed as the card landed, before its claim was tapped.
    """

    challenger: int | None
    later: tuple[tuple[int, str], ...] = ()
    tie: tuple[int, ...] = ()
    before_tap: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    """A decided challenge in words and counts, for the result sheet."""

    title: str
    detail: str
    spice: str
    number: int | None
    card: Card | None
    winner: int
    loser: int
    starter: int | None
    hand_gain: tuple[int, ...]
    won_gain: tuple[int, ...]


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
    can_copy = BooleanProperty(False)


class TableView(EventDispatcher):
    """Everything the table screen and its sheets show, and every action they can take.

    Events: ``on_refused(reason)`` when an action is refused (nothing changed),
    ``on_notice(text)`` for a press that does not count, ``on_sound(name)``.
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
    draw_pile = NumericProperty(0)
    has_end_card = BooleanProperty(True)
    end_level = OptionProperty("calm", options=["calm", "warning", "danger"])
    draw_pile_start = NumericProperty(1)
    trophies_total = NumericProperty(3)
    trophies_left = NumericProperty(3)
    trophy_takers = ListProperty()
    """One seat index per trophy taken."""
    universal_pile = NumericProperty(0)
    may_take_universal = NumericProperty(-1)
    last_card = StringProperty("")
    """The name of the seat whose last card is on top, else ""."""
    window = BooleanProperty(False)
    """A card is on top and may still be challenged."""
    top_player = NumericProperty(-1)
    top_universal = BooleanProperty(False)
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
    copy_cat = BooleanProperty(False)
    hint = StringProperty("")
    """What the seat to play may do, in words."""
    window_entry = ObjectProperty(None, allownone=True)
    """The card on top by its place in the log (``Game.window_entry``): the window every decision names."""

    __events__ = ("on_refused", "on_notice", "on_sound")

    def __init__(self, session: Session, referee: Referee | None = None) -> None:
        """The session's seating gives each seat its colour and the buzzer bound to it at set-up."""
        super().__init__()
        self.session = session
        self.seating = session.seating
        colours = self.seating.colours
        self.seats = [
            SeatView(index=i, name=name, colour=theme.SEAT_COLOURS[colours[i] % len(theme.SEAT_COLOURS)])
            for i, name in enumerate(session.state.setup.names)
        ]
        self.referee = referee
        self.closed = False
        """Set by ``close()``: the referee stops reporting then, but a call it posted just before still
        runs on the UI loop afterwards, and must not reach a game that has left the table."""
        if referee is not None:
            referee.report_to(self._decided, self._ignored)
        self._language = tr.fbind("_", _say_again, proxy(self))
        """The hint is built here in words, not in a kv rule: a language switch builds it again."""
        saved = session.saved_buzz()
        if saved is not None:  # the power went while a challenger was naming spice or number
            self.buzz = Buzz(saved)
        self._refresh()

    def on_refused(self, reason: str) -> None:
        pass

    def on_notice(self, text: str) -> None:
        pass

    def on_sound(self, name: str) -> None:
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
        if self.referee is not None:
            self.referee.disarm()
            self.referee.report_to(None)
            self.referee = None

    # --- the seat to play ------------------------------------------------------------

    def declare(self, spice: str, number: int | None = None, universal: bool = False, tuck: int = 0) -> bool:
        """The seat to play lays a card with this claim (the engine refuses an illegal one)."""
        return self._apply(Play(max(self.turn, 0), spice, number, universal, tuck))

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

        With a referee it goes through the same arbiter as the buzzers, so
        whichever decides the window first takes the challenge and the other
        is later; its decision comes back as a buzzer's does. Without one it
        is decided at once.
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
        if self.referee is not None:
            self.referee.claim(self.seating.buzzer_of(seat), self.window_entry)
        else:
            self._take_buzz(Buzz(seat))
        return True

    def call(self, attribute: Attribute) -> bool:
        """The challenger names what is false: "spice" or "number"."""
        if self.buzz is None or self.buzz.challenger is None:
            self.dispatch("on_refused", tr._("Nobody has buzzed: there is no challenge to call"))
            return False
        return self._apply(Challenge(self.buzz.challenger, attribute))

    def pick(self, seat: int) -> bool:
        """A tie: the table decides which of the tied seats challenges."""
        if self.buzz is None or seat not in self.buzz.tie:
            return False
        self.buzz = Buzz(seat, self.buzz.later, (), self.buzz.before_tap)
        self._keep_buzz(seat)
        self._mark_buzz()
        return True

    def cancel(self) -> None:
        """Nobody challenges after all: the window opens again."""
        self.buzz = None
        try:
            self.session.drop_buzz()
        except StoreError as exc:
            self.dispatch("on_refused", say(exc.reason))
        self._refresh()

    def reveal(self, card: Card) -> bool:
        return self._apply(Reveal(card))

    def resolve(self, challenger_right: bool) -> bool:
        return self._apply(Resolve(challenger_right))

    def dismiss_result(self) -> None:
        self.result = None

    # --- the referee's callbacks (any thread; a closed table ignores them) ------------------

    def _seat_of(self, buzzer: int | None) -> int | None:
        return None if buzzer is None else self.seating.seat_of(buzzer)

    @mainthread_now
    def _decided(self, decision: Decision) -> None:
        if self.closed or decision.window != self.window_entry:
            return  # decided on a card that is no longer the one on top
        later = tuple(
            (seat, format_delay(p.delay_ms)) for p in decision.later if (seat := self._seat_of(p.seat)) is not None
        )
        tie = tuple(seat for b in decision.tie if (seat := self._seat_of(b)) is not None)
        before_tap = tuple(seat for b in decision.before_tap if (seat := self._seat_of(b)) is not None)
        self._take_buzz(Buzz(self._seat_of(decision.winner), later, tie, before_tap))
        for buzzer in decision.stuck:
            seat = self._seat_of(buzzer)
            if seat is not None:
                self.dispatch("on_notice", tr._("{name}'s buzzer was held down: let go of it").format(
                    name=self.name(seat)))

    @mainthread_now
    def _ignored(self, press: Ignored) -> None:
        if self.closed or press.window not in (None, self.window_entry):
            return  # judged on a card that is no longer the one on top
        seat = self._seat_of(press.seat)
        if seat is None:
            return  # a buzzer no seat is bound to
        name = self.name(seat)
        if isinstance(press, Contested):
            text = self._contested_words(press, name)
        elif press.reason == OWN_CARD:
            text = tr._("{name} played this card and cannot challenge it").format(name=name)
        elif press.reason == EARLY:
            text = tr._("{name} pressed before the card was played: press again").format(name=name)
        elif press.reason == STUCK:
            text = tr._("{name}'s buzzer is held down: let go and press again").format(name=name)
        else:
            text = self._busy_words(seat) or self._refusal(
                Challenge(seat, "spice" if self.numbered else None)
            ) or tr._("{name} buzzed too late").format(name=name)
        self.dispatch("on_notice", text)

    def _contested_words(self, press: Contested, name: str) -> str:
        """An earlier press whose signal came after the decision: the decision stands, the table hears it."""
        winner = self._seat_of(press.winner) if press.winner is not None else None
        ahead = format_delay(press.ahead_ms).removeprefix("+")
        if winner is None:
            return tr._("Contested: {name} pressed {ahead} earlier, but the press came after the decision").format(
                name=name, ahead=ahead)
        return tr._("Contested: {name} pressed {ahead} before {winner}, but the press came after the decision; "
                    "{winner} challenges").format(name=name, ahead=ahead, winner=self.name(winner))

    def _busy_words(self, seat: int) -> str:
        """Why a press cannot count while a challenge is under way, else ""."""
        name = self.name(seat)
        if self.buzz is not None and self.buzz.challenger is not None:
            if seat == self.buzz.challenger:
                return ""
            return tr._("{name} buzzed too late: {challenger} challenges").format(
                name=name, challenger=self.name(self.buzz.challenger))
        if self.pending:
            return tr._("{name} buzzed too late: {challenger} challenges").format(
                name=name, challenger=self.name(self.challenger))
        return ""

    def _take_buzz(self, buzz: Buzz) -> None:
        if self.ended or not self.window:
            return
        self.dispatch("on_sound", "buzz")
        if buzz.challenger is not None and not self.numbered:
            self.buzz = None
            self._apply(Challenge(buzz.challenger))
            return
        self.buzz = buzz
        if buzz.challenger is not None:
            self._keep_buzz(buzz.challenger)
        self._mark_buzz()

    def _keep_buzz(self, seat: int) -> None:
        """Saved as it happens: after a power cut the same seat still holds the challenge."""
        try:
            self.session.keep_buzz(seat)
        except StoreError as exc:
            self.dispatch("on_refused", say(exc.reason))

    def _mark_buzz(self) -> None:
        buzz = self.buzz
        later = {seat for seat, _ in buzz.later} if buzz else set()
        for seat in self.seats:
            seat.armed = False
            seat.challenger = buzz is not None and seat.index == buzz.challenger
            seat.locked = seat.index in later

    # --- applying and redrawing -------------------------------------------------------------

    def _refusal(self, action: Action) -> str:
        try:
            apply(self.state, action)
        except IllegalAction as exc:
            return say(exc.reason)
        return ""

    def _apply(self, action: Action) -> bool:
        before = self.state
        try:
            after = self.session.apply(action)
        except (IllegalAction, StoreError) as exc:
            self.dispatch("on_refused", say(exc.reason))
            return False
        self.buzz = None
        self._refresh()
        if isinstance(action, (Challenge, Reveal, Resolve)) and after.challenge is None and before.window is not None:
            self.result = self._result(before, after, action)
            self.dispatch("on_sound", "decision")
        elif isinstance(action, (Undo, Redo)):
            self.result = None
        kinds = {event.kind for event in after.events}
        if "last-card" in kinds:
            self.dispatch("on_sound", "last-card")
        if after.ended and not before.ended:
            self.dispatch("on_sound", "end")
        return True

    def _refresh(self) -> None:
        """Copy the session's state into the properties, and arm the buzzers for an open window."""
        state = self.state
        setup = state.setup
        profile = state.profile
        self.profile = profile.id
        self.title = profile.title
        self.numbered = profile.numbered
        self.spices = list(profile.spices)
        self.copy_cat = Variant.COPY_CAT in setup.variants
        self.turn = -1 if state.turn is None else state.turn
        self.stack = state.stack
        self.claim_spice = state.claim.spice if state.claim else ""
        self.claim_number = (state.claim.number or 0) if state.claim else 0
        self.draw_pile = state.draw_pile
        self.has_end_card = profile.end_card
        seats_n = len(state.seats)
        self.draw_pile_start = max(1, starting_draw_pile(setup))
        if not profile.end_card or state.draw_pile > 3 * seats_n:
            self.end_level = "calm"
        else:
            self.end_level = "warning" if state.draw_pile > seats_n else "danger"
        self.trophies_total = profile.trophies
        self.trophies_left = state.trophies_left
        self.trophy_takers = [i for i, seat in enumerate(state.seats) for _ in range(seat.trophies)]
        self.universal_pile = state.universal_pile
        self.may_take_universal = -1 if state.may_take_universal is None else state.may_take_universal
        top = state.window
        self.window = top is not None and state.challenge is None and not state.ended
        self.top_player = -1 if top is None else top.player
        self.top_universal = bool(top and top.universal)
        self.last_card = state.name(top.player) if top is not None and top.last_card else ""
        self.challenger = -1 if state.challenge is None else state.challenge.challenger
        self.pending_attribute = (state.challenge.attribute or "") if state.challenge else ""
        self.pending = state.challenge is not None  # last: the reveal sheet opens on this change
        self.ended = state.ended
        self.end_reason = state.end_reason or ""
        self.winners = list(state.winners)
        self.window_entry = self.session.game.window_entry
        self.can_undo = self.session.game.can_undo
        self.can_redo = self.session.game.can_redo
        self.legal = {s: list(n) for s, n in legal_claims(state).items()} if profile.numbered else {}
        self.can_tuck = Variant.CHANGE_YOUR_LUCK in setup.variants
        armed = challengers(state)
        for i, (seat, live) in enumerate(zip(self.seats, state.seats, strict=True)):
            seat.hand = live.hand
            seat.universals = live.universals
            seat.won = live.won
            seat.won_universals = live.won_universals
            seat.trophies = live.trophies
            seat.score = state.score(i)
            seat.score_parts = state.score_parts(i)
            seat.to_play = i == state.turn and not state.ended
            seat.armed = i in armed and self.buzz is None
            seat.played = (str(top.claim.number or "") if top is not None and top.player == i else "")
            seat.played_spice = top.claim.spice if top is not None and top.player == i else ""
            seat.challenger = state.challenge is not None and state.challenge.challenger == i
            seat.locked = False
            seat.winner = state.ended and i in state.winners
            seat.can_copy = is_legal(state, Copy(i))
        self.hint = self._hint(state)
        if self.buzz is not None:
            self._mark_buzz()
        self._arm(armed, top.player if top is not None else None)

    def _arm(self, armed: Sequence[int] | frozenset[int], own_card: int | None) -> None:
        if self.referee is None:
            return
        if armed and self.buzz is None:
            self.referee.arm(
                [self.seating.buzzer_of(seat) for seat in armed],
                own_card=None if own_card is None else self.seating.buzzer_of(own_card),
                window=self.window_entry,
            )
        elif not armed:
            self.referee.disarm()

    def _hint(self, state: State) -> str:
        if state.ended or state.turn is None:
            return ""
        if not state.profile.numbered:
            if state.window is not None and state.next_seat(state.window.player) == state.turn:
                return tr._("Play a card, draw, or challenge {name}").format(name=state.name(state.window.player))
            return tr._("Play a card naming a spice, or draw")
        words = [
            tr._("{spice} {numbers}").format(spice=spice_name(spice), numbers=_numbers_words(numbers))
            for spice, numbers in legal_claims(state).items()
        ]
        if len(words) == len(state.profile.spices):
            return tr._("1, 2 or 3 of any spice, or pass")
        return tr._("{claims}, or pass").format(claims=tr._(" or ").join(words))

    def _result(self, before: State, after: State, action: Action) -> Result:
        top = before.window
        assert top is not None
        if isinstance(action, Challenge):
            challenger, attribute = action.seat, action.attribute
        else:
            assert before.challenge is not None
            challenger, attribute = before.challenge.challenger, before.challenge.attribute
        winner = next(e.seat for e in after.events if e.kind == "challenge-won")
        assert winner is not None
        loser = top.player if winner == challenger else challenger
        right = winner == challenger
        card = action.card if isinstance(action, Reveal) else None
        claim = claim_words(top.claim.spice, top.claim.number)
        if top.universal:
            title = tr._("A universal card: it always survives.")
        elif card is not None and attribute == "spice":
            words = tr._("the spice was a lie.") if right else tr._("the spice was true.")
            title = f"{card_words(card)}: {words}"
        elif card is not None and attribute == "number":
            words = tr._("the number was a lie.") if right else tr._("the number was true.")
            title = f"{card_words(card)}: {words}"
        elif card is not None:
            words = tr._("the claim was a lie.") if right else tr._("the claim was true.")
            title = f"{card_words(card)}: {words}"
        else:
            words = tr._("the challenger was right.") if right else tr._("the challenger was wrong.")
            title = f"{claim}: {words}"
        hand_gain = tuple(a.hand - b.hand for a, b in zip(after.seats, before.seats, strict=True))
        won_gain = tuple(a.won - b.won for a, b in zip(after.seats, before.seats, strict=True))
        starter = after.turn
        detail = self._result_detail(after, winner, loser, hand_gain, won_gain, starter)
        return Result(title, detail, top.claim.spice, top.claim.number, card, winner, loser, starter,
                      hand_gain, won_gain)

    def _result_detail(
        self, after: State, winner: int, loser: int, hand_gain: tuple[int, ...], won_gain: tuple[int, ...],
        starter: int | None,
    ) -> str:
        names = {"winner": after.name(winner), "loser": after.name(loser)}
        parts: list[str] = []
        if after.profile.numbered:
            won = won_gain[winner]
            wins = tr.ngettext("{winner} wins {n} card", "{winner} wins {n} cards", won).format(n=won, **names)
            drawn = next((e.count for e in after.events if e.kind == "penalty" and e.seat == loser), 0)
            draws = tr._("{loser} draws {n}").format(n=drawn, **names)
            if starter == winner and not after.ended:
                wins = tr._("{winner} wins {n} cards and starts the next stack").format(n=won, **names)
            elif starter == loser and not after.ended:
                draws = tr._("{loser} draws {n} and starts the next stack").format(n=drawn, **names)
            parts.append(wins)
            if any(e.kind == "trophy" for e in after.events):  # a last card survived: its player's trophy
                parts.append(tr._("{winner} takes a trophy").format(**names))
            parts.append(draws)
        else:
            drawn = hand_gain[loser] - 1
            parts.append(tr._("{loser} takes the card into hand and draws {n}").format(n=drawn, **names))
            if starter is not None and not after.ended:
                parts.append(tr._("{name} plays next").format(name=after.name(starter)))
        text = "; ".join(parts) + "."
        if after.ended:
            text += " " + tr._("The game is over.")
        return text


def _say_again(view: TableView, *_args: object) -> None:
    view.hint = view._hint(view.state)


def _numbers_words(numbers: Sequence[int]) -> str:
    """Numbers as the hint reads them: "1, 2 or 3", "7 to 10", "1, 2, 3, 9 or 10"."""
    listed = [str(n) for n in numbers]
    if len(listed) > 3 and list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return tr._("{low} to {high}").format(low=listed[0], high=listed[-1])
    if len(listed) == 1:
        return listed[0]
    return tr._("{items} or {last}").format(items=", ".join(listed[:-1]), last=listed[-1])
