"""docs/RULES.md section 3 (`five-spices`) and its fine points."""

from __future__ import annotations

from rules_helpers import refused, seat, state

FIVE = "rules five-spices\nseats Ana Ben Cy"


def test_five_spices_110_cards_deal_5_and_one_starts_the_pile() -> None:
    s = state(header=FIVE)
    assert [x.hand for x in s.seats] == [5, 5, 5]
    assert (s.stack, s.draw_pile, s.claim) == (1, 110 - 15 - 1, None)
    assert s.cards_accounted() == 110


def test_five_spices_no_scores_no_trophies_no_won_piles() -> None:
    data = state("play Ana salt", header=FIVE).to_json()
    assert data["trophies_left"] is None
    assert [(x["won"], x["score"]) for x in data["seats"]] == [(0, None)] * 3
    assert data["claim"] == {"spice": "salt", "number": None}


def test_five_spices_play_names_any_spice() -> None:
    s = state("play Ana salt", "play Ben cinnamon", header=FIVE)
    assert (s.stack, str(s.claim), s.turn) == (3, "cinnamon", 2)
    assert "by its spice alone" in str(refused("play Ana salt 3", header=FIVE))


def test_five_spices_draw_is_a_turn_and_pass_does_not_exist() -> None:
    s = state("draw Ana", header=FIVE)
    assert (seat(s, "Ana").hand, s.draw_pile, s.turn) == (6, 93, 1)
    assert "not part of five-spices" in str(refused("pass Ana", header=FIVE))
    assert "passes" in str(refused("draw Ana"))


def test_five_spices_only_the_next_seat_may_challenge_as_its_turn() -> None:
    assert "only Ben" in str(refused("play Ana salt", "challenge Cy", header=FIVE))
    assert "no card to challenge" in str(refused("play Ana salt", "draw Ben", "challenge Cy", header=FIVE))
    assert "names no attribute" in str(refused("play Ana salt", "challenge Ben spice", header=FIVE))


def test_five_spices_claim_true_challenger_takes_the_card_and_draws_1() -> None:
    s = state("play Ana salt", "challenge Ben", "reveal salt", header=FIVE)
    assert (seat(s, "Ben").hand, seat(s, "Ana").hand, s.stack, s.claim) == (7, 4, 1, None)
    assert s.turn == 2  # the seat after the challenger


def test_five_spices_claim_false_player_takes_it_back_and_draws_2() -> None:
    s = state("play Ana salt", "challenge Ben", "reveal sugar", header=FIVE)
    assert (seat(s, "Ana").hand, seat(s, "Ben").hand, s.stack, s.turn) == (7, 5, 1, 2)


def test_five_spices_outcome_told_directly() -> None:
    s = state("play Ana salt", "challenge Ben", "resolve challenger", header=FIVE)
    assert seat(s, "Ana").hand == 7


def test_five_spices_reveal_with_a_number_refused() -> None:
    assert "no numbers" in str(refused("play Ana salt", "challenge Ben", "reveal salt 4", header=FIVE))
    assert "no wild-spice" in str(refused("play Ana salt", "challenge Ben", "reveal wild-spice", header=FIVE))


def test_five_spices_chain_the_player_plays_again_before_the_next_seat_acts() -> None:
    s = state("play Ana salt", "play Ana garlic", header=FIVE)
    assert (seat(s, "Ana").hand, s.stack, s.turn, str(s.claim)) == (3, 3, 1, "garlic")
    assert "Ana's turn" not in str(refused("play Ana salt", "draw Ben", "play Ana salt", header=FIVE))


def test_five_spices_last_card_wins_when_the_next_seat_acts_without_challenging() -> None:
    before = state("adjust Ana hand 1", "play Ana salt", header=FIVE)
    s = state("adjust Ana hand 1", "play Ana salt", "draw Ben", header=FIVE)
    assert (s.ended, s.end_reason, s.winners) == (True, "empty-hand", (0,))
    assert (seat(s, "Ben").hand, s.draw_pile) == (5, before.draw_pile)  # the draw was not carried out
    assert s.places() == (1, 2, 2)  # no scores: whoever did not win shares the next place


def test_five_spices_last_card_wins_when_the_challenge_proves_it_true() -> None:
    s = state("adjust Ana hand 1", "play Ana salt", "challenge Ben", "reveal salt", header=FIVE)
    assert (s.end_reason, s.winners, seat(s, "Ben").hand) == ("empty-hand", (0,), 7)


def test_five_spices_last_card_caught_goes_on() -> None:
    s = state("adjust Ana hand 1", "play Ana salt", "challenge Ben", "reveal pepper", header=FIVE)
    assert (s.ended, seat(s, "Ana").hand) == (False, 3)


def test_five_spices_empty_deck_the_pile_but_its_top_becomes_the_deck() -> None:
    plays = ["play Ana salt", "play Ben salt", "play Cy salt"]  # the pile holds 4
    names = ["Ana", "Ben", "Cy"]
    draws = [f"draw {names[i % 3]}" for i in range(94)]
    s = state(*plays, *draws, header=FIVE)
    assert (s.draw_pile, s.stack) == (0, 4)
    s = state(*plays, *draws, "draw Ben", header=FIVE)
    assert (s.draw_pile, s.stack, seat(s, "Ben").hand) == (2, 1, 4 + 31 + 1)
    assert any(e.kind == "reshuffle" for e in s.events)


def test_five_spices_empty_deck_and_nothing_to_reshuffle_draws_nothing() -> None:
    names = ["Ana", "Ben", "Cy"]
    draws = [f"draw {names[i % 3]}" for i in range(94)]
    s = state(*draws, header=FIVE)
    assert (s.draw_pile, s.stack) == (0, 1)
    hands = [x.hand for x in s.seats]
    after = state(*draws, f"draw {names[94 % 3]}", header=FIVE)
    assert [x.hand for x in after.seats] == hands
    assert after.turn == (94 % 3 + 1) % 3


def test_five_spices_has_no_variant_cards() -> None:
    assert "not five-spices" in str(refused(header=FIVE + "\nvariant copy-cat"))
