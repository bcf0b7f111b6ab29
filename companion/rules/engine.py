"""The rules: ``apply(state, action)`` gives the next state or raises IllegalAction.

The game family picks the rule table (``numbered`` for spicy and sweet-spicy,
``five_spices``); each rule is a cheap check and an effect. ``is_legal`` runs the
same checks as ``apply``, so the claim pad, the hints and the simulations can
never offer an action that ``apply`` would refuse, or hide one it accepts.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules import five_spices, numbered
from companion.rules.actions import (
    Action,
    Adjust,
    AdjustDrawPile,
    Challenge,
    Copy,
    Draw,
    EndCardDrawn,
    Pass,
    Play,
    Resolve,
    Reveal,
    TakeUniversal,
)
from companion.rules.cards import Attribute
from companion.rules.errors import IllegalAction, Name, Word
from companion.rules.state import Draft, State
from companion.rules.steps import Rule, RuleTable, end_words

_FAMILIES: dict[bool, RuleTable] = {True: numbered.RULES, False: five_spices.RULES}
"""The rule table, by ``profile.numbered``."""

_NOT_IN_FAMILY: dict[type[Action], Callable[[State], IllegalAction]] = {
    Draw: lambda state: IllegalAction(
        "in {profile} a seat that does not play passes (and draws 1)", profile=Word(state.profile.id)
    ),
    Pass: lambda _: IllegalAction("pass (draw a card instead) is not part of five-spices"),
    Copy: lambda _: IllegalAction("copying a card needs the copy-cat variant"),
    TakeUniversal: lambda _: IllegalAction("five-spices has no universal cards"),
    EndCardDrawn: lambda _: IllegalAction("the World's End card is not part of five-spices"),
    AdjustDrawPile: lambda _: IllegalAction(
        "adjust draw-pile is not part of five-spices: its draw pile has no World's End card to count to"
    ),
}
"""Why a game action is missing from the table of the game being played."""

_WHILE_CHALLENGED = (Reveal, Resolve, Adjust, AdjustDrawPile)


def check(state: State, action: Action) -> Rule[Action]:
    """Refuse ``action`` with the reason, or return the rule that carries it out; builds no state."""
    if state.ended:
        raise IllegalAction("the game is over ({how}); only undo can reopen it", how=end_words(state))
    rule = _FAMILIES[state.profile.numbered].get(type(action))
    if rule is None and type(action) not in _NOT_IN_FAMILY:
        raise IllegalAction("{action} is not a game action here", action=action.keyword or type(action).__name__)
    if state.challenge is not None and not isinstance(action, _WHILE_CHALLENGED):
        raise IllegalAction(
            "{name}'s challenge is waiting: reveal the card or tell who was right first",
            name=Name(state.name(state.challenge.challenger)),
        )
    if rule is None:
        raise _NOT_IN_FAMILY[type(action)](state)
    rule.check(state, action)
    return rule


def is_legal(state: State, action: Action) -> bool:
    """Whether ``apply`` would accept ``action``: the same checks, without making the next state."""
    try:
        check(state, action)
    except IllegalAction:
        return False
    return True


def apply(state: State, action: Action) -> State:
    """The next state after ``action``; the old state is untouched either way."""
    rule = check(state, action)
    draft = Draft.of(state)
    if not isinstance(action, TakeUniversal):
        draft.may_take_universal = None  # the universal card may be taken only before the next action
    rule.effect(draft, action)
    return draft.state()


def challengers(state: State) -> frozenset[int]:
    """The seats that may challenge the card on top now (their buzzers are armed): every other seat in the
    numbered games, only the next one in five-spices; none while a challenge is under way or the game is over."""
    attribute: Attribute | None = "spice" if state.profile.numbered else None
    return frozenset(seat for seat in range(len(state.seats)) if is_legal(state, Challenge(seat, attribute)))


def legal_actions(state: State) -> list[Action]:
    """Every action ``apply`` accepts now, but the table's corrections (``adjust``, ``end-card-drawn``).

    A family's candidates are actions of its own table, and only reveals and resolves while a challenge
    waits: what ``check`` asks before it hands an action to its rule holds for every one of them, so each
    goes through its rule's own check alone, not through the whole of ``check`` again (a random move tries
    every candidate, a dozen or more a move). tests/test_rules_properties.py holds ``legal_actions`` to
    ``apply``'s verdict on every action a table could say.
    """
    if state.ended:
        return []
    family = numbered if state.profile.numbered else five_spices
    return [action for action in family.candidates(state) if _passes(family.RULES[type(action)], state, action)]


def _passes(rule: Rule[Action], state: State, action: Action) -> bool:
    try:
        rule.check(state, action)
    except IllegalAction:
        return False
    return True


def playable_claims(state: State) -> dict[str, tuple[int, ...]]:
    """Spice -> the numbers the seat to play can declare now, the stack's spice first: the legal claims less
    those ``apply`` would refuse as a play of either kind (from an empty hand, while a challenge waits), so
    the claim pad and the hint never offer a play the table then refuses. Empty in five-spices."""
    turn = state.turn
    if state.ended or turn is None or not state.profile.numbered:
        return {}
    found: dict[str, tuple[int, ...]] = {}
    for spice, numbers in numbered.legal_claims(state).items():
        playable = tuple(
            n for n in numbers
            if is_legal(state, Play(turn, spice, n)) or is_legal(state, Play(turn, spice, n, universal=True))
        )
        if playable:
            found[spice] = playable
    return found
