"""A screen lying flat: a seat on each edge, panels turned to face them, and touches on them land."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

from companion.rules import SPICY, new_setup
from companion.ui.words import spice_name
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets.claim_pad import SpiceButton
from companion.ui.widgets.seat_panel import SeatPanel
from table_helpers import Table, inside, on_screen, overlap, reads_from, within

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
    sheet = table.sheet()
    assert screen.sheet_name == "challenge" and sheet.ids.title.text == "Cy challenges!"
    assert round(sheet.parent.parent.rotation) == 180  # the sheet faces Cy across the table
    cancel = sheet.ids.cancel
    assert cancel.to_window(*cancel.center)[1] < height / 2  # Cy's top right is the screen's bottom left
    table.tap(sheet.ids.not_number)
    assert screen.sheet_name == "reveal" and round(table.sheet().parent.parent.rotation) == 180
    table.tap(table.sheet().ids.wrong)  # Cy was wrong: the result faces Cy too
    assert screen.sheet_name == "result" and round(table.sheet().parent.parent.rotation) == 180
    assert table.sheet().ids.detail.text == "Ana wins 1 card; Cy draws 2 and starts the next stack."
    table.tap(table.sheet().ids.undo)  # back to the reveal, still facing Cy
    table.tap(table.sheet().ids.cancel)  # the challenge taken back: the window is open again
    assert screen.sheet_name == "" and view.window

    table.tap(panels[DEE])  # copy-cat, turned a quarter: Dee copies the chili 2
    assert (view.stack, view.claim_number, view.top_player, view.turn) == (2, 2, DEE, ANA)
    ui.hold(panels[BEN], 0.8)
    assert table.sheet().ids.title.text == "Ben challenges!"
    assert round(table.sheet().parent.parent.rotation) == 0
    table.tap(table.sheet().ids.not_spice)
    table.tap(table.sheet().ids.right)  # no card to show: Ben was right
    assert table.sheet().ids.detail.text == "Ben wins 2 cards; Dee draws 2 and starts the next stack."


def test_keys_1_to_6_are_the_buzzers_without_gpio(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    table.declare("pepper", 3)
    ui.key("3")
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.sheet().ids.title.text == "Cy challenges!"
    assert table.sounds == ["buzz"]


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
    assert header.to_window(*header.center)[0] < screen.width / 2  # on Ben's side of the hub
    table.declare("chili", 2)  # taps on the pad turned a quarter
    assert (view.stack, view.claim_number, view.turn) == (2, 2, CY) and reads_from() == "top"
    table.declare("chili", 3)  # taps on the pad turned upside down
    assert (view.stack, view.claim_number, view.turn) == (3, 3, DEE) and reads_from() == "right"


def whole(label: Label) -> bool:
    """The label's text is drawn whole on one line, not shortened."""
    full = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    full.refresh()
    return full.texture.size[0] <= label.width


