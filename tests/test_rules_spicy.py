"""docs/RULES.md section 1 (`spicy`) and the fine points of section 6, one test a rule."""

from __future__ import annotations

import pytest

from companion.rules import SPICY, Game, IllegalAction, Pass, Play, Undo, new_setup

from rules_helpers import THREE, game, refused, scores, seat, state


# --- Cards and set-up -----------------------------------------------------


def test_cards_100_spice_cards_and_3_trophies() -> None:
    assert SPICY.spice_cards == 100
    assert SPICY.spices == ("chili", "wasabi", "pepper")
    assert state().trophies_left == 3


def test_setup_deals_6_cards_to_each_seat() -> None:
    s = state(header="rules spicy\nseats A B C D E F")
    assert [x.hand for x in s.seats] == [6] * 6


@pytest.mark.parametrize(("seats", "under"), [(2, 29), (3, 27), (4, 25), (5, 23), (6, 21)])
def test_setup_default_end_card_one_third_from_the_bottom(seats: int, under: int) -> None:
    names = " ".join(f"P{i}" for i in range(seats))
    s = state(header=f"rules spicy\nseats {names}")
    assert s.setup.end_card == under
    assert s.draw_pile == 100 - 6 * seats - under


def test_setup_draw_pile_counts_cards_above_the_end_card() -> None:
    assert state(header="rules spicy\nseats Ana Ben Cy\nend-card 10").draw_pile == 100 - 18 - 10


def test_setup_first_player_given_or_first_listed() -> None:
    assert state().turn == 0
    assert state(header=THREE + "\nfirst Cy").turn == 2


@pytest.mark.parametrize("names", [["Solo"], [f"P{i}" for i in range(7)]])
def test_setup_2_to_6_seats(names: list[str]) -> None:
    with pytest.raises(IllegalAction, match="2 to 6 seats"):
        new_setup(SPICY, names)


# --- A turn -----------------------------------------------------------------


def test_play_hand_shrinks_by_1_and_stack_grows_by_1() -> None:
    s = state("play Ana chili 2")
    assert (seat(s, "Ana").hand, s.stack, s.turn) == (5, 1, 1)


def test_play_a_seat_with_0_cards_cannot_play() -> None:
    error = refused("adjust Ana hand 0", "play Ana chili 1")
    assert "Ana has no cards to play" in str(error)


def test_pass_draws_1_and_the_turn_moves_clockwise() -> None:
    s = state("pass Ana", "pass Ben", "pass Cy")
    assert [x.hand for x in s.seats] == [7, 7, 7]
    assert (s.draw_pile, s.turn) == (52, 0)


def test_turn_only_the_seat_to_play_may_play_or_pass() -> None:
    assert "it is Ana's turn, not Ben's" in str(refused("play Ben chili 1"))
    assert "it is Ben's turn, not Cy's" in str(refused("pass Ana", "pass Cy"))


# --- Legal declarations ---------------------------------------------------------


def test_declaration_first_card_of_a_stack_is_1_2_or_3() -> None:
    error = refused("play Ana wasabi 4")
    assert str(error).endswith("Ana must declare any spice 1 to 3: a new stack starts")
    assert state("play Ana wasabi 3").claim is not None


def test_declaration_same_spice_strictly_higher() -> None:
    base = ("play Ana chili 2", "play Ben chili 5")
    assert "Cy must declare chili 6 to 10: the stack is chili and stands at 5" in str(
        refused(*base, "play Cy chili 5")
    )
    assert "Cy must declare chili 6 to 10" in str(refused(*base, "play Cy pepper 7"))
    assert state(*base, "play Cy chili 6").claim.number == 6  # type: ignore[union-attr]


def test_declaration_after_a_10_is_1_to_3_of_the_same_spice() -> None:
    base = ("play Ana pepper 3", "play Ben pepper 10")
    assert "Cy must declare pepper 1 to 3: the stack is pepper and stands at 10" in str(
        refused(*base, "play Cy chili 1")
    )
    refused(*base, "play Cy pepper 4")
    s = state(*base, "play Cy pepper 1")
    assert (s.stack, str(s.claim)) == (3, "pepper 1")


