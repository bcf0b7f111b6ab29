"""In French, every refusal on the table is French: the engine's reasons as well as the buzzers' notices.

Each expected sentence is built from the French catalogue (the template and the
table words in it, the names as typed), never copied from the engine's English.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator

import pytest

from companion.rules import SPICY, new_setup
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.widgets.claim_pad import NumberButton
from companion.ui.widgets.seat_panel import SeatPanel
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2
f = gettext.translation("companion", LOCALE, languages=["fr"]).gettext


@pytest.fixture
def table(ui) -> Iterator[Table]:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    assert table.app.change_settings(language="fr")
    yield table
    tr.switch("en")


def test_a_tap_on_an_illegal_number_says_why_in_french(table: Table) -> None:
    table.declare("chili", 2)
    table.tap(within(table.screen.ids.pad, NumberButton, number=2))
    numbers = f("{low} to {high}").format(low=3, high=10)
    why = f("the stack is {spice} and stands at {number}").format(spice=f("chili"), number=2)
    options = f("{spice} {numbers}").format(spice=f("chili"), numbers=numbers)
    assert table.toast() == f("{name} must declare {options}: {why}").format(name="Ben", options=options, why=why)
    assert table.toast().startswith("Ben doit annoncer piment 3")
    assert table.view.stack == 1


def test_a_challenge_with_no_card_to_challenge_says_why_in_french(table: Table, ui) -> None:  # type: ignore[no-untyped-def]
    nothing = f("there is no card to challenge: a card can be challenged only until the next seat plays or passes")
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.toast() == nothing)
    table.app.toast.dismiss()
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[CY]), 0.8)
    assert table.toast() == nothing and nothing.startswith("aucune carte à défier")


def test_a_second_buzz_says_who_challenges_in_french(table: Table, ui) -> None:  # type: ignore[no-untyped-def]
    table.declare("pepper", 1)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.buzz((CY, 0.0))
    ui.until(lambda: table.toast() == f("{name} buzzed too late: {challenger} challenges").format(
        name="Cy", challenger="Ben"))


def test_a_buzz_by_the_cards_own_player_says_so_in_french(table: Table, ui) -> None:  # type: ignore[no-untyped-def]
    table.declare("wasabi", 3)
    table.buzz((ANA, 0.0))
    ui.until(lambda: table.toast() == f("{name} played this card and cannot challenge it").format(name="Ana"))
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[ANA]), 0.8)  # a long press on the own panel: the engine says no
    assert table.toast() == f("{name} cannot challenge their own card").format(name="Ana")
