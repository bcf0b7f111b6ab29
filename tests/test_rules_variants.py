"""docs/RULES.md section 4: the "Spice it up!" variant cards, with their fine points."""

from __future__ import annotations

from rules_helpers import refused, seat, state


def with_variants(*variants: str) -> str:
    lines = ["rules spicy", *(f"variant {v}" for v in variants), "seats Ana Ben Cy", "end-card 27"]
    return "\n".join(lines)


def test_start_it_up_after_8_9_or_10_a_1_to_3_of_the_same_spice() -> None:
    header = with_variants("start-it-up")
    for declared in (8, 9):
        s = state("play Ana wasabi 3", f"play Ben wasabi {declared}", "play Cy wasabi 2", header=header)
        assert str(s.claim) == "wasabi 2"
    assert "wasabi 8 to 10" in str(refused("play Ana wasabi 3", "play Ben wasabi 7", "play Cy wasabi 2", header=header))


def test_start_it_up_strictly_higher_stays_legal_after_8_or_9() -> None:
    s = state("play Ana wasabi 3", "play Ben wasabi 8", "play Cy wasabi 9", header=with_variants("start-it-up"))
    assert str(s.claim) == "wasabi 9"
    error = refused("play Ana wasabi 3", "play Ben wasabi 8", "play Cy wasabi 8", header=with_variants("start-it-up"))
    assert "Cy must declare wasabi 1 to 3 or 9 to 10" in str(error)


def test_start_it_up_off_a_declared_8_needs_a_higher_number() -> None:
    error = refused("play Ana wasabi 3", "play Ben wasabi 8", "play Cy wasabi 2")
    assert "Cy must declare wasabi 9 to 10" in str(error)


def test_turn_it_up_a_revealed_6_matches_a_declared_9_and_back() -> None:
    header = with_variants("turn-it-up")
    s = state("play Ana chili 2", "play Ben chili 9", "challenge Cy number", "reveal chili 6", header=header)
    assert seat(s, "Ben").won == 2
    s = state("play Ana chili 2", "play Ben chili 6", "challenge Cy number", "reveal wasabi 9", header=header)
    assert seat(s, "Ben").won == 2
    plain = state("play Ana chili 2", "play Ben chili 9", "challenge Cy number", "reveal chili 6")
    assert seat(plain, "Cy").won == 2


def test_spice_raider_declaring_a_4_changes_no_count() -> None:
    header = with_variants("spice-raider")
    s = state("play Ana chili 2", "play Ben chili 4", header=header)
    plain = state("play Ana chili 2", "play Ben chili 4")
    assert (s.seats, s.stack, s.draw_pile) == (plain.seats, plain.stack, plain.draw_pile)
    assert s.raider == 1


def test_spice_raider_the_next_play_raids_the_stack() -> None:
    s = state("play Ana chili 2", "play Ben chili 4", "play Cy chili 6", header=with_variants("spice-raider"))
    assert (seat(s, "Ben").won, s.stack, str(s.claim), s.raider) == (2, 1, "chili 6", None)


def test_spice_raider_a_pass_does_not_raid_the_next_play_does() -> None:
    header = with_variants("spice-raider")
    s = state("play Ana chili 2", "play Ben chili 4", "pass Cy", header=header)
    assert (seat(s, "Ben").won, s.stack) == (0, 2)
    s = state("play Ana chili 2", "play Ben chili 4", "pass Cy", "play Ana chili 5", header=header)
    assert (seat(s, "Ben").won, s.stack) == (2, 1)


def test_spice_raider_a_challenge_against_the_4_cancels_the_raid() -> None:
    header = with_variants("spice-raider")
    s = state("play Ana chili 2", "play Ben chili 4", "challenge Cy spice", "reveal pepper 4", "play Ben wasabi 1",
              header=header)
    assert (seat(s, "Cy").won, seat(s, "Ben").won, s.stack, s.raider) == (2, 0, 1, None)


def test_spice_raider_a_copy_also_raids() -> None:
    s = state("play Ana chili 2", "play Ben chili 4", "copy Ana", header=with_variants("spice-raider", "copy-cat"))
    assert (seat(s, "Ben").won, s.stack, s.raider) == (2, 1, 0)


def test_we_love_chili_chili_instead_of_the_stack_spice_when_1_to_3_is_legal() -> None:
    header = with_variants("we-love-chili")
    s = state("play Ana pepper 3", "play Ben pepper 10", "play Cy chili 2", header=header)
    assert str(s.claim) == "chili 2"
    assert "Cy must declare pepper 1 to 3 or chili 1 to 3" in str(
        refused("play Ana pepper 3", "play Ben pepper 10", "play Cy wasabi 2", header=header)
    )


