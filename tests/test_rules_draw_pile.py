"""docs/RULES.md 6: ``adjust draw-pile N``, the table's count of the cards above the World's End card."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rules_helpers import game, refused, state
from test_rules_properties import PROPERTY, random_game, setups

from companion.rules import AdjustDrawPile, Pass, Undo, action_from_dict, format_action, is_legal, replay_transcript


def test_adjust_draw_pile_sets_the_count_and_nothing_else() -> None:
    before = state("play Ana chili 2")
    after = state("play Ana chili 2", "adjust draw-pile 12")
    assert after.draw_pile == 12
    assert (after.seats, after.stack, after.turn, after.window, after.claim) == (
        before.seats, before.stack, before.turn, before.window, before.claim
    )
    assert after.to_json()["deck"] == 12


def test_adjust_draw_pile_0_ends_nothing_until_a_seat_draws() -> None:
    s = state("adjust draw-pile 0")
    assert not s.ended and s.turn == 0
    s = state("adjust draw-pile 0", "pass Ana")
    assert (s.ended, s.end_reason, s.draw_pile) == (True, "end-card", 0)


def test_adjust_draw_pile_corrects_the_companion_before_it_ends_the_game_on_its_own_count() -> None:
    s = state("adjust draw-pile 1", "pass Ana", "adjust draw-pile 3", "pass Ben")
    assert (s.ended, s.draw_pile, s.turn) == (False, 2, 2)


def test_adjust_draw_pile_while_a_challenge_waits_and_it_is_undone_like_any_action() -> None:
    s = state("play Ana chili 2", "challenge Ben spice", "adjust draw-pile 30")
    assert (s.draw_pile, s.challenge is not None) == (30, True)
    assert state("play Ana chili 2", "adjust draw-pile 30", "undo").draw_pile == 55


def test_adjust_draw_pile_refused_out_of_range_in_five_spices_and_badly_written() -> None:
    assert "0 to 73 cards above the World's End card, not 74" in str(refused("adjust draw-pile 74"))
    five = "rules five-spices\nseats Ana Ben"
    assert "not part of five-spices" in str(refused("adjust draw-pile 3", header=five))
    assert "adjust draw-pile N" in str(refused("adjust pile 3"))


def test_adjust_draw_pile_a_seat_named_draw_pile_is_still_adjusted_by_its_name() -> None:
    s = state("adjust draw-pile hand 3", "adjust draw-pile 9", header="rules spicy\nseats Ana draw-pile")
    assert (s.seats[1].hand, s.draw_pile) == (3, 9)


def test_adjust_draw_pile_is_written_read_and_stored_as_it_was_said() -> None:
    played = game("adjust draw-pile 7")
    assert format_action(played.setup, AdjustDrawPile(7)) == "adjust draw-pile 7"
    assert action_from_dict(AdjustDrawPile(7).to_dict()) == AdjustDrawPile(7)
    text = "rules spicy\nseats Ana Ben Cy\nend-card 27\nadjust draw-pile 7\n"
    assert replay_transcript(text).state == played.state


@PROPERTY
@given(st.data(), st.sampled_from(["spicy", "sweet-spicy"]), st.integers(0, 40))
def test_property_adjust_draw_pile_sets_only_the_draw_pile_and_undo_takes_it_back(
    data: st.DataObject, profile_id: str, value: int
) -> None:
    setup = data.draw(setups(profile_id))
    played = random_game(data.draw, setup, 60)[-1]
    if played.state.ended:
        return
    before = played.state
    adjusted = played.apply(AdjustDrawPile(value))
    after = adjusted.state
    assert after.draw_pile == value
    assert (after.seats, after.stack, after.turn, after.window, after.claim, after.challenge, after.ended) == (
        before.seats, before.stack, before.turn, before.window, before.claim, before.challenge, False
    )
    assert adjusted.apply(Undo()).state == before
    if after.turn is not None and value == 0 and is_legal(after, Pass(after.turn)):
        assert adjusted.apply(Pass(after.turn)).state.ended  # the next draw finds the World's End card



@pytest.mark.parametrize(("header", "play"), [
    ("rules spicy\nseats Ana Ben Cy\nend-card 27", "play Ana chili 1"),
    ("rules sweet-spicy\nseats Ana Ben Cy\nend-card 27", "play Ana chili 1"),
    ("rules five-spices\nseats Ana Ben Cy", "play Ana pepper"),
])
def test_adjust_hand_runs_from_0_to_100_in_every_game_and_says_so_at_that_line(header: str, play: str) -> None:
    assert state("adjust Ana hand 100", header=header).seats[0].hand == 100
    assert "a hand holds 0 to 100 cards, not 101" in str(refused(play, "adjust Ben hand 101", header=header))
