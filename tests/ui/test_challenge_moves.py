"""A challenge taken on the card on top while the next card has landed: the sheet names the card it is on,
and one tap moves it to the card just laid once that card's claim is entered; doing nothing keeps it.
Driven by touches and GPIO buzzer presses (gpiozero's MockFactory)."""

from __future__ import annotations

from companion.rules import SPICY, Challenge, Play, new_setup
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2


def challenged(ui) -> Table:
    """Ana has played a chili 1 and Cy's buzzer took the challenge: the sheet is up on Ana's card."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    table.declare("chili", 1)
    table.buzz((CY, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    return table


def test_the_sheet_names_the_card_and_doing_nothing_keeps_the_challenge_on_it(ui) -> None:
    table = challenged(ui)
    sheet = table.sheet()
    assert sheet.ids.title.text == "Cy challenges Ana's Chili 1"
    assert sheet.ids.move.text == "For the card Ben just laid"
    table.tap(sheet.ids.not_number)
    assert list(table.view.session.game.log) == [Play(ANA, "chili", 1), Challenge(CY, "number")]


def test_one_tap_moves_the_challenge_to_the_card_just_laid_once_its_claim_is_entered(ui) -> None:
    table = challenged(ui)
    sheet, view = table.sheet(), table.view
    table.tap(sheet.ids.move)
    ui.step(2)
    assert view.moving and sheet.ids.move.text == "Keep it on Ana's card"
    assert sheet.ids.call.text == "What did Ben claim?"
    pad = sheet.ids.pad
    table.tap(within(pad, SpiceButton, spice="chili"))
    table.tap(within(pad, NumberButton, number=2))  # Ben's claim, on the sheet
    ui.until(lambda: view.buzz is not None and view.top_player == BEN)
    ui.step(2)
    assert (view.buzz.challenger, view.buzz.before_tap, view.moving) == (CY, (CY,), False)
    assert sheet.ids.title.text == "Cy challenges Ben's Chili 2"
    assert "Cy pressed before the claim was tapped" in sheet.ids.later.text
    table.tap(sheet.ids.not_number)
    log = list(view.session.game.log)
    assert log == [Play(ANA, "chili", 1), Play(BEN, "chili", 2), Challenge(CY, "number")]
    assert view.pending and view.challenger == CY and view.top_player == BEN
