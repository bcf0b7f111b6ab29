"""A screen lying flat: a seat on each edge, panels turned to face them, and touches on them and on the pad
turned to the seat to play land; everything on the table fits whole. (Where each part goes, and that only
the pad turns as play goes round: tests/test_table_layout.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

from kivy.metrics import sp

from companion.languages import language as language_row
from companion.rules import SPICY, SWEET_SPICY, new_setup
from companion.ui.words import spice_name
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets.claim_pad import SpiceButton
from companion.ui.widgets.seat_panel import SeatPanel
from companion.languages import CODES

from table_helpers import Table, inside, on_screen, overlap, targets_fit, whole, within

ANA, BEN, CY, DEE, EVE, FAY = 0, 1, 2, 3, 4, 5


def test_lying_flat_each_seat_faces_its_edge_and_touches_on_turned_panels_land(ui) -> None:
    setup = new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA, variants={"copy-cat"})
    table = Table(ui, setup, gpio=False, face_seats=True)
    view, screen = table.view, table.screen
    panels = [ui.find(SeatPanel, seat=seat) for seat in view.seats]
    assert [round(slot.angle) for slot in screen._slots] == [0, 270, 180, 90]  # bottom, left, top, right
    centres = [panel.to_window(*panel.center) for panel in panels]
    width, height = screen.size
    assert centres[ANA][1] < height / 4 and centres[CY][1] > height * 3 / 4
    assert centres[BEN][0] < width / 4 and centres[DEE][0] > width * 3 / 4

    table.declare("chili", 2)
    ui.hold(panels[CY], 0.8)  # upside down, on the far edge: Cy challenges
    ui.until(lambda: screen.sheet_name == "challenge")  # the claim is decided by the referee, on its thread
    ui.step(2)
    sheet = table.sheet()
    assert screen.sheet_name == "challenge" and sheet.ids.title.text.startswith("Cy challenges ")
    assert round(sheet.parent.parent.rotation) == 180  # the sheet faces Cy across the table
    cancel = sheet.ids.cancel
    assert cancel.to_window(*cancel.center)[1] < height / 2  # Cy's top right is the screen's bottom left
    table.tap(sheet.ids.not_number)
    assert screen.sheet_name == "reveal" and round(table.sheet().parent.parent.rotation) == 180
    table.tap(table.sheet().ids.wrong)  # Cy was wrong: the result faces Cy too
    assert screen.sheet_name == "result" and round(table.sheet().parent.parent.rotation) == 180
    assert table.sheet().ids.detail.text == "Ana wins 1 card; Cy draws 2 and starts the next stack."
    table.tap(screen.ids.undo)  # back to the reveal, still facing Cy
    table.tap(table.sheet().ids.cancel)  # the challenge taken back: the window is open again
    assert screen.sheet_name == "" and view.window

    table.tap(panels[DEE])  # copy-cat, turned a quarter: Dee copies the chili 2
    assert (view.stack, view.claim_number, view.top_player, view.turn) == (2, 2, DEE, ANA)
    ui.hold(panels[BEN], 0.8)
    assert table.sheet().ids.title.text.startswith("Ben challenges ")
    assert round(table.sheet().parent.parent.rotation) == 0
    table.tap(table.sheet().ids.not_spice)
    table.tap(table.sheet().ids.right)  # no card to show: Ben was right
    assert table.sheet().ids.detail.text == "Ben wins 2 cards; Dee draws 2 and starts the next stack."


def test_keys_1_to_6_are_the_buzzers_without_gpio(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    table.declare("pepper", 3)
    ui.key("3")
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.sheet().ids.title.text.startswith("Cy challenges ")
    assert table.sounds == ["buzz-2"]  # Cy's colour's buzz


def test_lying_flat_the_claim_pad_turns_to_the_seat_to_play_and_taps_on_it_land(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA), gpio=False, face_seats=True)
    view, screen = table.view, table.screen
    header, pass_button = screen.ids.header, screen.ids.pass_button

    def reads_from() -> str:
        """The edge the pad's bottom row (Pass) faces: the seat reading it sits there."""
        (hx, hy), (px, py) = header.to_window(*header.center), pass_button.to_window(*pass_button.center)
        if abs(hx - px) > abs(hy - py):
            return "left" if px < hx else "right"
        return "bottom" if py < hy else "top"

    assert reads_from() == "bottom"
    table.declare("chili", 1)
    assert view.turn == BEN and reads_from() == "left"
    table.declare("chili", 2)  # taps on the pad turned a quarter
    assert (view.stack, view.claim_number, view.turn) == (2, 2, CY) and reads_from() == "top"
    table.declare("chili", 3)  # taps on the pad turned upside down
    assert (view.stack, view.claim_number, view.turn) == (3, 3, DEE) and reads_from() == "right"


SIX = ["Ana", "Benjamin", "Cy", "Dolores", "Eve", "Françoise"]


def text_fits(label: Label) -> bool:
    """``label`` draws its whole text inside its own box: not shortened, not spilling out."""
    full = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    full.refresh()
    return bool(label.text) and full.texture.size[0] <= label.width + 0.5 and "\u2026" not in label.text