def test_we_love_chili_not_when_a_higher_number_is_due() -> None:
    error = refused("play Ana pepper 3", "play Ben pepper 5", "play Cy chili 6", header=with_variants("we-love-chili"))
    assert "Cy must declare pepper 6 to 10" in str(error)


def test_change_your_luck_tuck_under_a_declared_5_and_draw_as_many() -> None:
    s = state("play Ana chili 2", "play Ben chili 5 tuck 2", header=with_variants("change-your-luck"))
    assert (seat(s, "Ben").hand, s.stack, s.draw_pile) == (5, 4, 53)
    assert s.cards_accounted() == 100


def test_change_your_luck_only_on_a_5_at_most_2_with_the_cards_in_hand() -> None:
    header = with_variants("change-your-luck")
    assert "only under a declared 5" in str(refused("play Ana chili 2", "play Ben chili 6 tuck 1", header=header))
    assert "1 or 2" in str(refused("play Ana chili 2", "play Ben chili 5 tuck 3", header=header))
    assert "needs 3 cards" in str(refused("play Ana chili 2", "adjust Ben hand 2", "play Ben chili 5 tuck 2",
                                          header=header))
    assert "needs the change-your-luck variant" in str(refused("play Ana chili 2", "play Ben chili 5 tuck 1"))


def test_change_your_luck_a_universal_card_is_never_tucked_and_the_refusal_says_so() -> None:
    header = with_variants("change-your-luck").replace("rules spicy", "rules sweet-spicy")
    # Ben loses a challenge, takes a universal and is left with a hand of 2 universal cards
    two_universals = ("adjust Ben hand 1", "play Ana chili 2", "challenge Ben spice", "reveal chili 2",
                      "take-universal Ben", "play Ben chili 3", "play Cy chili 4", "pass Ana", "adjust Ben hand 2")
    ben = seat(state(*two_universals, header=header), "Ben")
    assert (ben.hand, ben.universals) == (2, 2)
    error = refused(*two_universals, "play Ben universal chili 5 tuck 1", header=header)
    assert str(error).endswith("only spice cards are tucked: Ben has 0 to tuck besides the card played, not 1")
    one_spice = refused("play Ana chili 2", "adjust Ben hand 2", "play Ben chili 5 tuck 1", header=header)
    assert str(one_spice).endswith("only spice cards are tucked: Ben has 0 to tuck besides the card played, not 1")


def test_change_your_luck_never_makes_a_last_card() -> None:
    s = state("play Ana chili 2", "adjust Ben hand 3", "play Ben chili 5 tuck 2", "pass Cy",
              header=with_variants("change-your-luck"))
    assert (seat(s, "Ben").hand, seat(s, "Ben").trophies) == (2, 0)


def test_copy_cat_out_of_turn_exactly_the_top_claim() -> None:
    s = state("play Ana chili 2", "copy Cy", header=with_variants("copy-cat"))
    assert (str(s.claim), s.stack, seat(s, "Cy").hand, s.turn) == ("chili 2", 2, 5, 0)


def test_copy_cat_the_seat_to_play_may_copy_but_not_the_player() -> None:
    header = with_variants("copy-cat")
    assert state("play Ana chili 2", "copy Ben", header=header).turn == 2
    assert "cannot copy their own card" in str(refused("play Ana chili 2", "copy Ana", header=header))


def test_copy_cat_only_while_the_window_is_open() -> None:
    assert "no card to copy" in str(refused("play Ana chili 2", "pass Ben", "copy Cy", header=with_variants("copy-cat")))
    assert "needs the copy-cat variant" in str(refused("play Ana chili 2", "copy Cy"))


def test_copy_cat_counts_as_a_play_closes_the_window_and_can_be_challenged() -> None:
    header = with_variants("copy-cat")
    s = state("adjust Ana hand 1", "play Ana chili 2", "copy Cy", header=header)
    assert seat(s, "Ana").trophies == 1
    s = state("play Ana chili 2", "copy Cy", "challenge Ben number", "reveal chili 7", header=header)
    assert (seat(s, "Ben").won, seat(s, "Cy").hand) == (2, 7)


