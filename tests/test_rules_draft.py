"""A draft of the next state has the fields of ``State``, and gives back the state it was made from."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from typing import get_type_hints

from companion.random_play import random_game, random_setup
from companion.rules import EventKind, State
from companion.rules.state import Draft


def test_a_draft_has_the_fields_of_a_state_in_their_order_with_their_types() -> None:
    draft, state = get_type_hints(Draft), get_type_hints(State)
    assert [(f.name, draft[f.name]) for f in fields(Draft)] == [(f.name, state[f.name]) for f in fields(State)]


def test_a_draft_left_alone_makes_the_state_it_came_from_with_no_events() -> None:
    rng = random.Random(3)
    states = [step.state for seed in range(5) for step in random_game(rng, random_setup(rng)).steps()]
    assert any(state.events for state in states)
    for state in states:
        assert Draft.of(state).state() == replace(state, events=())


def test_a_draft_changes_and_the_state_it_came_from_does_not() -> None:
    rng = random.Random(4)
    state = random_game(rng, random_setup(rng), max_actions=20).state
    before = replace(state)
    draft = Draft.of(state)
    draft.stack += 3
    draft.set_seat(1, replace(state.seats[1], hand=42))
    draft.tell(EventKind.ADJUST, 1, 42, "a test")
    made = draft.state()
    assert (made.stack, made.seats[1].hand, made.seats[0], len(made.events)) == (
        state.stack + 3, 42, state.seats[0], 1
    )
    assert state == before
