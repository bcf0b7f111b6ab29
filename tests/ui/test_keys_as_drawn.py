"""The claim pad in portrait and the reveal sheet, drawn as the design draws them: keys that name their
spice in word and picture, number keys dark with the spice in their outline, the pick and the claim marked."""

from __future__ import annotations

import pytest
from kivy.uix.label import Label

from companion.rules import SPICY, new_setup
from companion.ui import theme
from companion.ui.words import spice_name
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.icon import Icon
from layouts import LAYOUTS, params
from table_helpers import Table, inside, on_screen, overlap, within

ANA, BEN, CY = 0, 1, 2
SPICES = ("chili", "wasabi", "pepper")


def icon_of(key: SpiceButton) -> Icon:
    return within(key, Icon, source=theme.icon(key.spice))


def word_fits(key: SpiceButton) -> bool:
    word = within(key, Label, text=spice_name(key.spice))
    return key.x <= word.x and word.x + word.texture_size[0] <= key.right


def marked_by(table: Table, text: str) -> tuple[float, float, float, float] | None:
    """The box of the visible mark holding a label ``text`` (the claim's tag), or None."""
    labels = [w for w in table.ui.find_all(Label, text=text) if w.parent.opacity > 0]
    return on_screen(labels[0].parent) if labels else None


@pytest.mark.parametrize("size, flat", params(LAYOUTS))
def test_the_reveal_sheet_names_each_spice_row_and_marks_the_claimed_card(ui, size, flat) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size, face_seats=flat)
    table.declare("wasabi", 3)
    ui.key("2")  # Ben challenges
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    sheet = table.sheet()
    assert table.screen.sheet_name == "reveal"
    window = (0, 0, *size)
    for spice in SPICES:
        head = within(sheet, Label, text=spice_name(spice)).parent  # the word, on a key with the spice's picture
        assert icon_of(head).width >= 32 and word_fits(head) and inside(on_screen(head), window)
        keys = [k for k in sheet.walk(restrict=True) if isinstance(k, NumberButton) and k.spice == spice]
        assert len(keys) == 10 and all(min(k.size) >= 48 and k.height <= 2 * k.width for k in keys)
        for key in keys:  # dark tiles, the spice's colour in a bright outline, light numbers
            assert max(key.fill[:3]) <= 0.4 and max(key.border_colour[:3]) >= 0.6 and min(key.ink[:3]) >= 0.9
    claimed = within(sheet, NumberButton, spice="wasabi", number=3)
    mark = marked_by(table, "CLAIM")
    assert mark is not None and inside(on_screen(claimed), mark)
    others = [k for k in sheet.walk(restrict=True) if isinstance(k, NumberButton) and k is not claimed]
    assert not any(inside(on_screen(k), mark) for k in others)
    assert inside(mark, window)
    table.tap(claimed)  # the marked card is what Ben showed: Ben was wrong
    assert table.screen.sheet_name == "result"


def test_in_portrait_the_pad_has_a_head_big_numbers_and_marks_the_spice_picked(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=BEN), gpio=False, size=(720, 1280))
    ids, view = table.screen.ids, table.view
    table.declare("chili", 2)
    assert view.turn == CY
    assert ids.player.text == "Cy to play" and ids.header.text == view.hint  # the name, then the hint under it
    assert within(ids.in_hand, Label, text=str(view.seats[CY].hand))
    avatar = within(ids.info, Label, text="C")
    assert min(avatar.parent.size) >= 48 and not overlap(on_screen(avatar.parent), on_screen(ids.player))
    numbers = [k for k in ids.pad.walk(restrict=True) if isinstance(k, NumberButton)]
    assert all(k.font_size == 40 for k in numbers)  # the design's pad numbers in portrait
    assert all(100 <= k.width and 100 <= k.height <= 1.25 * k.width for k in numbers)
    for spice in SPICES:
        key = within(ids.pad, SpiceButton, spice=spice)
        assert icon_of(key).width >= 32 and word_fits(key) and key.height >= 64
    check = ids.pad.ids.check

    def checked(spice: str) -> bool:
        left, bottom, right, top = on_screen(check)
        centre = ((left + right) / 2, (bottom + top) / 2)
        return check.opacity == 1 and inside(centre * 2, on_screen(within(ids.pad, SpiceButton, spice=spice)))

    assert checked("chili") and not checked("wasabi")
    table.tap(within(ids.pad, SpiceButton, spice="wasabi"))  # picked, though no wasabi may follow a chili 2
    assert checked("wasabi") and not checked("chili") and view.turn == CY
    table.declare("chili", 5)
    assert view.turn == ANA and ids.player.text == "Ana to play"
    assert within(ids.in_hand, Label, text=str(view.seats[ANA].hand))
