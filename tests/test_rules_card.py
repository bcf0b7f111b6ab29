""""How to play" in words, without a window: the situation sentence in each case the table meets, and the pages'
rows per profile and per game at hand."""

from __future__ import annotations

from rules_helpers import state

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, situation
from companion.rules.variants import VARIANTS
from companion.ui.rules_card import page
from companion.ui.words import situation_words

NAMES = ("Ana", "Ben", "Cy")
SWEET = "rules sweet-spicy\nseats Ana Ben Cy\nend-card 27"
FIVE = "rules five-spices\nseats Ana Ben Cy"


def said(*lines: str, header: str | None = None) -> list[str]:
    now = state(*lines) if header is None else state(*lines, header=header)
    return [line.text for line in situation_words(situation(now), NAMES)]


def test_the_situation_in_words() -> None:
    assert said() == ["A new stack: say 1, 2 or 3 of any spice, or pass"]
    assert said("play Ana chili 2", "play Ben chili 7") == [
        "Chili 7 on the stack: say Chili 8, 9 or 10, or pass",
        "Until Cy plays or passes, any other seat may challenge Ben's card.",
    ]
    assert said("play Ana pepper 3", "play Ben pepper 10", "pass Cy") == [
        "Pepper 10 on the stack: say Pepper 1, 2 or 3, or pass"]  # the pass closed the window
    assert said("play Ana chili 2", "challenge Cy number") == [
        "A challenge is waiting: turn the card over, or tell who was right."]
    assert said("end-card-drawn") == ["The game is over."]


def test_sweet_and_spicy_starter_is_told_to_play() -> None:
    assert said("play Ana lemon 2", "challenge Ben spice", "reveal chili 2", header=SWEET) == [
        "A new stack: say 1, 2 or 3 of any spice"]


def test_five_spices_names_the_one_seat_that_may_challenge() -> None:
    assert said(header=FIVE) == ["A face-up card starts the pile: name any spice, or draw 1"]
    assert said("play Ana salt", header=FIVE) == [
        "Salt on the pile: name any spice, or draw 1", "Only Ben may challenge Ana's card, as its turn."]


def test_each_page_has_its_own_rows() -> None:
    kinds = {profile.id: [row.kind for row in page(profile)] for profile in (SPICY, SWEET_SPICY, FIVE_SPICES)}
    assert kinds["spicy"] == ["turn", "challenge", "wild", "trophy", "end", "variants", *["variant"] * len(VARIANTS)]
    assert kinds["sweet-spicy"][:6] == ["turn", "challenge", "wild", "universal", "trophy", "end"]
    assert kinds["five-spices"] == ["turn", "challenge", "end"]


def test_at_the_table_the_game_page_starts_on_now_and_names_only_its_cards() -> None:
    header = "rules spicy\noption start-after-challenge winner\nvariant copy-cat\nseats Ana Ben Cy\nend-card 27"
    now = state("play Ana wasabi 1", header=header)
    rows = page(SPICY, now)
    assert rows[0].kind == "now" and rows[0].title == "Now: Ben to play"
    assert (rows[0].picture.spice, rows[0].picture.number, rows[0].picture.count) == ("wasabi", 1, 1)
    assert [row.title for row in rows if row.kind == "variant"] == ["Copy cat"]
    challenge = next(row for row in rows if row.kind == "challenge")
    assert challenge.lines[-1].text == "The winner starts the next stack."  # the house option in force
    assert page(FIVE_SPICES, now)[0].kind == "turn"  # another profile's page: no situation of this game
