"""The real referee, its link and a real game under random play: presses at random edge times, claims at
the screen, undo and redo, actions that keep the card on top, cards laid as presses come in. The
challenge always goes to the earliest press for the window it belongs to.

The buzzers are the keyboard's (edge times as the test gives them, no debounce to swallow a press) and
the referee's clock moves only when the test moves it, so a run is the same however loaded the machine.
Beside the referee runs a model of which window each press belongs to, in the words of the rules: a
press counts in the window open when it came, unless a card was laid on that one since (the press was
for the card as it landed) or no window could take it (it waits for the next); an undo or a redo closes
a window with what it held.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from buzzers_fixtures import Recorder
from companion.buzzers import Decision, KeyboardBuzzers, Referee
from companion.rules import (
    SPICY,
    AdjustDrawPile,
    Game,
    Pass,
    Play,
    Redo,
    Undo,
    challengers,
    is_legal,
    legal_claims,
    new_setup,
)
from companion.table.seating import Seating
from companion.table.link import RefereeLink

SEATS = ("Ana", "Ben", "Cy")
KEYS = "123"
SETTLE_MS = 500  # longer than any run between two settles, so every press of a window is in time
EARLY_MS = 5000


@dataclass
class Window:
    """The model's window: who may press, and each seat's earliest press (edge, at the screen or not)."""

    armed: frozenset[int]
    presses: dict[int, float] = field(default_factory=dict)
    offset: float | None = None
    """The referee's edge-clock offset, which stamps a claim: the latest edge less our clock at its press."""

    def take(self, seat: int, edge: float, now: float) -> bool:
        if seat not in self.armed:
            return False
        self.presses[seat] = min(edge, self.presses.get(seat, edge))
        self.offset = max(self.offset if self.offset is not None else float("-inf"), edge - now)
        return True


class Table:
    """A game of three with the real referee and link, driven as the view drives them, and the model."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.game = Game.start(new_setup(SPICY, list(SEATS)))
        self.buzzers = KeyboardBuzzers(KEYS)
        self.decisions = Recorder()
        self.referee = Referee(self.buzzers, settle_ms=SETTLE_MS, early_ms=EARLY_MS, clock=lambda: self.now)
        self.link = RefereeLink(self.referee, Seating.default(len(SEATS)))
        self.link.report_to(self.decisions, None)
        self.window: Window | None = None
        self.loose: list[tuple[int, float]] = []
        self.checked = 0
        self._follow(landed=True)
        self.checked = 0

    # --- what the table does ---------------------------------------------------------------

    def press(self, seat: int, lag_ms: int, step_ms: int) -> None:
        self.now += step_ms / 1000
        edge = self.now - lag_ms / 1000  # the press reaches the referee after its edge
        self.buzzers.key_down(KEYS[seat], edge)
        self.buzzers.key_up(KEYS[seat], edge + 0.001)
        assert self.referee.flush()
        if self.window is None or not self.window.take(seat, edge, self.now):
            self.loose.append((seat, edge))

    def claim(self, seat: int, step_ms: int) -> None:
        """A long press on a panel: the view claims only for a seat the rules let challenge."""
        self.now += step_ms / 1000
        if self.window is None or seat not in self.window.armed:
            return
        assert self.link.claim(seat) and self.referee.flush()
        offset = self.window.offset if self.window.offset is not None else 0.0
        self.window.take(seat, self.now + offset, self.now)

    def act(self, action: str) -> None:
        """A card laid, a pass, an undo, a redo, or the draw pile set to what it is (the card on top stays);
        the table refreshes after each, as the view does."""
        state = self.game.state
        if action == "play":
            claims = legal_claims(state)
            spice = next(iter(claims), None)
            move = Play(state.turn or 0, spice, claims[spice][0]) if spice else None
        else:
            move = {"undo": Undo(), "redo": Redo(), "pass": Pass(state.turn or 0),
                    "keep": AdjustDrawPile(state.draw_pile)}[action]
        if move is None or state.ended or not is_legal_in(self.game, move):
            return
        card = self.game.window_entry
        self.game = self.game.apply(move)
        self._follow(landed=action == "play", changed=self.game.window_entry != card)

    def settle(self) -> None:
        """Time passes: the open window decides, its decision is checked, and the table lets it go (Cancel)."""
        self.now += 10.0
        assert self.referee.flush()
        decisions = []
        while not self.decisions.items.empty():
            decisions.append(self.decisions.items.get_nowait())
        taken = [buzz for d in decisions if isinstance(d, Decision) and (buzz := self.link.buzz(d)) is not None]
        window = self.window
        if window is None or not window.presses:
            assert taken == []
        else:
            first = min(window.presses.values())
            firsts = sorted(seat for seat, edge in window.presses.items() if edge == first)
            assert len(taken) == 1
            assert (taken[0].challenger,) == tuple(firsts) or taken[0].tie == tuple(firsts)
            self.checked += 1
        self.loose = []  # told by now: too long ago to count for any card
        if window is not None:  # Cancel: the window opens again, empty
            self.link.follow(self.game.window_entry, window.armed, self._own_card(), buzzed=True)
            self._follow(landed=False, changed=True)

    def close(self) -> None:
        self.link.close()
        self.referee.stop()

    # --- the link, as the view calls it, and the model of the windows -----------------------

    def _own_card(self) -> int | None:
        top = self.game.state.window
        return None if top is None else top.player

    def _follow(self, landed: bool, changed: bool = True) -> None:
        card, armed = self.game.window_entry, challengers(self.game.state)
        self.link.follow(card, armed, self._own_card(), buzzed=False)
        assert self.referee.flush()
        before = self.window
        if not changed:
            return
        if card is None or not armed:
            self.window, self.loose = None, []
            return
        self._arm(armed, carried=before.presses if landed and before is not None else {})

    def _arm(self, armed: frozenset[int], carried: dict[int, float]) -> None:
        self.window = Window(armed)
        for seat, edge in [*carried.items(), *self.loose]:
            self.window.take(seat, edge, self.now)
        self.loose = []


def is_legal_in(game: Game, move: Undo | Redo | Play | Pass | AdjustDrawPile) -> bool:
    if isinstance(move, Undo):
        return game.can_undo
    if isinstance(move, Redo):
        return game.can_redo
    return is_legal(game.state, move)


seat = st.integers(0, len(SEATS) - 1)
step = st.integers(0, 10)
op = st.one_of(
    st.tuples(st.just("press"), seat, st.integers(0, 20), step),
    st.tuples(st.just("claim"), seat, step),
    st.tuples(st.sampled_from(["play", "pass", "undo", "redo", "keep", "settle"])),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=1, max_size=30))
def test_property_the_challenge_goes_to_the_earliest_press_for_its_window(ops: list[tuple]) -> None:
    table = Table()
    try:
        for name, *args in ops:
            if name in ("press", "claim"):
                getattr(table, name)(*args)
            elif name == "settle":
                table.settle()
            else:
                table.act(name)
        table.settle()
    finally:
        table.close()
