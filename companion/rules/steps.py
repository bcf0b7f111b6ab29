"""What every game family shares: the rule table's shape, the common checks, and
the steps actions are made of (drawing, winning the stack, trophies, the end).

A rule is a check and an effect. The check raises IllegalAction and builds no
state; the effect never refuses, and carries the action out on the draft of the
next state (``state.Draft``), step by step. ``engine.apply`` runs both and
``engine.legal_actions`` only the check, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.rules.actions import Action, Adjust, Draw, Pass, Resolve, Reveal
from companion.rules.cards import NUMBERS
from companion.rules.errors import IllegalAction, Name, Word
from companion.rules.frozen import replace
from companion.rules.state import (
    TROPHY_POINTS,
    Draft,
    EndReason,
    EventKind,
    PendingChallenge,
    State,
    Window,
    joined_names,
    top_scorers,
)

A = TypeVar("A", bound=Action)

MOST_IN_HAND = 100
"""docs/RULES.md 5: ``adjust X hand N`` runs from 0 to 100 in every game, whatever the box holds."""


@dataclass(frozen=True, slots=True)
class Rule(Generic[A]):
    check: Callable[[State, A], None]
    """Raises IllegalAction with the reason; returns nothing, so it stays cheap."""
    effect: Callable[[Draft, A], None]
    """Carries the action out on the draft; only ever called after ``check`` passed: it never refuses."""


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
        raise IllegalAction("it is {name}'s turn, not {other}'s", name=Name(state.name(state.turn)), other=Name(state.name(seat)))


def check_turn_of(state: State, action: Pass | Draw) -> None:
    check_turn(state, action.seat)


def check_spice(state: State, spice: str | None) -> None:
    if spice not in state.profile.spices:
        raise IllegalAction(
            "{spice} is not a spice in {profile}; the spices are {spices}",
            spice=Word(str(spice)), profile=Word(state.profile.id), spices=tuple(map(Word, state.profile.spices)),
        )


def pending(state: State | Draft) -> tuple[PendingChallenge, Window]:
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


def adjust(draft: Draft, action: Adjust) -> None:
    """Set one drifted count; nothing else moves, and no window closes."""
    seat = draft.seats[action.seat]
    if action.count == "hand":
        seat = replace(seat, hand=action.value, universals=min(seat.universals, action.value))
    else:
        seat = replace(seat, won=action.value, won_universals=min(seat.won_universals, action.value))
    draft.set_seat(action.seat, seat)
    draft.tell(EventKind.ADJUST, action.seat, action.value, f"{seat.name}'s {action.count} set to {action.value}")




def shared_rules(
    reveal: Callable[[Draft, Reveal], None], resolve: Callable[[Draft, Resolve], None]
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


_DRAW_WORDS = {EventKind.PENALTY: "draws {n} penalty cards", EventKind.REFILL: "draws {n} new cards"}


def draw_cards(draft: Draft, seat: int, count: int, kind: EventKind) -> None:
    """Cards come one at a time: needing one when none is above the World's End card ends the game there.

    Five-spices has no World's End card: the face-up pile but its top becomes the
    draw pile, and with nothing there either no card is drawn. ``kind`` says why
    the seat draws; a plain draw is told by the action itself.
    """
    draw_pile, stack = draft.draw_pile, draft.stack
    drawn = 0
    reshuffled = reached_end = False
    for _ in range(count):
        if draw_pile == 0:
            if draft.profile.end_card:
                reached_end = True
                break
            if stack <= 1:
                break
            draw_pile, stack, reshuffled = stack - 1, 1, True
        draw_pile -= 1
        drawn += 1
    player = draft.seats[seat]
    draft.draw_pile, draft.stack = draw_pile, stack
    draft.set_seat(seat, replace(player, hand=player.hand + drawn))
    if reshuffled:
        draft.tell(EventKind.RESHUFFLE, None, 0, "the face-up pile but its top card becomes the new draw pile")
    if kind in _DRAW_WORDS and drawn:
        draft.tell(kind, seat, drawn, f"{player.name} " + _DRAW_WORDS[kind].format(n=drawn))
    if reached_end:
        end(draft, EndReason.END_CARD)


def draw_one(draft: Draft, seat: int, kind: EventKind, text: str) -> None:
    """A pass, or a five-spices draw: one card, then the next seat's turn.

    The caller has closed the last window; when closing it ended the game, the
    pass or draw is not carried out.
    """
    if draft.ended:
        return
    draft.tell(kind, seat, 1, text)
    draw_cards(draft, seat, 1, EventKind.DRAW)
    if not draft.ended:
        draft.turn = draft.next_seat(seat)


def win_stack(draft: Draft, seat: int, kind: EventKind) -> None:
    player = draft.seats[seat]
    count = draft.stack
    draft.set_seat(seat, replace(player, won=player.won + count, won_universals=player.won_universals + draft.stack_universals))
    draft.stack = draft.stack_universals = 0
    verb = "raids" if kind == EventKind.RAID else "wins"
    draft.tell(kind, seat, count, f"{player.name} {verb} the stack of {count}")


def take_trophy(draft: Draft, seat: int) -> None:
    """A second trophy wins outright, even when it is also the last one."""
    player = draft.seats[seat]
    player = replace(player, trophies=player.trophies + 1)
    draft.set_seat(seat, player)
    draft.trophies_left -= 1
    draft.tell(EventKind.TROPHY, seat, 1, f"{player.name} takes a trophy (+{TROPHY_POINTS})")
    if player.trophies >= 2:
        end(draft, EndReason.SECOND_TROPHY, (seat,))
    elif draft.trophies_left == 0:
        end(draft, EndReason.ALL_TROPHIES)


def end(draft: Draft, reason: EndReason, winners: tuple[int, ...] | None = None) -> None:
    draft.ended, draft.end_reason = True, reason
    draft.winners = top_scorers(draft) if winners is None else winners
    draft.turn = draft.window = draft.challenge = None
    draft.tell(EventKind.END, None, 0, f"the game is over ({end_words(draft)})")


_END_WORDS = {
    EndReason.SECOND_TROPHY: "{w} took a second trophy",
    EndReason.ALL_TROPHIES: "the last trophy is taken; {w} wins",
    EndReason.END_CARD: "the World's End card showed; {w} wins",
    EndReason.EMPTY_HAND: "{w} emptied their hand",
}


def end_words(state: State | Draft) -> str:
    text = _END_WORDS[state.end_reason or EndReason.END_CARD].format(w=joined_names(state, state.winners))
    return text.replace(" wins", " share the win") if len(state.winners) > 1 else text