def targets_fit(screen: Any) -> bool:
    """Every key of the pad and every button of the turn shown is at least 48 dp each way."""
    keys = [w for box in (screen.ids.pad, screen.ids.info) for w in box.walk(restrict=True)
            if isinstance(w, BaseButton) and w.opacity > 0]
    return len(keys) >= 14 and all(min(key.size) >= 48 for key in keys)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_lying_flat_the_seat_to_play_gets_its_panel_and_the_pad_on_its_own_edge(
    ui, size: tuple[int, int]
) -> None:
    """Panel 216 + pad 368 along a long edge (more on a larger screen); on a short edge the pad lies
    inward of the panel."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA), gpio=False, face_seats=True,
                  size=size)
    view, screen = table.view, table.screen
    pad, panels = screen.ids.turn, [ui.find(SeatPanel, seat=seat) for seat in view.seats]
    for seat, edge, number in ((ANA, "bottom", 1), (BEN, "left", 2), (CY, "top", 3), (DEE, "right", 4)):
        assert view.turn == seat
        panel, pad_box = on_screen(panels[seat]), on_screen(pad)
        assert reads_from(pad) == reads_from(panels[seat]) == edge
        assert panels[seat].reserve > 0 and all(other.reserve == 0 for other in panels if other is not panels[seat])
        if edge in ("bottom", "top"):  # side by side along the edge, as deep as each other
            assert (round(pad_box[1]), round(pad_box[3])) == (round(panel[1]), round(panel[3]))
            assert 0 <= min(abs(pad_box[0] - panel[2]), abs(panel[0] - pad_box[2])) <= 16
            assert pad_box[2] - pad_box[0] >= 360 and panel[2] - panel[0] >= 200
        else:  # inward of the panel, as long as it
            assert (round(pad_box[1]), round(pad_box[3])) == (round(panel[1]), round(panel[3]))
            gap = pad_box[0] - panel[2] if edge == "left" else panel[0] - pad_box[2]
            assert 0 <= gap <= 16 and pad_box[3] - pad_box[1] >= 340
        # the hint and Pass sit in the grown panel itself, read from the same edge
        assert inside(on_screen(screen.ids.pass_button), panel) and inside(on_screen(screen.ids.header), panel)
        assert reads_from(screen.ids.pass_button) == edge
        assert not any(overlap(pad_box, on_screen(p)) for p in panels)
        assert not overlap(pad_box, on_screen(screen.ids.hub)) and not overlap(panel, on_screen(screen.ids.hub))
        corners = [on_screen(screen.ids[name]) for name in ("undo", "redo", "menu")]
        assert not any(overlap(box, corner) for box in (pad_box, panel) for corner in corners)
        assert screen.ids.header.text == view.hint  # the name is on the panel already
        assert whole(screen.ids.header)
        assert targets_fit(screen)
        table.declare("chili", number)  # taps on the turned pad land
        assert (view.stack, view.claim_number, view.top_player) == (number, number, seat)
    assert view.turn == ANA and reads_from(pad) == "bottom"  # and the pad came back round


def test_lying_flat_two_seats_on_an_edge_get_the_pad_over_the_hub_in_front_of_them(ui) -> None:
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]  # edges: bottom, bottom, left, top, top, right
    table = Table(ui, new_setup(SPICY, names, first=ANA), gpio=False, face_seats=True)
    view, screen = table.view, table.screen
    pad, panels = screen.ids.turn, [ui.find(SeatPanel, seat=seat) for seat in view.seats]
    for seat, edge, number in ((ANA, "bottom", 1), (BEN, "bottom", 2), (CY, "left", 3), (DEE, "top", 4),
                               (EVE, "top", 5)):
        assert view.turn == seat
        panel, pad_box = on_screen(panels[seat]), on_screen(pad)
        assert reads_from(pad) == reads_from(panels[seat]) == edge
        assert not any(overlap(pad_box, on_screen(p)) for p in panels)
        assert not overlap(pad_box, on_screen(screen.ids.hub))
        if edge != "left":  # in front of its own panel, inward
            assert pad_box[0] < panel[2] and panel[0] < pad_box[2]
            gap = pad_box[1] - panel[3] if edge == "bottom" else panel[1] - pad_box[3]
            assert 0 <= gap <= 16
        assert inside(on_screen(screen.ids.pass_button), panel) and targets_fit(screen)
        table.declare("chili", number)
        assert (view.stack, view.claim_number, view.top_player) == (number, number, seat)


def test_lying_flat_the_spice_keys_show_their_words_beside_their_icons(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=ANA), gpio=False, face_seats=True)
    for _seat in range(2):  # a long edge, then a short one
        for spice in ("chili", "wasabi", "pepper"):
            key = within(table.screen.ids.pad, SpiceButton, spice=spice)
            word = within(key, Label, text=spice_name(spice))
            assert key.icon and key.x <= word.x and word.x + word.texture_size[0] <= key.right
        table.declare("chili", table.view.turn + 1)