def test_declaration_illegal_changes_nothing() -> None:
    g = game("play Ana chili 2")
    with pytest.raises(IllegalAction):
        g.apply(Play(1, "chili", 1))
    assert g.state == game("play Ana chili 2").state


def test_declaration_spice_and_number_must_exist() -> None:
    assert "lemon is not a spice in spicy" in str(refused("play Ana lemon 1"))
    assert "numbers go from 1 to 10" in str(refused("play Ana chili 2", "play Ben chili 11"))


# --- Challenges -------------------------------------------------------------------


def test_challenge_by_any_seat_except_the_player() -> None:
    assert "Ana cannot challenge their own card" in str(refused("play Ana chili 2", "challenge Ana spice"))
    s = state("play Ana chili 2", "challenge Cy number")
    assert s.challenge is not None and s.challenge.challenger == 2


def test_challenge_must_name_exactly_spice_or_number() -> None:
    assert "must name spice or number" in str(refused("play Ana chili 2", "challenge Ben"))
    assert "spice or number" in str(refused("play Ana chili 2", "challenge Ben bluff"))


def test_challenge_window_closes_when_the_next_seat_plays() -> None:
    s = state("adjust Ana hand 1", "play Ana chili 2", "play Ben chili 3")
    assert seat(s, "Ana").trophies == 1  # Ana's last card went through unchallenged
    assert s.window is not None and s.window.player == 1  # only Ben's card can be challenged now


def test_challenge_window_closes_when_the_next_seat_passes() -> None:
    assert "no card to challenge" in str(refused("play Ana chili 2", "pass Ben", "challenge Cy spice"))


def test_challenge_only_the_top_card_and_only_once() -> None:
    error = refused("play Ana chili 2", "challenge Ben spice", "resolve player", "challenge Cy number")
    assert "no card to challenge" in str(error)


def test_challenge_waits_for_the_reveal_before_anything_else() -> None:
    assert "challenge is waiting" in str(refused("play Ana chili 2", "challenge Ben spice", "play Ben chili 1"))


@pytest.mark.parametrize(
    ("attribute", "card", "challenger_wins"),
    [
        ("spice", "chili 5", False),
        ("spice", "pepper 5", True),
        ("spice", "wild-spice", False),
        ("spice", "wild-number", True),
        ("number", "chili 5", False),
        ("number", "chili 4", True),
        ("number", "wild-number", False),
        ("number", "wild-spice", True),
    ],
)
def test_challenge_decided_from_the_revealed_card(attribute: str, card: str, challenger_wins: bool) -> None:
    s = state("play Ana chili 2", "play Ben chili 5", f"challenge Cy {attribute}", f"reveal {card}")
    winner, loser = ("Cy", "Ben") if challenger_wins else ("Ben", "Cy")
    assert seat(s, winner).won == 2
    assert seat(s, loser).hand == (5 if loser == "Ben" else 6) + 2


def test_challenge_only_the_named_attribute_counts() -> None:
    """Seed 002: declared Pepper 5, card Pepper 4."""
    on_spice = state("play Ana pepper 2", "play Ben pepper 5", "challenge Cy spice", "reveal pepper 4")
    assert seat(on_spice, "Ben").won == 2
    on_number = state("play Ana pepper 2", "play Ben pepper 5", "challenge Cy number", "reveal pepper 4")
    assert seat(on_number, "Cy").won == 2


def test_challenge_double_lie_loses_to_a_challenge_on_the_true_attribute() -> None:
    """Seed 000: declared chili 3, card chili 7 (a lie on the number only)."""
    s = state("play Ana chili 3", "challenge Ben spice", "reveal chili 7")
    assert (seat(s, "Ana").won, seat(s, "Ben").hand) == (1, 8)


def test_challenge_winner_takes_the_whole_stack_loser_draws_2() -> None:
    s = state("play Ana chili 1", "play Ben chili 2", "play Cy chili 3", "challenge Ana number", "reveal chili 9")
    assert (seat(s, "Ana").won, s.stack, s.claim) == (3, 0, None)
    assert (seat(s, "Cy").hand, s.draw_pile) == (7, 53)


