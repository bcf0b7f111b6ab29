"""A language switch in settings reaches what the table had already built: the pad, the header, the stack card."""

from __future__ import annotations

import gettext

from companion.rules import FIVE_SPICES, SPICY, new_setup
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.screens.reveal import SpiceLabel
from companion.ui.widgets.claim_pad import SpiceButton
from companion.ui.widgets.stack_card import StackCard
from table_helpers import Table, within

ANA, BEN = 0, 1
f = gettext.translation("companion", LOCALE, languages=["fr"]).gettext


def to_french_in_settings(ui) -> None:  # type: ignore[no-untyped-def]
    ui.app.show("settings")
    ui.until(lambda: not ui.app.root.transition.is_active)
    ui.tap(ui.app.screen("settings").ids.languages.buttons["fr"])
    ui.app.show("table")
    ui.until(lambda: not ui.app.root.transition.is_active)


def test_switching_to_french_in_settings_turns_the_table_french(ui) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA), size=(1280, 720))
    table.declare("cinnamon")
    pad, header = table.screen.ids.pad, table.screen.ids.header
    key = within(pad, SpiceButton, spice="cinnamon")
    card = within(table.screen, StackCard)
    card_word = card.ids.word
    assert (key.text, card_word.text) == ("Cinnamon", "Cinnamon")
    assert header.text == "Ben to play: Play a card, draw, or challenge Ana"

    to_french_in_settings(ui)

    assert tr.language == "fr" and f("Cinnamon") != "Cinnamon"
    assert (key.text, card_word.text) == (f("Cinnamon"), f("Cinnamon"))
    assert sorted(b.text for b in pad.ids.spices.children) == sorted(
        f(word) for word in ("Pepper", "Salt", "Sugar", "Garlic", "Cinnamon"))
    hint = f("Play a card, draw, or challenge {name}").format(name="Ana")
    assert header.text == f("{name} to play: {hint}").format(name="Ben", hint=hint)


def test_the_reveal_sheet_built_in_english_reads_french_after_a_switch(ui) -> None:  # type: ignore
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    to_french_in_settings(ui)
    table.view.declare("chili", 1)
    table.view.press(BEN)
    ui.until(lambda: table.view.buzz is not None)  # the claim is decided by the referee, on its thread
    table.view.call("number")
    ui.step(2)
    assert table.screen.sheet_name == "reveal"
    heads = [label.text for label in ui.find_all(SpiceLabel)]
    assert heads == [f(word) for word in ("Chili", "Wasabi", "Pepper")] != ["Chili", "Wasabi", "Pepper"]
