"""Rules facts the table shows, by touch: Sweet & Spicy's starter after a challenge must play (docs/RULES.md 2),
and the direction of play while chili-reverses is in play (section 4)."""

from __future__ import annotations

import gettext

import pytest

from companion.rules import SPICY, SWEET_SPICY, new_setup
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.widgets.claim_pad import NumberButton
from companion.languages import CODES

from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2
f = gettext.translation("companion", LOCALE, languages=["fr"]).gettext


def lose_a_challenge(table: Table) -> None:
    """Ana declares pepper 2, Ben calls the number, the card is a pepper 5: Ana lost and starts the next stack."""
    table.declare("pepper", 2)
    table.buzz((BEN, 0.0))
    table.ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    table.tap(within(table.sheet(), NumberButton, spice="pepper", number=5))
    table.tap(table.sheet().ids.ok)
    assert table.screen.sheet_name == "" and table.view.turn == ANA


@pytest.mark.parametrize("language", CODES)
def test_sweet_spicy_the_starter_after_a_challenge_is_refused_a_pass_in_the_tables_words(ui, language: str) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    assert table.app.change_settings(language=language)
    lose_a_challenge(table)
    hand = table.view.seats[ANA].hand
    assert table.screen.ids.pass_button.dimmed
    assert table.view.hint == tr._("1, 2 or 3 of any spice")
    table.pass_turn()
    template = "{name} starts the new stack: in {profile} the seat that starts after a challenge plays a card, " \
        "and may not pass"
    said = tr._(template).format(
        name="Ana", profile=tr._("Sweet & Spicy"))
    assert table.toast() == said
    assert (table.view.turn, table.view.seats[ANA].hand) == (ANA, hand)
    table.declare("lemon", 1)
    assert table.view.turn == BEN and not table.screen.ids.pass_button.dimmed


def test_spicy_the_starter_may_pass(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    lose_a_challenge(table)
    assert table.view.hint == "1, 2 or 3 of any spice, or pass" and not table.screen.ids.pass_button.dimmed
    table.pass_turn()
    assert table.view.turn == BEN


def test_chili_reverses_the_title_shows_the_direction_of_play(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA, variants={"chili-reverses"}))
    title = table.screen.ids.title
    assert title.text == "Spicy  \u00b7  clockwise"
    table.declare("chili", 2)
    assert title.text == "Spicy  \u00b7  counter-clockwise" and table.view.turn == 3
    assert table.app.change_settings(language="fr")
    table.ui.step(2)
    assert title.text == f("Spicy") + "  \u00b7  " + f("counter-clockwise")
    table.tap(table.screen.ids.undo)
    assert title.text == f("Spicy") + "  \u00b7  " + f("clockwise")


def test_without_a_card_that_turns_play_no_direction_is_shown(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben"], variants={"copy-cat"}))
    assert table.screen.ids.title.text == "Spicy"