def test_challenge_loser_starts_the_next_stack() -> None:
    s = state("play Ana chili 1", "play Ben chili 2", "challenge Cy spice", "reveal chili 2")
    assert s.turn == 2
    assert str(state("play Ana chili 1", "play Ben chili 2", "challenge Cy spice", "reveal chili 2", "play Cy wasabi 3").claim) == "wasabi 3"


def test_challenge_house_option_the_winner_starts() -> None:
    header = "rules spicy\noption start-after-challenge winner\nseats Ana Ben Cy\nend-card 27"
    s = state("play Ana chili 1", "play Ben chili 2", "challenge Cy spice", "reveal chili 2", header=header)
    assert s.turn == 1


@pytest.mark.parametrize(("outcome", "winner"), [("challenger", "Cy"), ("player", "Ben")])
def test_challenge_outcome_told_directly(outcome: str, winner: str) -> None:
    s = state("play Ana chili 1", "play Ben chili 2", "challenge Cy spice", f"resolve {outcome}")
    assert seat(s, winner).won == 2


def test_challenge_reveal_or_resolve_needs_a_challenge() -> None:
    assert "no challenge is waiting" in str(refused("play Ana chili 1", "reveal chili 1"))
    assert "no challenge is waiting" in str(refused("resolve player"))


def test_challenge_reveal_of_a_card_spicy_does_not_have_is_refused() -> None:
    assert "lemon is not a spice" in str(refused("play Ana chili 1", "challenge Ben spice", "reveal lemon 1"))
    assert "1 to 10" in str(refused("play Ana chili 1", "challenge Ben spice", "reveal chili 0"))


# --- Last card and trophies -----------------------------------------------------------

LAST = ("adjust Ana hand 1", "play Ana chili 2")


def test_last_card_is_announced_to_the_table() -> None:
    s = state(*LAST)
    assert s.window is not None and s.window.last_card
    assert any(e.kind == "last-card" and "Ana" in e.text for e in s.events)


def test_last_card_unchallenged_takes_a_trophy_and_draws_6() -> None:
    s = state(*LAST, "pass Ben")
    ana = seat(s, "Ana")
    assert (ana.trophies, ana.hand, s.trophies_left) == (1, 6, 2)
    assert s.draw_pile == 55 - 6 - 1
    assert scores(s)["Ana"] == 10 - 6


def test_last_card_surviving_a_challenge_takes_the_stack_and_a_trophy() -> None:
    s = state(*LAST, "challenge Cy spice", "reveal chili 9")
    ana = seat(s, "Ana")
    assert (ana.trophies, ana.won, ana.hand, seat(s, "Cy").hand) == (1, 1, 6, 8)


def test_last_card_caught_gives_no_trophy_and_the_seat_draws_2() -> None:
    s = state(*LAST, "challenge Cy spice", "reveal wasabi 2")
    ana = seat(s, "Ana")
    assert (ana.trophies, ana.hand, seat(s, "Cy").won, s.trophies_left) == (0, 2, 1, 3)


def test_last_card_adjusted_to_0_is_not_a_last_card() -> None:
    s = state("play Ana chili 2", "adjust Ana hand 0", "pass Ben")
    assert seat(s, "Ana").trophies == 0


# --- End of the game ----------------------------------------------------------------


def test_end_second_trophy_wins_whatever_the_scores() -> None:
    s = state(*LAST, "pass Ben", "adjust Cy won 50", "adjust Cy hand 1", "play Cy chili 3", "adjust Ana hand 1",
              "play Ana chili 4", "pass Ben")
    # Cy's last card went through (Ana played), Ana's went through when Ben passed.
    assert s.ended and s.end_reason == "second-trophy"
    assert [s.name(i) for i in s.winners] == ["Ana"]
    assert scores(s)["Cy"] > scores(s)["Ana"]  # type: ignore[operator]


def test_end_third_trophy_ends_the_game_and_the_taker_does_not_refill() -> None:
    lines = [
        "adjust Ana hand 1", "play Ana chili 1", "adjust Ben hand 1", "play Ben chili 2",
        "adjust Cy hand 1", "play Cy chili 3", "pass Ana",
    ]
    s = state(*lines)
    assert (s.ended, s.end_reason, s.trophies_left) == (True, "all-trophies", 0)
    assert seat(s, "Cy").hand == 0
    assert [x.trophies for x in s.seats] == [1, 1, 1]


