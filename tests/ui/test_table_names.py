"""Long names follow one rule: a sentence shortens its names (with an ellipsis), never its words, and fits its box.

A table toast ends as the turn moves on and never covers the challenge buttons. (The last-card banner's
name: tests/ui/test_table_layout_applied.py.)
"""

from __future__ import annotations

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window

from companion.rules import SPICY, Card, new_setup
from companion.ui.i18n import tr
from companion.ui.words import spice_name
from companion.ui.screens.game import MomentRow
from companion.ui.screens.result import ResultSeat
from companion.ui.widgets.claim_pad import NumberButton
from companion.ui.widgets.fit import ELLIPSIS
from companion.ui.widgets.seat_panel import SeatPanel
from companion.ui.widgets.toast import Toast
from companion.languages import CODES
from layouts import LAYOUTS, SHAPES, params, sizes
from table_helpers import MAX, Table, on_screen, overlap, shows, within

ANNE = "Anne-Charlotte-Sophie de Villeneuve"
NAMES = [MAX, "Ben", ANNE, "Dee"]


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("size", sizes(SHAPES))
def test_long_names_give_way_in_every_sheet_sentence(ui, language: str, size: tuple[int, int]) -> None:  # type: ignore
    table = Table(ui, new_setup(SPICY, NAMES, first=1, end_card=25), gpio=False, size=size)
    assert table.app.change_settings(language=language)
    view = table.view
    for spice, number in (("chili", 1), ("chili", 2), ("chili", 4), ("chili", 5)):
        table.declare(spice, number)
        table.pass_turn()
    table.declare("chili", 7)  # Ben's card, Anne-Charlotte to play
    for panel in ui.find_all(SeatPanel):
        shows(panel.ids.name, "{name}", {"name": panel.seat.name})
    if size[0] < size[1]:
        shows(table.screen.ids.player, tr._("{name} to play"), {"name": ANNE})
    else:
        shows(table.screen.ids.header, tr._("{name} to play: {hint}"), {"name": ANNE}, hint=view.hint)

    view.press(2)
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    sheet = table.sheet()
    shows(sheet.ids.title, tr._("{name} challenges {player}'s {claim}"), {"name": ANNE, "player": "Ben"},
          claim=f"{spice_name('chili')} 7")
    shows(sheet.ids.call, tr._("What does {name} call?"), {"name": ANNE})
    shows(sheet.ids.not_spice.ids.line, tr._("{name} wins if it isn't {spice}"), {"name": ANNE},
          spice=tr._("Chili"))
    shows(sheet.ids.not_number.ids.line, tr._("{name} wins if it isn't a {number}"), {"name": ANNE}, number=7)

    table.tap(sheet.ids.not_number)
    ui.until(lambda: table.screen.sheet_name == "reveal")
    ui.step(2)
    sheet = table.sheet()
    shows(sheet.ids.title, tr._("Flip {name}'s card. Which is it?"), {"name": "Ben"})
    shows(sheet.ids.line, tr._("{name} called {called} on {claim}"), {"name": ANNE},
          called=tr._('"not that number!"'), claim=tr._("Chili") + " 7")

    view.reveal(Card("chili", 4))  # the number was a lie: Anne-Charlotte wins the stack, Ben draws and starts
    ui.until(lambda: table.screen.sheet_name == "result")
    ui.step(2)
    sheet = table.sheet()
    said = {"winner": ANNE, "loser": "Ben"}
    clauses = (tr.ngettext("{winner} wins {n} card", "{winner} wins {n} cards", 5).replace("{n}", "5"),
               tr._("{loser} draws {n} and starts the next stack").replace("{n}", "2"))
    shows(sheet.ids.detail, tr._("{clauses}.").replace("{clauses}", tr._("; ").join(clauses)), said)
    for seat in ui.find_all(ResultSeat):
        shows(seat.ids.name, "{name}", {"name": seat.name})
        assert ELLIPSIS not in seat.ids.counts.text and "..." not in seat.ids.counts.text


