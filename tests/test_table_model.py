"""The table model against the engine, without a window: random legal games in every profile and variant.

At every step the model must offer exactly what ``apply`` accepts (claims,
copies, challenges) and show the counts the rules keep (scores, draw pile).
"""

from __future__ import annotations

import random
import sys
from contextlib import suppress

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.random_play import random_action
from companion.rules import (
    PROFILES,
    VARIANTS,
    Action,
    Challenge,
    Copy,
    Draw,
    Game,
    IllegalAction,
    Card,
    Pass,
    Play,
    Redo,
    Reveal,
    State,
    Undo,
    Variant,
    apply,
    is_legal,
    new_setup,
    replay_transcript,
)
from companion.table.model import Buzz, TableModel, outcome, table_model
from companion.ui.words import hint_words

COMBINATIONS = [(profile, None) for profile in sorted(PROFILES)] + [
    (profile, variant) for profile in sorted(PROFILES) if PROFILES[profile].numbered for variant in sorted(VARIANTS)
]
"""Every profile with no variant card, and each numbered profile with each variant card."""


def accepted(state: State, action: Action) -> bool:
    with suppress(IllegalAction):
        apply(state, action)
        return True
    return False


def formula_score(state: State, seat: int) -> int:
    """docs/RULES.md: won cards +1, trophies +10, cards in hand -1; a universal card counts 5 either way."""
    s = state.seats[seat]
    won_spice, hand_spice = s.won - s.won_universals, s.hand - s.universals
    return won_spice + 5 * s.won_universals + 10 * s.trophies - hand_spice - 5 * s.universals


def assert_agrees(model: TableModel, game: Game) -> None:
    state = game.state
    seats = range(len(state.seats))
    attribute = "spice" if state.profile.numbered else None
    assert model.armed == {i for i in seats if accepted(state, Challenge(i, attribute))}
    assert [s.can_copy for s in model.seat_models] == [accepted(state, Copy(i)) for i in seats]
    assert model.draw_pile == state.draw_pile and model.stack == state.stack
    assert model.turn == (-1 if state.turn is None else state.turn)
    # no spice is chosen for a new stack; on a stack, the claim pad starts on the spice the claim follows
    assert model.stack_spice == ("" if state.claim is None or state.claim.spice not in model.legal
                                 else state.claim.spice)
    passes = Pass if state.profile.numbered else Draw
    assert model.can_pass == (state.turn is not None and accepted(state, passes(state.turn)))
    assert model.hint.may_pass == (state.turn is None or not state.profile.numbered or model.can_pass)
    assert model.direction == (state.direction if Variant.CHILI_REVERSES in state.setup.variants else "")
    if state.profile.numbered:
        assert [s.score for s in model.seat_models] == [formula_score(state, i) for i in seats]
        assert all(s.score_parts is not None and s.score_parts.total == s.score for s in model.seat_models)
        if model.turn >= 0:
            offered = {(spice, n) for spice, numbers in model.legal.items() for n in numbers}
            assert offered == {
                (spice, n) for spice in state.profile.spices for n in range(1, 11)
                # apply's own checks, no state made: as a spice card, or as a universal one
                if is_legal(state, Play(model.turn, spice, n)) or is_legal(state, Play(model.turn, spice, n, True))
            }
            assert {(spice, n) for spice, numbers in model.hint.claims for n in numbers} == offered
    else:
        assert all(s.score is None and s.score_parts is None for s in model.seat_models)
        assert model.legal == {}


@pytest.mark.parametrize(("profile_id", "variant"), COMBINATIONS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, sys.maxsize), seats=st.integers(2, 6), first=st.integers(0, 5))
def test_property_the_model_agrees_with_the_engine_at_every_step(
    profile_id: str, variant: str | None, seed: int, seats: int, first: int
) -> None:
    profile = PROFILES[profile_id]
    setup = new_setup(profile, [f"P{i}" for i in range(seats)], first=first % seats,
                      variants=[variant] if variant else [])
    rng, game = random.Random(seed), Game.start(setup)
    assert table_model(game).draw_pile_start == game.state.draw_pile
    while not game.state.ended and len(game.log) < 80:
        model = table_model(game)
        assert_agrees(model, game)
        if model.window_entry is not None:  # the card on top is named by the action that laid it
            assert isinstance(game.log[model.window_entry], (Play, Copy))
        if model.window and model.armed:  # someone buzzes: nobody is armed on screen until it is called
            buzzed = table_model(game, Buzz(min(model.armed)))
            assert not any(s.armed for s in buzzed.seat_models) and buzzed.armed == model.armed
            assert [s.challenger for s in buzzed.seat_models] == [i == min(model.armed) for i in range(seats)]
        before = game.state
        action = random_action(game, rng)
        game = game.apply(action)
        decided = outcome(before, game.state, action)
        if decided is not None:
            assert decided.winner != decided.loser
            assert sum(decided.won_gain) + sum(decided.hand_gain) >= 0


