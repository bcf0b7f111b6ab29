"""The set-up's rules, before anything is saved: variants, seats, colours, buzzers, the World's End card."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import SPICY
from companion.ui.draft import Draft, SetupRefused
from companion.table.seating import Seating


def seated(*names: str) -> Draft:
    draft = Draft()
    for name in names:
        draft.add_seat(name)
    return draft


def test_two_variant_cards_at_most_and_none_in_the_five_spice_game() -> None:
    draft = Draft()
    draft.toggle_variant("copy-cat")
    draft.toggle_variant("turn-it-up")
    with pytest.raises(SetupRefused, match="At most two"):
        draft.toggle_variant("start-it-up")
    draft.toggle_variant("copy-cat")
    assert draft.variants == ["turn-it-up"]
    draft.choose_profile("five-spices")
    assert draft.variants == []
    with pytest.raises(SetupRefused, match="not the five-spice game"):
        draft.toggle_variant("copy-cat")


def test_names_are_kept_as_typed_but_must_be_new_and_on_one_line() -> None:
    draft = seated("[b]Zoë[/b] 🌶", "Ben")
    for name, reason in (("Ben", "already has a seat"), (" ", "needs a name"), ("A\nB", "needs a name")):
        with pytest.raises(SetupRefused, match=reason):
            draft.add_seat(name)
    draft = seated("A", "B", "C", "D", "E", "F")
    with pytest.raises(SetupRefused, match="Six seats at most"):
        draft.add_seat("G")
    assert draft.names == ["A", "B", "C", "D", "E", "F"] and draft.colours == [0, 1, 2, 3, 4, 5]


def test_seat_order_colours_and_buzzers_move_together() -> None:
    draft = seated("Ana", "Ben", "Cy")
    draft.bind_buzzer(0, 4)
    draft.next_colour(0)  # 1 and 2 are worn: Ana takes 3
    draft.move_later(2)  # the last seat swaps with the first
    assert (draft.names, draft.colours, draft.buzzers) == (["Cy", "Ben", "Ana"], [2, 1, 3], [None, None, 4])
    draft.bind_buzzer(1, 4)  # pressed again by Ben: Ana loses it
    assert draft.buzzers == [None, 4, None] and draft.unbound_seat() == 0
    assert draft.seating(buzzers=6) == Seating(colours=(2, 1, 3), buzzers=(0, 4, 1))


@given(st.integers(2, 6), st.integers(0, 1000))
def test_every_seat_gets_its_own_colour_and_buzzer(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    draft = seated(*[f"P{i}" for i in range(seats)])
    for _ in range(10):
        draft.next_colour(rng.randrange(seats))
        draft.bind_buzzer(rng.randrange(seats), rng.randrange(6))
    seating = draft.seating(buzzers=6)
    assert len(set(seating.colours)) == seats and len(set(seating.buzzers)) == seats
    assert all(0 <= b < 6 for b in seating.buzzers)


def test_the_world_end_card_defaults_by_seats_and_stays_in_range() -> None:
    draft = seated("Ana", "Ben", "Cy")
    assert draft.end_card_value() == SPICY.default_end_card(3) == 27
    draft.adjust_end_card(+2)
    assert draft.end_card_value() == 29
    draft.add_seat("Dee")  # the default for four seats again
    assert draft.end_card_value() == 25
    for _ in range(200):
        draft.adjust_end_card(-1)
    assert draft.end_card_value() == 0
    for _ in range(200):
        draft.adjust_end_card(+1)
    assert draft.end_card_value() == 100 - 6 * 4


def test_the_setup_needs_two_seats_and_a_first_player() -> None:
    draft = seated("Ana")
    with pytest.raises(SetupRefused, match="Two seats at least"):
        draft.setup()
    draft.add_seat("Ben")
    with pytest.raises(SetupRefused, match="Choose who plays first"):
        draft.setup()
    first = draft.draw_first(random.Random(3))
    setup = draft.setup()
    assert (setup.names, setup.first, setup.end_card) == (("Ana", "Ben"), first, 29)
    draft.choose_profile("five-spices")
    assert draft.setup().end_card == 0


def test_the_house_option_reaches_the_setup_and_leaves_with_the_numbered_games() -> None:
    draft = seated("Ana", "Ben")
    draft.first = 0
    draft.choose_start_after_challenge("winner")
    assert draft.setup().start_after_challenge == "winner"
    draft.choose_profile("five-spices")
    assert draft.setup().start_after_challenge == "loser"
    with pytest.raises(SetupRefused, match="seat after the challenger"):
        draft.choose_start_after_challenge("winner")


def test_a_seat_pressing_its_buzzer_twice_keeps_it_and_pairing_moves_on() -> None:
    draft = seated("Ana", "Ben", "Cy")
    assert draft.press_buzzer(4) == 0
    assert draft.press_buzzer(4) is None  # Ana again, eagerly: nothing changes, Ben is still asked
    assert draft.buzzers == [4, None, None] and draft.unbound_seat() == 1
    assert draft.press_buzzer(2) == 1 and draft.press_buzzer(0) == 2
    assert draft.press_buzzer(5) is None and draft.buzzers == [4, 2, 0]  # every seat has one