def test_six_narrow_result_seats_keep_every_count_whole(ui) -> None:  # type: ignore[no-untyped-def]
    """"hand 6 (+6...n 14 (+10)" once: a narrow seat takes a line for each count instead."""
    names = [MAX, "Ben", ANNE, "Dee", "Eve", "Fay"]
    table = Table(ui, new_setup(SPICY, names, first=1, end_card=25), gpio=False)
    view = table.view
    for number in (1, 2, 4, 5, 7, 8):
        view.declare("chili", number)
    view.press(1)  # Ben challenges Maximilian-Alexander's chili 8
    ui.until(lambda: view.buzz is not None)
    view.call("number")
    view.reveal(Card("chili", 4))
    ui.until(lambda: table.screen.sheet_name == "result")
    ui.step(3)
    for seat in ui.find_all(ResultSeat):
        counts = seat.ids.counts
        words = counts.text.replace("\u00a0", " ")
        assert "hand" in words and ("won" in words or not seat.score), words
        drawn = CoreLabel(text=counts.text, font_size=counts.font_size, text_size=(counts.width, None)).render()
        assert drawn[1] <= counts.height + 1 and counts.y >= seat.y - 1, (counts.text, counts.size, drawn)


def test_a_refusal_toast_ends_when_the_turn_moves_on(ui) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=0), gpio=False)
    pad = table.screen.ids.pad
    table.tap(within(pad, NumberButton, number=3))  # no spice chosen on a new stack
    assert table.toast() == "Ana: choose a spice first, then its number"
    table.tap(within(pad, NumberButton, number=4))  # refused again: the same moment, the toast stays
    assert table.toast() == "Ana: choose a spice first, then its number"
    table.declare("chili", 2)  # Ana plays: Ben's turn
    assert table.toast() == ""


def test_a_toast_from_the_table_ends_with_the_game(ui) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=0), gpio=False)
    table.tap(within(table.screen.ids.pad, NumberButton, number=3))
    assert table.toast() == "Ana: choose a spice first, then its number"
    table.tap(table.screen.ids.draw_pile)  # the table saw the World's End card
    table.tap(table.sheet().ids.end_card)
    ui.until(lambda: table.app.root.current == "end")
    assert table.toast() == ""


@pytest.mark.parametrize("size,flat", params(LAYOUTS))
def test_a_toast_never_covers_the_challenge_buttons(ui, size: tuple[int, int], flat: bool) -> None:  # type: ignore
    """A press too late is told while the challenger chooses: the toast sits clear of both choices."""
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=0), size=size, face_seats=flat)
    table.declare("pepper", 1)
    table.buzz((1, 0.0))  # Ben's buzzer
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.buzz((2, 0.0))  # Cy's, too late
    ui.until(lambda: table.toast() == "Cy buzzed too late: Ben challenges")
    ui.step(3)
    toasts = [w for w in Window.children if isinstance(w, Toast)]
    sheet = table.sheet()
    for choice in (sheet.ids.not_spice, sheet.ids.not_number):
        assert not overlap(on_screen(toasts[0]), on_screen(choice)), (on_screen(toasts[0]), on_screen(choice))
    table.tap(sheet.ids.not_spice)  # the challenge is called: the toast about it ends
    assert table.toast() == ""


@pytest.mark.parametrize("language", CODES)
def test_the_review_timeline_keeps_every_word_of_a_line_with_long_names(ui, language: str) -> None:  # type: ignore
    table = Table(ui, new_setup(SPICY, NAMES, first=1, end_card=25), gpio=False, size=(720, 1280))
    assert table.app.change_settings(language=language)
    view = table.view
    view.declare("chili", 1)
    view.press(2)
    ui.until(lambda: view.buzz is not None)
    view.call("number")
    view.reveal(Card("chili", 4))
    view.dismiss_result()
    view.end_card_showed()
    ui.step(3)
    page = table.app.screen("game")
    assert page.open(table.app.session.game_id)
    table.app.show("game")
    ui.step(5)
    rows = ui.find_all(MomentRow)
    assert any(ANNE[:4] in row.ids.said.text for row in rows)
    for row in rows:
        shows(row.ids.said, row.said.template, row.said.names)
