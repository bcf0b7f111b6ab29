"""What every game family shares: the rule table's shape, the common checks, and
the steps actions are made of (drawing, winning the stack, trophies, the end).

A rule is a check and an effect. The check raises IllegalAction and builds no
state; the effect never refuses. ``engine.apply`` runs both and
``engine.legal_actions`` only the check, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.rules.actions import Action, Adjust, Draw, Pass, Resolve, Reveal
from companion.rules.cards import NUMBERS
from companion.rules.errors import IllegalAction, Word
from companion.rules.frozen import replace
from companion.rules.state import (
    TROPHY_POINTS,
    EndReason,
    Event,
    EventKind,
    PendingChallenge,
    State,
    Window,
    joined_names,
    top_scorers,
    with_seat,
)

A = TypeVar("A", bound=Action)

MOST_IN_HAND = 100
"""docs/RULES.md 5: ``adjust X hand N`` runs from 0 to 100 in every game, whatever the box holds."""


@dataclass(frozen=True, slots=True)
class Rule(Generic[A]):
    check: Callable[[State, A], None]
    """Raises IllegalAction with the reason; returns nothing, so it stays cheap."""
    effect: Callable[[State, A], State]
    """Only ever called after ``check`` passed: it never refuses."""


RuleTable = Mapping[type[Action], Rule[Any]]
"""One game family's actions. An action missing from it is refused with the family's word for it."""


# --------------------------------------------------------------------------
# Checks


def check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise IllegalAction("there is no seat {number} at this table", number=seat + 1)


def check_turn(state: State, seat: int) -> None:
    check_seat(state, seat)
    if state.turn != seat:
        assert state.turn is not None
        raise IllegalAction("it is {name}'s turn, not {other}'s", name=state.name(state.turn), other=state.name(seat))


def check_turn_of(state: State, action: Pass | Draw) -> None:
    check_turn(state, action.seat)


def check_spice(state: State, spice: str | None) -> None:
    if spice not in state.profile.spices:
        raise IllegalAction(
            "{spice} is not a spice in {profile}; the spices are {spices}",
            spice=Word(str(spice)), profile=Word(state.profile.id), spices=tuple(map(Word, state.profile.spices)),
        )


def pending(state: State) -> tuple[PendingChallenge, Window]:
    if state.challenge is None or state.window is None:
        raise IllegalAction("no challenge is waiting to be decided")
    return state.challenge, state.window


def check_reveal(state: State, action: Reveal) -> None:
    """The card must be one the profile has: no wasabi in sweet-spicy, no numbers in five-spices."""
    pending(state)
    card = action.card
    profile = state.profile
    if card.wild is not None:
        if not profile.wild_cards:
            raise IllegalAction("{profile} has no {wild} cards", profile=Word(profile.id), wild=Word(card.wild))
        if card.spice is not None or card.number is not None:
            raise IllegalAction("a wild card has no spice or number of its own")
        return
    if card.spice is None:
        raise IllegalAction("name the revealed card's spice")
    check_spice(state, card.spice)
    if profile.numbered and card.number not in NUMBERS:
        raise IllegalAction("a revealed spice card has a number from 1 to 10")
    if not profile.numbered and card.number is not None:
        raise IllegalAction("five-spices cards have no numbers")


def check_resolve(state: State, action: Resolve) -> None:
    pending(state)


# --------------------------------------------------------------------------
# The table's correction, the same in every game


def check_adjust(state: State, action: Adjust) -> None:
    check_seat(state, action.seat)
    if action.count not in ("hand", "won"):
        raise IllegalAction("adjust sets hand or won")
    if action.count == "won" and not state.profile.numbered:
        raise IllegalAction("a won pile is not part of five-spices")
    if action.count == "hand" and not 0 <= action.value <= MOST_IN_HAND:
        raise IllegalAction("a hand holds 0 to {most} cards, not {value}", most=MOST_IN_HAND, value=action.value)
    most = state.profile.total_cards
    if not 0 <= action.value <= most:
        raise IllegalAction("a won pile holds 0 to {most} cards, not {value}", most=most, value=action.value)


def adjust(state: State, action: Adjust) -> State:
    """Set one drifted count; nothing else moves, and no window closes."""
    seat = state.seats[action.seat]
    if action.count == "hand":
        seat = replace(seat, hand=action.value, universals=min(seat.universals, action.value))
    else:
        seat = replace(seat, won=action.value, won_universals=min(seat.won_universals, action.value))
    state = replace(state, seats=with_seat(state.seats, action.seat, seat))
    text = f"{seat.name}'s {action.count} set to {action.value}"
    return tell(state, EventKind.ADJUST, action.seat, action.value, text)




def shared_rules(
    reveal: Callable[[State, Reveal], State], resolve: Callable[[State, Resolve], State]
) -> dict[type[Action], Rule[Any]]:
    """The rows every game's table has: a challenge is decided by the card or by the table's word, checked
    the same way everywhere (only what follows differs), and a count is adjusted the same way everywhere."""
    return {
        Reveal: Rule(check_reveal, reveal),
        Resolve: Rule(check_resolve, resolve),
        Adjust: Rule(check_adjust, adjust),
    }


# --------------------------------------------------------------------------
# Steps the actions share


def tell(state: State, kind: EventKind, seat: int | None, count: int, text: str) -> State:
    return replace(state, events=state.events + (Event(kind, seat, count, text),))


_DRAW_WORDS = {EventKind.PENALTY: "draws {n} penalty cards", EventKind.REFILL: "draws {n} new cards"}


def draw_cards(state: State, seat: int, count: int, kind: EventKind) -> State:
    """Cards come one at a time: needing one when none is above the World's End card ends the game there.

    Five-spices has no World's End card: the face-up pile but its top becomes the
    draw pile, and with nothing there either no card is drawn. ``kind`` says why
    the seat draws; a plain draw is told by the action itself.
    """
    draw_pile, stack = state.draw_pile, state.stack
    drawn = 0
    reshuffled = reached_end = False
    for _ in range(count):
        if draw_pile == 0:
            if state.profile.end_card:
                reached_end = True
                break
            if stack <= 1:
                break
            draw_pile, stack, reshuffled = stack - 1, 1, True
        draw_pile -= 1
        drawn += 1
    player = state.seats[seat]
    state = replace(
        state,
        draw_pile=draw_pile,
        stack=stack,
        seats=with_seat(state.seats, seat, replace(player, hand=player.hand + drawn)),
    )
    if reshuffled:
        state = tell(state, EventKind.RESHUFFLE, None, 0, "the face-up pile but its top card becomes the new draw pile")
    if kind in _DRAW_WORDS and drawn:
        state = tell(state, kind, seat, drawn, f"{player.name} " + _DRAW_WORDS[kind].format(n=drawn))
    return end(state, EndReason.END_CARD) if reached_end else state


def draw_one(closed: State, seat: int, kind: EventKind, text: str) -> State:
    """A pass, or a five-spices draw: one card, then the next seat's turn.

    ``closed`` is the state once the last window closed; when closing it ended
    the game, the pass or draw is not carried out.
    """
    if closed.ended:
        return closed
    state = tell(closed, kind, seat, 1, text)
    state = draw_cards(state, seat, 1, EventKind.DRAW)
    return state if state.ended else replace(state, turn=state.next_seat(seat))


def win_stack(state: State, seat: int, kind: EventKind) -> State:
    player = state.seats[seat]
    won = replace(
        player,
        won=player.won + state.stack,
        won_universals=player.won_universals + state.stack_universals,
    )
    count = state.stack
    state = replace(state, seats=with_seat(state.seats, seat, won), stack=0, stack_universals=0)
    verb = "raids" if kind == EventKind.RAID else "wins"
    return tell(state, kind, seat, count, f"{player.name} {verb} the stack of {count}")


def take_trophy(state: State, seat: int) -> State:
    """A second trophy wins outright, even when it is also the last one."""
    player = state.seats[seat]
    player = replace(player, trophies=player.trophies + 1)
    state = replace(state, seats=with_seat(state.seats, seat, player), trophies_left=state.trophies_left - 1)
    state = tell(state, EventKind.TROPHY, seat, 1, f"{player.name} takes a trophy (+{TROPHY_POINTS})")
    if player.trophies >= 2:
        return end(state, EndReason.SECOND_TROPHY, (seat,))
    if state.trophies_left == 0:
        return end(state, EndReason.ALL_TROPHIES)
    return state


def end(state: State, reason: EndReason, winners: tuple[int, ...] | None = None) -> State:
    if winners is None:
        winners = top_scorers(state)
    state = replace(state, ended=True, end_reason=reason, winners=winners, turn=None, window=None, challenge=None)
    return tell(state, EventKind.END, None, 0, f"the game is over ({end_words(state)})")


_END_WORDS = {
    EndReason.SECOND_TROPHY: "{w} took a second trophy",
    EndReason.ALL_TROPHIES: "the last trophy is taken; {w} wins",
    EndReason.END_CARD: "the World's End card showed; {w} wins",
    EndReason.EMPTY_HAND: "{w} emptied their hand",
}


def end_words(state: State) -> str:
    text = _END_WORDS[state.end_reason or EndReason.END_CARD].format(w=joined_names(state, state.winners))
    return text.replace(" wins", " share the win") if len(state.winners) > 1 else text
