"""The table as the companion knows it: counts only, never the faces of cards.

Every state is frozen. A new action makes a new state, so undo is keeping the
old one and replay is folding the log again. The one thing here that changes is
a ``Draft``: the next state while ``engine.apply`` carries out one action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any

from companion.rules.cards import Attribute, Claim
from companion.rules.profiles import Profile, StartAfterChallenge, Variant

TROPHY_POINTS = 10
UNIVERSAL_POINTS = 5
"""A universal card counts 5 in a won pile and -5 in a hand (Sweet & Spicy)."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What the header lines of a transcript say: fixed for the whole game."""

    profile: Profile
    names: tuple[str, ...]
    end_card: int
    """Cards under the World's End card; they never come into play."""
    first: int = 0
    variants: frozenset[Variant] = frozenset()
    start_after_challenge: StartAfterChallenge = StartAfterChallenge.LOSER

    def seat_named(self, name: str) -> int | None:
        try:
            return self.names.index(name)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    hand: int
    won: int = 0
    trophies: int = 0
    universals: int = 0
    """Universal cards among ``hand`` (Sweet & Spicy)."""
    won_universals: int = 0
    """Universal cards among ``won`` (Sweet & Spicy)."""

    @property
    def spice_cards(self) -> int:
        return self.hand - self.universals


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """A seat's score by where its points come from, as the end screen lists them."""

    won: int
    """Won spice cards: +1 each."""
    trophies: int
    """+10 a trophy."""
    hand: int
    """Spice cards still in hand: -1 each (so never above 0)."""
    universals: int = 0
    """Sweet & Spicy's universal cards: +5 each won, -5 each still in hand; its own column at the end."""

    @property
    def total(self) -> int:
        return self.won + self.trophies + self.hand + self.universals


@dataclass(frozen=True, slots=True)
class Window:
    """The card just played, open to a challenge until the next seat plays or passes."""

    player: int
    claim: Claim
    universal: bool = False
    last_card: bool = False


@dataclass(frozen=True, slots=True)
class PendingChallenge:
    """A challenge made and waiting for the card to be turned (or the outcome told)."""

    challenger: int
    attribute: Attribute | None


class Direction(StrEnum):
    """Which way the turn goes round the table (chili-reverses turns it)."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class EventKind(StrEnum):
    PLAY = "play"
    LAST_CARD = "last-card"
    PASS = "pass"
    DRAW = "draw"
    CHALLENGE = "challenge"
    CHALLENGE_WON = "challenge-won"
    STACK_WON = "stack-won"
    PENALTY = "penalty"
    REFILL = "refill"
    TROPHY = "trophy"
    RAID = "raid"
    UNIVERSAL = "universal"
    RESHUFFLE = "reshuffle"
    ADJUST = "adjust"
    END = "end"


class EndReason(StrEnum):
    SECOND_TROPHY = "second-trophy"
    ALL_TROPHIES = "all-trophies"
    END_CARD = "end-card"
    EMPTY_HAND = "empty-hand"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the table should be told happened, in words (for the screen) and as data."""

    kind: EventKind
    seat: int | None
    count: int
    text: str


