"""The end screen, reached by touches: the rules' places, shared by equal scores, the winners lit,
the game's length, and Sweet & Spicy's universal cards in a column of their own."""

from __future__ import annotations

from typing import Any

from companion.rules import SPICY, SWEET_SPICY, new_setup
from table_helpers import Table

ANA = 0


def rows(table: Table) -> list[Any]:
    """The rows top to bottom (a Kivy layout keeps its children last first)."""
    return list(reversed(table.app.screen("end").ids.rows.children))


def end_by_worlds_end(table: Table) -> None:
    table.tap(table.screen.ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    assert table.app.root.current == "end"


def test_the_end_ranks_by_score_equal_scores_share_a_place_and_the_winners_are_lit(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    table.pass_turn()  # Ana draws: 7 cards, and the first seat comes last
    table.declare("chili", 1)
    table.declare("chili", 2)
    end_by_worlds_end(table)
    shown = [(row.rank, row.name, row.score, row.winner) for row in rows(table)]
    assert shown == [("1", "Ben", "\u22125", True), ("1", "Cy", "\u22125", True), ("3", "Ana", "\u22127", False)]
    assert table.app.screen("end").ids.saved.text.startswith("Played for 1 min\nSaved · ")


def test_sweet_and_spicy_scores_its_universal_cards_in_their_own_column(ui) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    table.declare("chili", 1)
    end_by_worlds_end(table)
    ana = next(row for row in rows(table) if row.name == "Ana")
    assert (ana.hand, ana.universals, ana.score) == ("\u22125", "\u22125", "\u221210")
    assert ana.hand_note == "5 cards in hand" and ana.universals_note == "0 won, 1 held"
    assert ana.rank == "1" and ana.winner  # one card fewer than the others
    assert [row.score for row in rows(table)] == ["\u221210", "\u221211", "\u221211"]


def test_a_game_ended_before_the_end_screen_is_prepared_keeps_its_winners_lit(ui) -> None:
    """The end screen lays its rows out ahead, a moment after the table opens (``EndScreen.prepare``):
    a game over sooner keeps the rows its end filled, the winners lit."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    table.pass_turn()
    end_by_worlds_end(table)
    view = table.view
    table.app.screen("end").prepare(view)  # as the app's timer does, once the game has ended
    ui.step(2)
    assert [(row.name, row.winner) for row in rows(table)] == [("Ben", True), ("Cy", True), ("Ana", False)]


def test_a_long_word_in_the_winner_s_title_makes_its_type_smaller_and_leaves_a_short_name_whole(ui) -> None:
    """Russian's "Ben побеждает!" at 720x1280, where the English title's type does not fit it: one line,
    inside its box, the name whole (fit_names alone cut it to "B…" and the words wrapped out of the box)."""
    from kivy.metrics import sp

    from companion.ui import theme

    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), size=(720, 1280))
    assert table.app.change_settings(language="ru")
    table.pass_turn()  # Ana draws: Ben and Cy end with fewer cards in hand
    table.declare("chili", 1)
    end_by_worlds_end(table)
    table.ui.step(3)
    title = table.app.screen("end").ids.title
    assert title.text.endswith(("побеждает!", "делят победу!")) and "\u2026" not in title.text
    assert title.font_size < sp(theme.FONT_CHALLENGE_TITLE)
    width, height = title.texture_size
    assert width <= title.width + 1 and height <= title.height + 1
