"""docs/RULES.md section 2 (`sweet-spicy`) and its fine points."""

from __future__ import annotations

from rules_helpers import refused, scores, seat, state

SWEET = "rules sweet-spicy\nseats Ana Ben Cy\nend-card 27"


def test_sweet_spicy_spices_are_chili_lemon_pepper() -> None:
    assert str(state("play Ana lemon 2", header=SWEET).claim) == "lemon 2"
    assert "wasabi is not a spice in sweet-spicy" in str(refused("play Ana wasabi 2", header=SWEET))


def test_sweet_spicy_each_seat_starts_with_6_spice_cards_and_1_universal() -> None:
    s = state(header=SWEET)
    assert [(x.hand, x.universals) for x in s.seats] == [(7, 1)] * 3
    assert s.universal_pile == 3  # 6 - seats
    assert s.draw_pile == 100 - 18 - 27  # spice cards only


def test_sweet_spicy_universal_played_as_any_legal_claim() -> None:
    s = state("play Ana universal pepper 3", header=SWEET)
    ana = seat(s, "Ana")
    assert (ana.hand, ana.universals, s.stack, s.stack_universals, str(s.claim)) == (6, 0, 1, 1, "pepper 3")
    assert "must declare" in str(refused("play Ana universal pepper 4", header=SWEET))


def test_sweet_spicy_universal_play_needs_a_universal_in_hand() -> None:
    error = refused("play Ana universal pepper 3", "pass Ben", "pass Cy", "play Ana universal pepper 5", header=SWEET)
    assert "Ana has no universal card in hand" in str(error)


def test_sweet_spicy_plain_play_needs_a_spice_card() -> None:
    error = refused("adjust Ana hand 1", "play Ana chili 1", header=SWEET)
    assert "only universal cards" in str(error)


def test_sweet_spicy_universal_always_wins_its_challenge_at_once() -> None:
    s = state("play Ana chili 1", "play Ben universal chili 4", "challenge Cy number", header=SWEET)
    assert s.challenge is None
    assert (seat(s, "Ben").won, seat(s, "Ben").won_universals, seat(s, "Cy").hand) == (2, 1, 9)
    assert s.turn == 2


def test_sweet_spicy_no_reveal_after_a_universal_challenge() -> None:
    error = refused("play Ana universal chili 1", "challenge Ben spice", "reveal chili 1", header=SWEET)
    assert "no challenge is waiting" in str(error)


def test_sweet_spicy_universal_last_card_gives_no_trophy_but_draws_6() -> None:
    s = state("adjust Ana hand 1", "play Ana universal chili 1", "pass Ben", header=SWEET)
    ana = seat(s, "Ana")
    assert (ana.trophies, ana.hand, s.trophies_left) == (0, 6, 3)


def test_sweet_spicy_universal_last_card_survives_a_challenge_without_trophy() -> None:
    s = state("adjust Ana hand 1", "play Ana universal chili 1", "challenge Ben spice", header=SWEET)
    ana = seat(s, "Ana")
    assert (ana.trophies, ana.won, ana.hand, seat(s, "Ben").hand) == (0, 1, 6, 9)


def test_sweet_spicy_loser_may_take_one_universal_from_the_pile() -> None:
    lines = ("play Ana chili 1", "challenge Ben spice", "reveal chili 1", "take-universal Ben")
    s = state(*lines, header=SWEET)
    ben = seat(s, "Ben")
    assert (ben.hand, ben.universals, s.universal_pile) == (10, 2, 2)
    assert s.cards_accounted() == 106


def test_sweet_spicy_take_universal_only_by_the_loser_once_before_the_next_action() -> None:
    decided = ("play Ana chili 1", "challenge Ben spice", "reveal chili 1")
    assert "only the loser" in str(refused(*decided, "take-universal Ana", header=SWEET))
    assert "only the loser" in str(refused(*decided, "take-universal Ben", "take-universal Ben", header=SWEET))
    assert "only the loser" in str(refused(*decided, "play Ben chili 1", "take-universal Ben", header=SWEET))


def test_sweet_spicy_take_universal_refused_when_the_pile_is_empty() -> None:
    header = "rules sweet-spicy\nseats A B C D E F"
    error = refused("play A chili 1", "challenge B spice", "reveal chili 1", "take-universal B", header=header)
    assert "only the loser" in str(error)


def test_sweet_spicy_scoring_universals_count_5() -> None:
    s = state("play Ana universal chili 1", "challenge Ben spice", header=SWEET)
    # Ana won 1 universal (+5) and holds 6 spice cards; Ben holds 8 spice cards and 1 universal.
    assert scores(s) == {"Ana": 5 - 6, "Ben": -8 - 5, "Cy": -6 - 5}


def test_sweet_spicy_adjust_hand_keeps_universals_at_most_n() -> None:
    s = state("adjust Ana hand 0", header=SWEET)
    assert (seat(s, "Ana").hand, seat(s, "Ana").universals) == (0, 0)


def test_sweet_spicy_reveal_of_wasabi_refused() -> None:
    error = refused("play Ana chili 1", "challenge Ben spice", "reveal wasabi 1", header=SWEET)
    assert "wasabi is not a spice in sweet-spicy" in str(error)


def test_sweet_spicy_the_seat_that_starts_after_a_challenge_must_play_not_pass() -> None:
    lost = ("play Ana pepper 2", "challenge Ben number", "reveal pepper 5")
    error = refused(*lost, "pass Ana", header=SWEET)
    assert "Ana starts the new stack" in str(error) and "may not pass" in str(error)
    assert "Ana starts the new stack" in str(refused(*lost, "take-universal Ana", "pass Ana", header=SWEET))
    s = state(*lost, "take-universal Ana", "play Ana lemon 1", "pass Ben", header=SWEET)
    assert s.turn == 2


def test_sweet_spicy_under_the_winner_option_the_winner_must_play() -> None:
    header = SWEET.replace("seats", "option start-after-challenge winner\nseats")
    lost = ("play Ana pepper 2", "challenge Ben number", "reveal pepper 5")
    assert "Ben starts the new stack" in str(refused(*lost, "pass Ben", header=header))


def test_sweet_spicy_a_starter_with_no_card_may_pass() -> None:
    s = state("play Ana pepper 2", "challenge Ben number", "reveal pepper 5", "adjust Ana hand 0", "pass Ana",
              header=SWEET)
    assert (s.turn, seat(s, "Ana").hand) == (1, 1)


def test_spicy_the_starter_after_a_challenge_may_still_pass() -> None:
    s = state("play Ana pepper 2", "challenge Ben number", "reveal pepper 5", "pass Ana")
    assert s.turn == 1
