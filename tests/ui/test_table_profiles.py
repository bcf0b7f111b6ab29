"""Shorter games for the other profiles: Sweet & Spicy's universal cards, the five-spice game's chains."""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, new_setup
from companion.ui import theme
from companion.ui.widgets.claim_pad import SpiceButton
from companion.ui.widgets.seat_panel import SeatPanel
from companion.ui.widgets.toast import Toast
from layouts import FLAT, LANDSCAPE, PORTRAIT, STANDING, WIDE, params
from table_helpers import Table, on_screen, overlap, within

ANA, BEN, CY = 0, 1, 2


def saved_scores(table: Table) -> dict[str, int | None]:
    return dict(table.app.store.query(
        "SELECT p.name, s.score FROM scores s JOIN players p ON p.id = s.player_id WHERE s.game_id = ?",
        [table.view.session.game_id],
    ))


def test_sweet_spicy_a_universal_survives_and_the_loser_takes_one(ui) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    view, ids = table.view, table.screen.ids
    assert [(s.hand, s.universals) for s in view.seats] == [(7, 1)] * 3 and view.universal_pile == 3
    assert [b.spice for b in ids.pad.ids.spices.children[::-1]] == ["chili", "lemon", "pepper"]

    table.tap(ids.universal)
    table.declare("lemon", 2)
    assert view.top_universal and view.seats[ANA].universals == 0
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_spice)
    assert table.screen.sheet_name == "result"  # decided at once: no card to turn over
    assert table.sheet().ids.title.text == "A universal card: it always survives."
    table.tap(table.sheet().ids.ok)

    assert ids.take_universal.shown and ids.take_universal.text == "Take a universal\nBen · 3 left"
    ui.step(2)
    words, button = within(ids.take_universal, Label), ids.take_universal
    assert button.x <= words.x and words.right <= button.right and 0 < words.texture_size[1] <= button.height
    table.tap(ids.take_universal)
    assert (view.seats[BEN].hand, view.seats[BEN].universals, view.universal_pile) == (10, 2, 2)
    assert not ids.take_universal.shown

    table.tap(ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    assert table.app.root.current == "end"
    shown = {row.name: row.score for row in table.app.screen("end").ids.rows.children}
    # Ana: 1 universal won +5, 6 spice cards in hand -6; Ben: 8 spice -8, 2 universals -10.
    assert saved_scores(table) == {"Ana": -1, "Ben": -18, "Cy": -11}
    assert shown == {"Ana": "\u22121", "Ben": "\u221218", "Cy": "\u221211"}


def test_five_spices_a_challenge_a_chain_and_the_first_empty_hand_wins(ui) -> None:
    table = Table(ui, new_setup(FIVE_SPICES, ["Ana", "Ben", "Cy"], first=ANA))
    view, ids = table.view, table.screen.ids
    assert (view.stack, view.draw_pile, [s.hand for s in view.seats]) == (1, 94, [5, 5, 5])
    assert ids.pad.ids.check.opacity == 0  # a spice is played at once, never picked: nothing to check

    table.declare("salt")
    assert table.lit() == [BEN]  # only the next seat may challenge
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "reveal")
    assert table.sheet().ids.claim_mark.opacity == 0  # no numbered card to mark
    table.tap(within(table.sheet(), SpiceButton, spice="sugar"))
    assert table.sheet().ids.title.text == "Sugar: the claim was a lie."
    table.tap(table.sheet().ids.ok)
    assert [s.hand for s in view.seats] == [7, 5, 5] and view.turn == CY

    table.declare("garlic")
    for spice in ("pepper", "salt", "sugar", "cinnamon"):  # Cy plays on: a chain
        table.tap(ids.chain_button)
        table.declare(spice)
    assert view.seats[CY].hand == 0 and view.last_card == "Cy"
    table.pass_turn()  # Ana draws instead of challenging: Cy's last card stands
    assert table.app.root.current == "end"
    assert table.app.screen("end").ids.title.text == "Cy wins!"
    (winners,) = table.app.store.query("SELECT winners FROM games WHERE id = ?", [view.session.game_id])[0]
    assert winners == '["Cy"]'


def test_variant_cards_a_raid_and_cards_tucked_under_a_five(ui) -> None:
    setup = new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA, variants={"spice-raider", "change-your-luck"})
    table = Table(ui, setup, gpio=False)
    view, ids = table.view, table.screen.ids
    table.declare("chili", 2)
    table.declare("chili", 4)  # Ben's hand goes on the stack
    table.tap(ids.tuck)
    assert ids.tuck.text == "Tuck 1"
    table.declare("chili", 5)  # Cy tucks one more card under the 5: Ben raids what lay under his hand
    assert view.seats[BEN].won == 2 and view.stack == 2
    assert [s.hand for s in view.seats] == [5, 5, 5] and ids.tuck.text == "Tuck 0"


