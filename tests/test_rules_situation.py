"""The situation "How to play" starts on at the table: worked cases, and over random legal games (hypothesis)
every claim it names is one the rules accept, and every play they accept is named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rules_helpers import state
from test_rules_properties import PROPERTY, random_game, setups

from companion.rules import Challenge, Claim, Draw, Pass, Play, is_legal, situation
from companion.rules.cards import NUMBERS


def test_a_chili_7_on_the_stack_takes_a_higher_chili_or_a_pass() -> None:
    now = situation(state("play Ana chili 2", "play Ben chili 7"))
    assert now.claim == Claim("chili", 7) and now.stack == 2 and now.seat == 2
    assert now.claims == (("chili", (8, 9, 10)),) and not now.any_claim and now.may_pass
    assert now.challenged == 1 and now.challengers == {0, 2}


def test_a_new_stack_takes_1_2_or_3_of_any_spice() -> None:
    now = situation(state())
    assert now.claim is None and now.stack == 0 and now.any_claim and now.challenged is None
    assert now.claims == tuple((spice, (1, 2, 3)) for spice in ("chili", "wasabi", "pepper"))


def test_after_a_10_the_same_spice_starts_again() -> None:
    now = situation(state("play Ana pepper 3", "play Ben pepper 10"))
    assert now.claims == (("pepper", (1, 2, 3)),) and not now.any_claim


def test_start_it_up_adds_1_to_3_after_an_8() -> None:
    header = "rules spicy\nvariant start-it-up\nseats Ana Ben Cy\nend-card 27"
    now = situation(state("play Ana wasabi 3", "play Ben wasabi 8", header=header))
    assert now.claims == (("wasabi", (1, 2, 3, 9, 10)),)


def test_a_challenge_waiting_names_no_claim_and_no_challenger() -> None:
    now = situation(state("play Ana chili 2", "challenge Cy number"))
    assert now.challenge_waiting and now.claims == () and now.challenged is None and not now.challengers


def test_sweet_and_spicy_starter_after_a_challenge_may_not_pass() -> None:
    header = "rules sweet-spicy\nseats Ana Ben Cy\nend-card 27"
    now = situation(state("play Ana lemon 2", "challenge Ben spice", "reveal chili 2", header=header))
    assert now.seat == 0 and now.claim is None and not now.may_pass and now.any_claim  # Ana lied, lost: Ana starts


def test_five_spices_names_the_next_seat_as_the_one_challenger() -> None:
    header = "rules five-spices\nseats Ana Ben Cy"
    now = situation(state("play Ana salt", header=header))
    assert not now.numbered and now.claim == Claim("salt") and now.claims == ()
    assert now.challenged == 0 and now.challengers == {1} and now.may_pass


def test_the_end_names_nobody_to_play() -> None:
    now = situation(state("end-card-drawn"))
    assert now.ended and now.claims == () and not now.may_pass and now.challenged is None


@PROPERTY
@given(st.data(), st.sampled_from(["spicy", "sweet-spicy", "five-spices"]))
def test_property_the_situation_names_exactly_what_the_rules_accept(data: st.DataObject, profile_id: str) -> None:
    setup = data.draw(setups(profile_id))
    for game in random_game(data.draw, setup, 60):
        now_state = game.state
        now = situation(now_state)
        assert now.claim == now_state.claim and now.stack == now_state.stack
        named = {(spice, n) for spice, numbers in now.claims for n in numbers}
        seat = now.seat
        if seat is None:
            assert not named and not now.may_pass and not now.challengers
            continue
        accepted = {
            (spice, n) for spice in setup.profile.spices for n in NUMBERS
            if is_legal(now_state, Play(seat, spice, n)) or is_legal(now_state, Play(seat, spice, n, universal=True))
        } if setup.profile.numbered else set()
        assert named == accepted  # every claim named is accepted, and every accepted claim is named
        assert now.may_pass == is_legal(now_state, (Pass if setup.profile.numbered else Draw)(seat))
        attribute = "spice" if setup.profile.numbered else None
        assert now.challengers == {s for s in range(len(setup.names)) if is_legal(now_state, Challenge(s, attribute))}
        if now.challengers:
            assert now_state.window is not None and now.challenged == now_state.window.player
            assert now.challenged not in now.challengers
        if now.any_claim:
            assert named == {(spice, n) for spice in setup.profile.spices for n in (1, 2, 3)}