def test_end_second_trophy_that_is_also_the_third_is_second_trophy() -> None:
    lines = [
        "adjust Ana hand 1", "play Ana chili 1", "adjust Ben hand 1", "play Ben chili 2",
        "adjust Ana hand 1", "pass Cy", "play Ana chili 3", "pass Ben",
    ]
    s = state(*lines)
    assert (s.end_reason, s.trophies_left, [s.name(i) for i in s.winners]) == ("second-trophy", 0, ["Ana"])


def test_end_places_rank_by_score_equal_scores_share_a_place_and_the_next_one_skips() -> None:
    s = state("play Ana chili 1", "play Ben chili 2", "pass Cy", "end-card-drawn")
    assert [s.score(i) for i in range(3)] == [-5, -5, -7]
    assert (s.winners, s.places()) == ((0, 1), (1, 1, 3))


def test_end_trophy_ending_the_game_means_the_closing_play_is_not_carried_out() -> None:
    lines = ["adjust Ana hand 1", "play Ana chili 1", "pass Ben", "pass Cy", "adjust Ana hand 1", "play Ana chili 2"]
    before = state(*lines)
    s = state(*lines, "play Ben chili 3")
    assert s.end_reason == "second-trophy"
    assert (s.stack, seat(s, "Ben").hand) == (before.stack, seat(before, "Ben").hand)


def test_end_world_end_card_told_by_the_table() -> None:
    s = state("play Ana chili 1", "end-card-drawn")
    assert (s.ended, s.end_reason, s.draw_pile, s.turn) == (True, "end-card", 0, None)


def test_end_world_end_card_reached_by_the_count() -> None:
    header = "rules spicy\nseats Ana Ben\nend-card 87"  # 100 - 12 - 87 = 1 card above it
    s = state("pass Ana", header=header)
    assert (s.draw_pile, s.ended) == (0, False)  # drawing the last card above it does not end the game
    s = state("pass Ana", "pass Ben", header=header)
    assert (s.ended, s.end_reason) == (True, "end-card")
    assert seat(s, "Ben").hand == 6


def test_end_cards_drawn_before_the_end_card_in_the_same_draw_count() -> None:
    header = "rules spicy\nseats Ana Ben\nend-card 87"
    s = state("play Ana chili 1", "challenge Ben spice", "reveal chili 1", header=header)
    assert (s.end_reason, seat(s, "Ben").hand, s.draw_pile) == ("end-card", 7, 0)


def test_end_refill_reaching_the_end_card_stops_the_closing_pass() -> None:
    header = "rules spicy\nseats Ana Ben\nend-card 84"  # 4 above it
    s = state("adjust Ana hand 1", "play Ana chili 1", "pass Ben", header=header)
    ana, ben = seat(s, "Ana"), seat(s, "Ben")
    assert (s.end_reason, ana.trophies, ana.hand, ben.hand) == ("end-card", 1, 4, 6)


def test_scores_won_plus_10_per_trophy_minus_hand() -> None:
    s = state(*LAST, "challenge Cy spice", "reveal chili 9")
    assert scores(s) == {"Ana": 1 + 10 - 6, "Ben": -6, "Cy": -8}


def test_scores_equal_highest_share_the_win() -> None:
    s = state("end-card-drawn")
    assert s.winners == (0, 1, 2)
    assert "share the win" in s.events[-1].text


def test_end_after_the_end_turn_is_null_and_scores_still_computed() -> None:
    s = state("play Ana chili 1", "challenge Ben spice", "reveal wasabi 1", "end-card-drawn")
    assert s.turn is None and s.to_json()["turn"] is None
    assert scores(s) == {"Ana": -7, "Ben": -5, "Cy": -6}
    assert [s.name(i) for i in s.winners] == ["Ben"]


@pytest.mark.parametrize("line", ["pass Ana", "play Ana chili 1", "adjust Ana hand 3", "end-card-drawn", "redo"])
def test_end_every_action_but_undo_is_refused(line: str) -> None:
    reason = str(refused("end-card-drawn", line))
    assert ("nothing to redo" if line == "redo" else "game is over") in reason


def test_end_undo_reopens_the_game() -> None:
    s = state("play Ana chili 1", "end-card-drawn", "undo")
    assert (s.ended, s.turn, s.stack) == (False, 1, 1)


