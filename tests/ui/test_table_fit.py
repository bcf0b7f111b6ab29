"""What the table draws fits where it is drawn: the turn's buttons fill their row, a claim's word its card."""

from __future__ import annotations

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.metrics import sp

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, new_setup
from companion.ui.theme import FONT_SCORE, signed, spice_icon
from companion.ui.words import spice_name
from companion.ui.widgets.seat_panel import SeatPanel
from companion.ui.widgets.stack_card import StackCard
from companion.languages import CODES
from layouts import FLAT, SHAPES, sizes
from table_helpers import Table, within

ANA = 0


@pytest.mark.parametrize("size", sizes(SHAPES))
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


@pytest.mark.parametrize("size", sizes(SHAPES))
def test_every_five_spices_word_fits_its_stack_card(ui, size: tuple[int, int]) -> None:  # type: ignore
    """A claim's word is drawn whole inside the card, shrunk when it must be, in every language."""
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size)
    card = within(table.screen, StackCard)
    word = card.ids.word
    for language in CODES:
        assert table.app.change_settings(language=language)
        for spice in FIVE_SPICES.spices:
            assert table.view.declare(spice)
            ui.step(2)
            if spice_icon(spice):
                assert word.text == ""  # the card shows the spice's icon
            else:
                assert word.text == spice_name(spice) and word.texture_size[0] > 0
                left, right = card.to_window(word.center_x - word.texture_size[0] / 2, 0)[0], card.to_window(
                    word.center_x + word.texture_size[0] / 2, 0)[0]
                card_left = card.to_window(card.card_x, 0)[0]
                card_right = card.to_window(card.card_x + card.card_w, 0)[0]
                assert card_left <= left and right <= card_right, (spice, language, word.texture_size, card.card_w)
            assert table.view.undo()  # the hands last through every language: an empty hand would end the game


@pytest.mark.parametrize("size,flat,names", [
    pytest.param(*layout, ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"][:6 if layout.flat else 4], id=str(layout))
    for layout in (*SHAPES, FLAT)])
def test_a_seat_score_of_up_to_four_characters_stays_whole_on_one_line(  # type: ignore[no-untyped-def]
        ui, size: tuple[int, int], names: list[str], flat: bool) -> None:
    """"−11" once wrapped in its box in portrait and showed only "1"; every score fits, "−100" too."""
    table = Table(ui, new_setup(SPICY, names, first=ANA), gpio=False, size=size, face_seats=flat)
    panels = [ui.find(SeatPanel, seat=seat) for seat in table.view.seats]
    for score in (-1, -10, -11, 99, -100):
        for seat in table.view.seats:
            seat.score = score
        ui.step(3)
        for panel in panels:
            label = panel.ids.score
            assert label.text == signed(score)
            drawn = CoreLabel(font_size=label.font_size, bold=True).get_extents(label.text)  # the line unwrapped
            assert drawn[0] <= label.width and drawn[1] <= label.height, (score, size, label.size, drawn)
            assert len(label._label._cached_lines) == 1, (score, size, "wrapped onto a second line")
            assert label.font_size >= 0.6 * sp(FONT_SCORE), (score, size, "shrunk past reading from a metre")
            assert panel.x <= label.x and label.right <= panel.right + 1  # the box is inside its panel
