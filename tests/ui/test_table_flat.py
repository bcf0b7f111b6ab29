"""A screen lying flat: a seat on each edge, panels turned to face them, and touches on them land."""

from __future__ import annotations

from companion.rules import SPICY, new_setup
from companion.ui.widgets.seat_panel import SeatPanel
from table_helpers import Table

ANA, BEN, CY, DEE = 0, 1, 2, 3


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
