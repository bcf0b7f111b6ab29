"""Invariants of the variant cards over random legal games (hypothesis): four-is-any, chili-reverses, and
Sweet & Spicy's starter who must play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_rules_properties import PROPERTY, random_game

from companion.rules import (
    PROFILES,
    VARIANTS,
    Card,
    Copy,
    Direction,
    EventKind,
    Pass,
    Play,
    Reveal,
    Setup,
    Variant,
    apply,
    is_legal,
    new_setup,
)

NUMBERED = st.sampled_from(["spicy", "sweet-spicy"])


@st.composite
def setups_with(draw: st.DrawFn, profile_id: str, card: Variant | None) -> Setup:
    """A random numbered game with ``card`` in play, and maybe one more card beside it."""
    profile = PROFILES[profile_id]
    seats = draw(st.integers(2, 6))
    others = sorted(v for v in VARIANTS if v != card)
    variants = {card} if card else set()
    variants |= set(draw(st.lists(st.sampled_from(others), max_size=1 if card else 2, unique=True)))
    return new_setup(
        profile,
        [f"P{i}" for i in range(seats)],
        draw(st.integers(0, profile.spice_cards - profile.hand_size * seats)),
        first=draw(st.integers(0, seats - 1)),
        variants=variants,
        start_after_challenge=draw(st.sampled_from(["loser", "winner"])),
    )


@PROPERTY
@given(st.data(), NUMBERED)
def test_property_four_is_any_a_revealed_4_survives_every_number_challenge_and_no_spice_one(
    data: st.DataObject, profile_id: str
) -> None:
    setup = data.draw(setups_with(profile_id, Variant.FOUR_IS_ANY))
    for game in random_game(data.draw, setup, 150):
        state = game.state
        if state.challenge is None or state.window is None or state.window.universal:
            continue
        window, challenge = state.window, state.challenge
        for spice in setup.profile.spices:
            after = apply(state, Reveal(Card(spice, 4)))
            winner = next(e.seat for e in after.events if e.kind == EventKind.CHALLENGE_WON)
            spice_lie = spice != window.claim.spice
            challenger_right = challenge.attribute == "spice" and spice_lie
            assert winner == (challenge.challenger if challenger_right else window.player)


def direction_after(before: Direction, claim_spice: str | None, reverses: bool) -> Direction:
    if reverses and claim_spice == "chili":
        return Direction.COUNTER_CLOCKWISE if before == Direction.CLOCKWISE else Direction.CLOCKWISE
    return before


@PROPERTY
@given(st.data(), NUMBERED, st.booleans())
def test_property_chili_reverses_the_direction_turns_exactly_at_each_chili_and_the_turn_follows_it(
    data: st.DataObject, profile_id: str, with_card: bool
) -> None:
    setup = data.draw(setups_with(profile_id, Variant.CHILI_REVERSES if with_card else None))
    reverses = Variant.CHILI_REVERSES in setup.variants
    games = random_game(data.draw, setup, 150)
    for before, after in zip(games, games[1:], strict=False):
        move, old, new = after.current.move, before.state, after.state
        if new.ended:  # a play that closed a window ending the game is not carried out
            continue
        if isinstance(move, Play | Copy):
            spice = move.spice if isinstance(move, Play) else (old.window.claim.spice if old.window else None)
            assert new.direction == direction_after(old.direction, spice, reverses)
        else:
            assert new.direction == old.direction
        if isinstance(move, Play | Copy | Pass):
            step = 1 if new.direction == Direction.CLOCKWISE else -1
            assert new.turn == (move.seat + step) % len(new.seats)
        if not reverses:
            assert new.direction == Direction.CLOCKWISE


@PROPERTY
@given(st.data())
def test_property_sweet_spicy_the_starter_after_a_challenge_plays_before_it_may_pass(data: st.DataObject) -> None:
    setup = data.draw(setups_with("sweet-spicy", None))
    starter: int | None = None
    games = random_game(data.draw, setup, 150)
    for game in games[1:]:
        state, move = game.state, game.current.move
        if isinstance(move, Play) and move.seat == starter:
            starter = None
        if any(e.kind == EventKind.CHALLENGE_WON for e in state.events):
            starter = state.turn
        if state.ended or starter is None or state.challenge is not None:
            continue
        assert state.turn == starter
        assert is_legal(state, Pass(starter)) == (state.seats[starter].hand == 0)
