"""The engine's ``replace`` makes exactly what ``dataclasses.replace`` makes."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.random_play import random_game, random_setup
from companion.rules import State
from companion.rules.frozen import replace


def states(seed: int) -> list[State]:
    rng = random.Random(seed)
    game = random_game(rng, random_setup(rng), max_actions=60)
    return [step.state for step in game.steps()]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10_000), min_size=2, max_size=8))
def test_property_a_state_with_fields_of_another_is_the_one_dataclasses_replace_makes(seed: int, picks: list[int]) -> None:
    made = states(seed)
    old, other = made[picks[0] % len(made)], made[picks[1] % len(made)]
    names = [f.name for f in fields(State)]
    changes = {names[pick % len(names)]: getattr(other, names[pick % len(names)]) for pick in picks[2:]}
    new = replace(old, **changes)
    assert new == dataclasses.replace(old, **changes)
    assert type(new) is State and new is not old
    assert all(getattr(new, name) is changes.get(name, getattr(old, name)) for name in names)
    seat = old.seats[0]
    assert replace(seat, hand=seat.hand + 3) == dataclasses.replace(seat, hand=seat.hand + 3)


def test_a_field_that_is_not_there_is_refused_as_dataclasses_replace_refuses_it() -> None:
    state = states(1)[0]
    with pytest.raises(TypeError, match="no field 'hands'"):
        replace(state, hands=3)
    with pytest.raises(TypeError):
        dataclasses.replace(state, hands=3)


@dataclass(frozen=True)
class _One:
    only: int


@dataclass(frozen=True)
class _Counted:
    seen: int
    total: int = field(default=0, init=False)


def test_a_class_of_one_field_and_one_with_a_field_outside_init() -> None:
    assert replace(_One(1), only=2) == _One(2)
    with pytest.raises(TypeError, match="outside __init__"):
        replace(_Counted(1), seen=2)