def test_portrait_type_is_a_quarter_larger_and_landscape_type_is_as_designed(ui) -> None:
    sizes = {}
    for layout in STANDING:
        table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]), gpio=False, size=layout.size)
        sizes[layout] = (table.screen.ids.header.font_size, table.screen.ids.title.font_size)
        ui.stop()
    assert sizes[LANDSCAPE] == sizes[WIDE] == (theme.FONT_SMALL, theme.FONT_TITLE)
    assert sizes[PORTRAIT] == (theme.FONT_SMALL * 1.25, theme.FONT_TITLE * 1.25)


def test_sweet_spicy_the_universal_toggle_shows_on_and_starts_off_in_the_next_game(ui) -> None:
    setup = new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA)
    table = Table(ui, setup)
    ids = table.screen.ids
    table.tap(ids.universal)
    assert ids.pad.universal and ids.universal.icon == "check" and list(ids.universal.fill) == list(theme.ACCENT)
    table.tap(ids.draw_pile)
    table.tap(table.sheet().ids.end_card)  # the World's End card: the game is over, the toggle still on
    table.app.start_game(setup)  # play again, Ana first again
    ui.step(2)
    assert not ids.pad.universal and ids.universal.icon == "" and list(ids.universal.fill) == list(theme.RAISED)
    table.declare("lemon", 1)
    assert not table.app.session.state.window.universal  # the next number tapped plays a spice card


def test_the_end_screen_counts_with_the_rules_points_not_its_own(ui, monkeypatch) -> None:
    """Were universal cards worth 7, the end screen's parts would say so: it writes no rule again."""
    from companion.rules import state as rules_state

    monkeypatch.setattr(rules_state, "UNIVERSAL_POINTS", 7)
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ids = table.screen.ids
    table.tap(ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    rows = {row.name: row for row in table.app.screen("end").ids.rows.children}
    # 6 spice cards and 1 universal in hand: -6, and -7 in the universals' own column
    ana = rows["Ana"]
    assert (ana.hand, ana.universals, ana.score, ana.won) == ("\u22126", "\u22127", "\u221213", "+0")


def test_sweet_spicy_shows_each_seats_universal_cards_and_marks_a_universal_on_top(ui) -> None:
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ids = table.screen.ids
    assert [panel_chip(ui, table, i).text for i in (ANA, BEN, CY)] == ["1", "1", "1"]
    assert ids.stack_card.ids.universal.text == ""
    table.tap(ids.universal)
    table.declare("lemon", 2)
    assert [panel_chip(ui, table, i).text for i in (ANA, BEN, CY)] == ["0", "1", "1"]
    assert ids.stack_card.ids.universal.text == "UNIVERSAL"
    table.declare("lemon", 3)  # a spice card on top: no marker
    assert ids.stack_card.ids.universal.text == ""


def panel_chip(ui, table: Table, seat: int) -> Label:
    """The small amber card on a seat's panel counting its universal cards."""
    return ui.find(SeatPanel, seat=table.view.seats[seat]).ids.universals


def test_spicy_panels_count_no_universal_cards(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    assert [panel_chip(ui, table, i).size for i in (ANA, BEN, CY)] == [[0, 0]] * 3


@pytest.mark.parametrize(("size", "flat"), params((LANDSCAPE, FLAT)))
def test_a_refusal_is_shown_clear_of_the_turns_buttons(ui, size: tuple[int, int], flat: bool) -> None:
    """The must-play refusal lay over "Take a universal" for its 3 s: the button the starter needed next."""
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size, face_seats=flat)
    view, ids = table.view, table.screen.ids
    view.declare("pepper", 2)
    ui.hold(ui.find(SeatPanel, seat=view.seats[BEN]), 0.8)  # Ben challenges
    ui.until(lambda: table.screen.sheet_name == "challenge")  # the referee, on its thread, gave Ben the challenge
    table.tap(table.sheet().ids.not_number)
    table.tap(table.sheet().ids.right)  # Ben was right: Ana draws 2 and starts the next stack
    view.dismiss_result()
    ui.step(3)
    table.tap(ids.pass_button)
    assert table.toast().startswith("Ana starts the new stack")
    toast = next(widget for widget in Window.children if isinstance(widget, Toast))
    for button in (ids.pass_button, ids.take_universal, ids.universal):
        assert button.width > 1 and not overlap(on_screen(toast), on_screen(button)), button