class Counts:
    """What a state and the draft of the next one both answer from their counts."""

    __slots__ = ()
    setup: Setup
    seats: Sequence[Seat]
    direction: Direction

    @property
    def profile(self) -> Profile:
        return self.setup.profile

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play."""
        step = 1 if self.direction == Direction.CLOCKWISE else -1
        return (seat + step) % len(self.seats)

    def score(self, seat: int) -> int | None:
        """The score if the game ended now; five-spices has no scores."""
        parts = self.score_parts(seat)
        return None if parts is None else parts.total

    def score_parts(self, seat: int) -> ScoreParts | None:
        """Where the score comes from: won cards +1, trophies +10, cards in hand −1; universal cards count 5.
        None in five-spices, which has no scores."""
        if not self.profile.numbered:
            return None
        s = self.seats[seat]
        return ScoreParts(
            won=s.won - s.won_universals,
            trophies=TROPHY_POINTS * s.trophies,
            hand=-s.spice_cards,
            universals=UNIVERSAL_POINTS * (s.won_universals - s.universals),
        )


@dataclass(frozen=True, slots=True)
class State(Counts):
    setup: Setup
    seats: tuple[Seat, ...]
    turn: int | None
    draw_pile: int
    """Cards that can still be drawn before the World's End card shows (the JSON's ``deck``)."""
    stack: int = 0
    """Cards on the stack (five-spices: the face-up pile)."""
    stack_universals: int = 0
    claim: Claim | None = None
    universal_pile: int = 0
    trophies_left: int = 0
    window: Window | None = None
    challenge: PendingChallenge | None = None
    raider: int | None = None
    """A seat whose declared 4 (spice-raider) will take the stack on the next play."""
    may_take_universal: int | None = None
    """The loser of the challenge just decided, who may take a universal card."""
    must_play: int | None = None
    """Sweet & Spicy: the seat that starts the new stack after a challenge, which starts it with a play."""
    direction: Direction = Direction.CLOCKWISE
    ended: bool = False
    end_reason: EndReason | None = None
    winners: tuple[int, ...] = ()
    events: tuple[Event, ...] = ()

    def places(self) -> tuple[int, ...]:
        """Each seat's place at the end, 1 the best: the winners first (a second trophy wins whatever the
        scores), then by score; equal ones share a place and the next place skips ("1, 1, 3").
        Five-spices has no scores: whoever did not win shares the place after the winners."""
        keys = [(i not in self.winners, -(self.score(i) or 0)) for i in range(len(self.seats))]
        return tuple(1 + sum(other < key for other in keys) for key in keys)

    def cards_accounted(self) -> int:
        """Every card the companion can place; equals the profile total unless adjusted."""
        return (
            self.draw_pile
            + self.stack
            + sum(s.hand + s.won for s in self.seats)
            + self.setup.end_card
            + self.universal_pile
        )

    def to_json(self) -> dict[str, Any]:
        """The replay JSON of docs/RULES.md section 5, plus what the screens need."""
        numbered = self.profile.numbered
        return {
            "profile": self.profile.id,
            "ended": self.ended,
            "end_reason": self.end_reason,
            "winners": [self.name(i) for i in self.winners],
            "turn": None if self.turn is None else self.name(self.turn),
            "stack": self.stack,
            "claim": None
            if self.claim is None
            else {"spice": self.claim.spice, "number": self.claim.number},
            "deck": self.draw_pile,
            "trophies_left": self.trophies_left if numbered else None,
            "direction": self.direction,
            "universal_pile": self.universal_pile,
            "end_card": self.setup.end_card,
            "variants": sorted(self.setup.variants),
            "window": None
            if self.window is None
            else {
                "player": self.name(self.window.player),
                "claim": str(self.window.claim),
                "last_card": self.window.last_card,
                "universal": self.window.universal,
            },
            "challenge": None
            if self.challenge is None
            else {"challenger": self.name(self.challenge.challenger), "attribute": self.challenge.attribute},
            "seats": [
                {
                    "name": s.name,
                    "hand": s.hand,
                    "won": s.won,
                    "trophies": s.trophies,
                    "universals": s.universals,
                    "won_universals": s.won_universals,
                    "score": self.score(i),
                }
                for i, s in enumerate(self.seats)
            ],
        }


_values = attrgetter(*(field.name for field in fields(State)))


@dataclass(slots=True, eq=False)
class Draft(Counts):
    """The next state while ``engine.apply`` carries out one action: the rules' steps change it in place,
    and ``state()`` makes it into the one new State.

    An action is several steps (a play closes the last window, may earn a trophy, lays the card and tells
    it), and a frozen state copied at each of them was most of what an action cost. A draft is made from
    the state before the action (``of``), with no events yet, and lives only inside that one ``apply``:
    nobody who holds a state ever sees one change. It has the fields of ``State``, in their order and with
    their types (tests/test_rules_draft.py), so the values pass from one to the other by position.
    """

    setup: Setup
    seats: tuple[Seat, ...]
    turn: int | None
    draw_pile: int
    stack: int
    stack_universals: int
    claim: Claim | None
    universal_pile: int
    trophies_left: int
    window: Window | None
    challenge: PendingChallenge | None
    raider: int | None
    may_take_universal: int | None
    must_play: int | None
    direction: Direction
    ended: bool
    end_reason: EndReason | None
    winners: tuple[int, ...]
    events: tuple[Event, ...]

    @classmethod
    def of(cls, state: State) -> Draft:
        draft = cls(*_values(state))
        draft.events = ()
        return draft

    def state(self) -> State:
        return State(*_values(self))

    def tell(self, kind: EventKind, seat: int | None, count: int, text: str) -> None:
        self.events += (Event(kind, seat, count, text),)

    def set_seat(self, index: int, seat: Seat) -> None:
        self.seats = self.seats[:index] + (seat,) + self.seats[index + 1 :]


def top_scorers(state: Counts) -> tuple[int, ...]:
    """Equal highest scores share the win."""
    scores = [state.score(i) or 0 for i in range(len(state.seats))]
    best = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)


def joined_names(state: Counts, seats: Iterable[int]) -> str:
    """"Ana", "Ana and Ben", "Ana, Ben and Cy": how the end of a game names its winners."""
    listed = [state.name(i) for i in seats]
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