def test_four_is_any_a_revealed_4_matches_every_declared_number() -> None:
    header = with_variants("four-is-any")
    s = state("play Ana pepper 2", "play Ben pepper 7", "challenge Cy number", "reveal wasabi 4", header=header)
    assert (seat(s, "Ben").won, seat(s, "Cy").won, seat(s, "Cy").hand) == (2, 0, 8)
    plain = state("play Ana pepper 2", "play Ben pepper 7", "challenge Cy number", "reveal wasabi 4")
    assert seat(plain, "Cy").won == 2


def test_four_is_any_is_an_ordinary_card_in_a_spice_challenge() -> None:
    header = with_variants("four-is-any")
    s = state("play Ana pepper 2", "play Ben pepper 7", "challenge Cy spice", "reveal wasabi 4", header=header)
    assert seat(s, "Cy").won == 2
    s = state("play Ana pepper 2", "play Ben pepper 7", "challenge Cy spice", "reveal pepper 4", header=header)
    assert seat(s, "Ben").won == 2


def test_four_is_any_a_declared_4_is_not_matched_by_another_number() -> None:
    s = state("play Ana pepper 2", "play Ben pepper 4", "challenge Cy number", "reveal pepper 7",
              header=with_variants("four-is-any"))
    assert seat(s, "Cy").won == 2


def test_four_is_any_with_turn_it_up_4_matches_all_and_6_matches_9() -> None:
    header = with_variants("four-is-any", "turn-it-up")
    for revealed in ("chili 4", "chili 6"):
        s = state("play Ana chili 2", "play Ben chili 9", "challenge Cy number", f"reveal {revealed}", header=header)
        assert seat(s, "Ben").won == 2
    s = state("play Ana chili 2", "play Ben chili 9", "challenge Cy number", "reveal chili 5", header=header)
    assert seat(s, "Cy").won == 2


FOUR_SEATS = "rules spicy\nvariant chili-reverses\n{more}seats Ana Ben Cy Dee\nend-card 25"


def reversing(more: str = "") -> str:
    return FOUR_SEATS.format(more=f"variant {more}\n" if more else "")


def test_chili_reverses_a_chili_turns_the_play_counter_clockwise_and_the_next_one_back() -> None:
    s = state("play Ana chili 2", header=reversing())
    assert (s.turn, s.direction) == (3, "counter-clockwise")
    s = state("play Ana chili 2", "play Dee chili 3", header=reversing())
    assert (s.turn, s.direction) == (0, "clockwise")
    assert state("play Ana chili 2", header=FOUR_SEATS.format(more="").replace("variant chili-reverses\n", "")).turn == 1


def test_chili_reverses_other_spices_and_passes_keep_the_direction() -> None:
    s = state("play Ana chili 2", "pass Dee", "play Cy chili 5", "pass Dee", header=reversing())
    assert (s.turn, s.direction) == (0, "clockwise")
    s = state("play Ana chili 2", "pass Dee", header=reversing())
    assert (s.turn, s.direction) == (2, "counter-clockwise")
    s = state("play Ana pepper 2", "play Ben pepper 3", header=reversing())
    assert (s.turn, s.direction) == (2, "clockwise")


def test_chili_reverses_the_starter_after_a_challenge_as_usual_and_the_direction_stays() -> None:
    s = state("play Ana chili 2", "challenge Ben spice", "reveal pepper 2", header=reversing())
    assert (s.turn, s.direction) == (0, "counter-clockwise")  # Ana lost: she starts
    s = state("play Ana chili 2", "challenge Ben spice", "reveal pepper 2", "play Ana pepper 1", header=reversing())
    assert s.turn == 3


def test_chili_reverses_with_copy_cat_a_copied_chili_reverses_too() -> None:
    s = state("play Ana chili 2", "copy Ben", header=reversing("copy-cat"))
    assert (s.turn, s.direction) == (2, "clockwise")  # on from the copier, in the direction now
    s = state("play Ana pepper 2", "copy Cy", header=reversing("copy-cat"))
    assert (s.turn, s.direction) == (3, "clockwise")


def test_chili_reverses_a_universal_declared_chili_reverses() -> None:
    header = "rules sweet-spicy\nvariant chili-reverses\nseats Ana Ben Cy Dee\nend-card 25"
    s = state("play Ana universal chili 1", header=header)
    assert (s.turn, s.direction) == (3, "counter-clockwise")


def test_chili_reverses_undo_turns_it_back() -> None:
    s = state("play Ana chili 2", "undo", header=reversing())
    assert (s.turn, s.direction) == (0, "clockwise")


def test_chili_reverses_the_json_names_the_direction() -> None:
    assert state("play Ana chili 2", header=reversing()).to_json()["direction"] == "counter-clockwise"
