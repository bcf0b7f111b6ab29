"""What the table draws fits where it is drawn: the turn's buttons fill their row, a claim's word its card."""

from __future__ import annotations

import pytest

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, new_setup
from companion.ui.words import spice_name
from companion.ui.widgets.claim_pad import spice_icon
from companion.ui.widgets.stack_card import StackCard
from table_helpers import Table, within

ANA = 0
SIZES = [(800, 480), (720, 1280)]


@pytest.mark.parametrize("size", SIZES)
def test_pass_alone_spans_the_turn_row(ui, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size)
    ids = table.screen.ids
    row = ids.pass_button.parent
    hidden = (ids.universal, ids.tuck, ids.take_universal, ids.challenge_button, ids.chain_button)
    assert not any(button.shown for button in hidden)
    assert (ids.pass_button.x, ids.pass_button.width) == pytest.approx((row.x, row.width), abs=1)


def test_a_button_shown_again_takes_its_share_of_the_row(ui) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    ids = table.screen.ids
    row = ids.pass_button.parent
    assert ids.universal.shown and ids.universal.parent is row
    assert ids.pass_button.x == pytest.approx(row.x, abs=1) and ids.universal.right == pytest.approx(row.right, abs=1)
    assert ids.pass_button.width == pytest.approx(ids.universal.width, abs=1)


@pytest.mark.parametrize("size", SIZES)
def test_every_five_spices_word_fits_its_stack_card(ui, size: tuple[int, int]) -> None:  # type: ignore
    """A claim's word is drawn whole inside the card, shrunk when it must be, in either language."""
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size)
    card = within(table.screen, StackCard)
    word = card.ids.word
    for language in ("en", "fr"):
        assert table.app.change_settings(language=language)
        for spice in FIVE_SPICES.spices:
            assert table.view.declare(spice)
            ui.step(2)
            if spice_icon(spice):
                assert word.text == ""  # the card shows the spice's icon
                continue
            assert word.text == spice_name(spice) and word.texture_size[0] > 0
            left, right = card.to_window(word.center_x - word.texture_size[0] / 2, 0)[0], card.to_window(
                word.center_x + word.texture_size[0] / 2, 0)[0]
            card_left, card_right = card.to_window(card.card_x, 0)[0], card.to_window(card.card_x + card.card_w, 0)[0]
            assert card_left <= left and right <= card_right, (spice, language, word.texture_size, card.card_w)