def test_the_card_on_top_is_named_by_its_place_in_the_log_through_undo_and_redo() -> None:
    game = Game.start(new_setup(PROFILES["spicy"], ["Ana", "Ben", "Cy"]))
    game = game.apply(Play(0, "chili", 1)).apply(Play(1, "chili", 2))
    assert table_model(game).window_entry == 1
    assert table_model(game.apply(Undo())).window_entry == 0  # Ana's card is on top again
    assert table_model(game.apply(Undo()).apply(Redo())).window_entry == 1  # the same card, redone
    assert table_model(game.apply(Undo()).apply(Play(1, "chili", 3))).window_entry == 3  # a new card
    won = game.apply(Challenge(2, "spice")).apply(Reveal(Card("wasabi", 2)))
    assert table_model(won).window_entry is None  # the stack is won: no card on top


def test_a_chained_card_of_the_same_spice_is_a_window_of_its_own() -> None:
    """Five-spices: a chain of the same spice leaves a window equal to the one below it; it is still
    another card, and a decision on the card below must not reach it."""
    game = Game.start(new_setup(PROFILES["five-spices"], ["Ana", "Ben", "Cy"]))
    game = game.apply(Play(0, "salt"))
    chained = game.apply(Play(0, "salt"))
    assert chained.state.window == game.state.window  # the same seat, the same claim
    assert (table_model(game).window_entry, table_model(chained).window_entry) == (0, 1)
    assert table_model(chained.apply(Undo())).window_entry == 0


def test_a_challenge_waiting_may_move_to_the_card_of_the_seat_to_play_unless_that_seat_holds_it() -> None:
    game = Game.start(new_setup(PROFILES["spicy"], ["Ana", "Ben", "Cy"])).apply(Play(0, "chili", 1))
    assert table_model(game).move_to == -1  # nobody has buzzed
    assert table_model(game, Buzz(2)).move_to == 1  # Cy's buzz may be for the card Ben has laid
    assert table_model(game, Buzz(1)).move_to == -1  # Ben's buzz cannot be for his own card
    five = Game.start(new_setup(PROFILES["five-spices"], ["Ana", "Ben", "Cy"])).apply(Play(0, "salt"))
    assert table_model(five, Buzz(1)).move_to == -1  # five-spices calls at once: no sheet waits


def test_the_model_the_link_and_the_layout_import_no_kivy() -> None:
    """So they, and these tests, run without a window."""
    import subprocess

    code = ("import sys, companion.table.model, companion.table.link, companion.table.layout;"
            " print(any(m.startswith('kivy') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


@pytest.mark.parametrize("lines", [
    ("rules spicy", "seats Ana Ben Cy", "adjust Ana hand 0"),
    ("rules sweet-spicy", "seats Ana Ben Cy", "play Ana pepper 2", "challenge Ben number", "reveal pepper 5",
     "adjust Ana hand 0"),
])
def test_an_empty_hand_is_hinted_to_pass_as_the_engine_refuses_its_plays(lines: tuple[str, ...]) -> None:
    game = replay_transcript("\n".join(lines))
    hint = table_model(game).hint
    assert (hint.seat, hint.claims, hint.any_claim, hint.may_pass) == (0, (), False, True)
    assert hint_words(hint, game.setup.names) == "No card to play: pass"


def test_while_a_challenge_waits_the_hint_offers_no_play() -> None:
    game = replay_transcript("rules spicy\nseats Ana Ben Cy\nplay Ana chili 2\nchallenge Cy spice")
    hint = table_model(game).hint
    assert (hint.seat, hint.claims, hint.may_pass) == (1, (), False)
    assert hint_words(hint, game.setup.names) == "once the challenge is decided"