# --- Order of a challenge's consequences (section 6) ------------------------------------


def test_order_stack_then_trophy_then_penalty_then_refill() -> None:
    s = state(*LAST, "challenge Cy number", "reveal chili 2")
    kinds = [e.kind for e in s.events if e.kind in ("stack-won", "trophy", "penalty", "refill")]
    assert kinds == ["stack-won", "trophy", "penalty", "refill"]


def test_order_a_trophy_that_ends_the_game_stops_the_penalty() -> None:
    lines = ["adjust Ana hand 1", "play Ana chili 1", "pass Ben", "pass Cy", "adjust Ana hand 1", "play Ana chili 2",
             "challenge Ben spice", "reveal chili 2"]
    s = state(*lines)
    assert s.end_reason == "second-trophy"
    assert seat(s, "Ben").hand == 7  # his pass only: no penalty
    assert seat(s, "Ana").won == 2


def test_order_penalty_reaching_the_end_card_stops_the_refill() -> None:
    header = "rules spicy\nseats Ana Ben\nend-card 86"  # 2 above it
    s = state("adjust Ana hand 1", "play Ana chili 1", "challenge Ben spice", "reveal chili 1", header=header)
    assert s.end_reason == "end-card"
    assert (seat(s, "Ana").trophies, seat(s, "Ana").hand, seat(s, "Ben").hand) == (1, 0, 8)


# --- The worked example -------------------------------------------------------------------


def test_worked_example() -> None:
    s = state(
        "play Ana chili 2", "play Ben chili 6", "challenge Cy spice", "reveal pepper 6",
        header="rules spicy\nseats Ana Ben Cy\nend-card 27",
    )
    data = s.to_json()
    assert [(x["name"], x["hand"], x["won"], x["score"]) for x in data["seats"]] == [
        ("Ana", 5, 0, -5), ("Ben", 7, 0, -7), ("Cy", 6, 2, -4)
    ]
    assert (data["stack"], data["claim"], data["deck"], data["turn"]) == (0, None, 53, "Ben")


# --- Undo, redo and adjust ----------------------------------------------------------------


def test_undo_steps_back_one_action_and_redo_forward() -> None:
    g = game("play Ana chili 1", "play Ben chili 2")
    undone = g.apply(Undo())
    assert undone.state == game("play Ana chili 1").state
    assert state("play Ana chili 1", "play Ben chili 2", "undo", "undo", "redo") == game("play Ana chili 1").state


def test_undo_to_any_depth_and_header_lines_cannot_be_undone() -> None:
    assert state("pass Ana", "pass Ben", "undo", "undo") == state()
    assert "nothing to undo" in str(refused("pass Ana", "undo", "undo"))


def test_redo_cleared_by_a_new_action_and_refused_when_nothing_to_redo() -> None:
    assert "nothing to redo" in str(refused("pass Ana", "undo", "play Ana chili 1", "redo"))
    assert "nothing to redo" in str(refused("redo"))


def test_adjust_sets_one_count_and_nothing_else() -> None:
    before = state("play Ana chili 1")
    s = state("play Ana chili 1", "adjust Ben won 4", "adjust Cy hand 9")
    assert (seat(s, "Ben").won, seat(s, "Cy").hand) == (4, 9)
    assert (s.draw_pile, s.stack, s.turn, s.window) == (before.draw_pile, before.stack, before.turn, before.window)
    assert s.cards_accounted() == 100 + 4 + 3


def test_adjust_does_not_close_the_window() -> None:
    s = state("play Ana chili 1", "adjust Ana hand 3", "challenge Ben number", "reveal chili 1")
    assert seat(s, "Ana").won == 1


def test_adjust_refuses_impossible_counts() -> None:
    assert "0 to 100" in str(refused("adjust Ana hand 101"))
    assert "whole number" in str(refused("adjust Ana hand -1"))


def test_game_api_refusal_leaves_the_game_unchanged() -> None:
    g = Game.start(new_setup(SPICY, ["Ana", "Ben"]))
    with pytest.raises(IllegalAction, match="Ana's turn"):
        g.apply(Pass(1))
    assert g.log == () and g.cursor == 0