def buttons_fit(screen: Any) -> list[str]:
    """Every turn button shown draws its words whole, at 14 sp or more, and keeps to its own box, clear
    of the others and of the pad's keys; each complaint names the button."""
    row = screen.ids.turn_row
    shown = [button for button in row.children if button.opacity > 0]
    keys = [w for w in screen.ids.pad.walk(restrict=True) if isinstance(w, BaseButton)]
    wrong = []
    for button in shown:
        room = button.width - button.padding[0] - button.padding[2] - 3 * button.spacing
        room -= button.icon_size if button.icon else 0
        widest = max(CoreLabel(font_size=button.font_size, bold=True).get_extents(line)[0]
                     for line in button.text.split("\n"))
        if widest > room + 0.5 or button.font_size < sp(14) - 0.5:
            wrong.append(f"{button.text!r} is cut or too small")
        others = [on_screen(w) for w in shown + keys if w is not button]
        if any(overlap(on_screen(button), box) for box in others):
            wrong.append(f"{button.text!r} overlaps")
    return wrong


@pytest.mark.parametrize("language", CODES)
def test_lying_flat_with_six_seats_every_name_and_every_button_fits_whole(ui, language: str) -> None:
    """Sweet & Spicy at 800x480 with six seats: each seat in turn to play (names on the long edges
    never shrink), then the turn with the most buttons (Pass, Universal and Take a universal)."""
    table = Table(ui, new_setup(SWEET_SPICY, SIX, first=ANA), gpio=False, face_seats=True)
    assert table.app.change_settings(language=language, face_seats=True)
    ui.step(2)
    view, screen = table.view, table.screen
    panels = [ui.find(SeatPanel, seat=seat) for seat in view.seats]
    for seat in range(6):
        assert view.turn == seat
        for panel in panels:
            ids = panel.ids
            assert text_fits(ids.name), f"{ids.name.text!r} is cut"
            if language_row(language).rtl:  # mirrored: "pts" at the left, the counts right of it
                assert ids.won.x >= ids.counts.x - 0.5 and ids.counts.x >= ids.pts.right - 0.5
            else:
                assert ids.won.right <= ids.counts.right + 0.5 and ids.counts.right <= ids.pts.x + 0.5  # "pts" clear of won
            assert text_fits(ids.pts)
        assert not buttons_fit(screen) and whole(screen.ids.header) and targets_fit(screen)
        table.declare("chili", seat + 1)


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("seats", [4, 5])
def test_lying_flat_the_turn_with_the_most_buttons_keeps_them_whole_and_off_the_pad(
    ui, seats: int, language: str
) -> None:
    """Sweet & Spicy at 800x480: Cy (top edge with four seats, a short edge with five) loses a challenge
    on Ana's universal card and may take one: Pass, Universal and Take a universal all show."""
    table = Table(ui, new_setup(SWEET_SPICY, SIX[:seats], first=ANA), gpio=False, face_seats=True)
    assert table.app.change_settings(language=language, face_seats=True)
    view, screen = table.view, table.screen
    table.tap(screen.ids.universal)
    table.declare("chili", 3)
    ui.hold(ui.find(SeatPanel, seat=view.seats[CY]), 0.8)
    ui.until(lambda: table.screen.sheet_name == "challenge")  # the referee, on its thread, gave Cy the challenge
    table.tap(table.sheet().ids.not_number)  # a universal card is every number: settled at once
    table.tap(table.sheet().ids.ok)
    take = screen.ids.take_universal
    assert view.turn == CY and view.may_take_universal == CY and take.shown and screen.ids.universal.shown
    assert not buttons_fit(screen) and targets_fit(screen)
    assert not overlap(on_screen(take), on_screen(screen.ids.pad))
    table.tap(take)
    assert view.seats[CY].universals == 2 and not take.shown


def test_lying_flat_the_spice_keys_show_their_words_beside_their_icons(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA), gpio=False, face_seats=True)
    for _seat in range(2):  # a long edge, then a short one
        for spice in ("chili", "wasabi", "pepper"):
            key = within(table.screen.ids.pad, SpiceButton, spice=spice)
            word = within(key, Label, text=spice_name(spice))
            assert key.icon and key.x <= word.x and word.x + word.texture_size[0] <= key.right
        table.declare("chili", table.view.turn + 1)


def test_lying_flat_a_trophy_takers_name_shows_whole_beside_its_trophy(ui) -> None:
    """At 800x480 the trophy row is tall and narrow: one trophy a line, the taker's name beside it."""
    table = Table(ui, new_setup(SPICY, SIX, first=ANA), gpio=False, face_seats=True)
    trophies = table.screen.ids.trophies
    trophies.takers = [("Benjamin", (0.36, 0.61, 0.94, 1))]  # as the view sets it when Benjamin takes one
    ui.step(2)
    slots = list(reversed(trophies.ids.slots.children))
    assert trophies.across and len(slots) == 3
    assert slots[0].center_y > slots[1].center_y > slots[2].center_y  # a column, first taken first
    name = within(slots[0], Label, text="Benjamin")
    assert text_fits(name) and inside(on_screen(name), on_screen(trophies))


def test_lying_flat_with_four_seats_the_last_card_banner_names_the_seat_whole(ui) -> None:
    """The banner sits in a narrow tile of the hub, printed twice: the name shrank to "Bartholo…" there."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Bartholomew", "Dee"], first=CY), face_seats=True, gpio=False)
    for number in range(1, 7):
        table.declare("wasabi", number)
        if number < 6:
            for _ in range(3):
                table.view.pass_turn()
    ui.step(3)
    banner = table.screen.ids.banner
    assert banner.opacity == 1 and table.view.last_card == "Bartholomew"
    titles = [label for label in ui.find_all(Label) if label.text.endswith("last card!")]
    assert len(titles) == 2 and all(label.text == "Bartholomew: last card!" for label in titles)
    assert all(label.font_size >= sp(14) for label in titles)
