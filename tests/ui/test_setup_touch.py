"""Set-up on a touch-only table: the way back to last time's table, chips that stay put, buzzer pairing,
the draw for the first player, and what the five-spice game puts out."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from companion.config import BuzzerConfig
from companion.rules import SPICY, EndCardDrawn, new_setup
from companion.table.seating import Seating
from companion.ui.screens.setup import SetupScreen

BUTTONS = (5, 6, 13, 19, 26, 16)


def toast_text(ui) -> str:  # type: ignore[no-untyped-def]
    return ui.app.toast.text if ui.app.toast.parent is not None else ""


def window_box(widget) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def setup_at(ui, step: str, *names: str) -> SetupScreen:  # type: ignore[no-untyped-def]
    setup: SetupScreen = ui.app.screen("setup")
    ui.app.show("setup")
    ui.step(2)
    for name in names:
        setup.draft.add_seat(name)
    setup.go(step)
    ui.step(2)
    return setup


def test_same_table_as_last_time_is_one_tap_then_start(ui) -> None:
    app = ui.start()
    home = app.screen("home")
    assert home.ids.same_table.dimmed
    ui.tap(home.ids.same_table)
    assert app.root.current == "home" and toast_text(ui) == "No game has been played here yet: start a new one"

    setup = new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=30, variants=frozenset({"copy-cat"}))
    app.start_game(setup, Seating(colours=(3, 1, 5), buzzers=(2, 0, 4)))
    app.session.apply(EndCardDrawn())
    app.show("home")
    ui.step(2)
    assert not home.ids.same_table.dimmed
    ui.tap(home.ids.same_table)
    screen: SetupScreen = app.screen("setup")
    assert app.root.current == "setup" and screen.step == "table"
    assert screen.draft.names == ["Ana", "Ben", "Cy"] and screen.first_line.endswith("plays first")
    ui.tap(screen.ids.next)  # Start the game
    ui.step(2)
    again = app.session.state.setup
    assert app.root.current == "table" and app.session.game_id != 1
    assert (again.profile, again.names, again.end_card, again.variants) == (SPICY, setup.names, 30, setup.variants)
    assert app.seating == Seating(colours=(3, 1, 5), buzzers=(2, 0, 4))


def test_saved_players_chips_stay_put_while_names_are_added(ui) -> None:
    app = ui.start()
    for name in ("Dee", "Cy", "Ben", "Ana"):  # Ana the most recent
        app.store.add_player(name)
    setup = setup_at(ui, "seats")
    chips = {chip.player: chip for chip in setup.ids.players.children}
    places = {name: window_box(chip) for name, chip in chips.items()}
    ui.tap(chips["Ana"])
    ui.tap_at(*(sum(places["Ben"][0::2]) / 2, sum(places["Ben"][1::2]) / 2))  # where Ben's chip was
    assert setup.draft.names == ["Ana", "Ben"]
    chips = {chip.player: chip for chip in setup.ids.players.children}
    assert {name: window_box(chip) for name, chip in chips.items()} == places
    assert [chips[name].selected for name in ("Ana", "Ben", "Cy", "Dee")] == [True, True, False, False]
    ui.tap(chips["Ana"])  # a second tap gives the seat back
    assert setup.draft.names == ["Ben"]


def test_buzzer_pairing_ignores_a_second_press_and_can_be_skipped(ui) -> None:
    factory = MockFactory()
    app = ui.start(config=ui.config(buzzers=BuzzerConfig(backend="gpio", button_pins=BUTTONS, led_pins=())),
                   pin_factory=factory)
    setup = setup_at(ui, "buzzers", "Ana", "Ben", "Cy", "Dee")
    page = setup.ids.buzzer_rows.parent
    _, low, _, high = window_box(page)
    for row in setup.ids.buzzer_rows.children:  # all four seats above the fold at 800x480
        _, bottom, _, top = window_box(row)
        assert low <= bottom and top <= high, row.name
    for _ in range(2):  # Ana slaps buzzer 5 twice
        factory.pin(26).drive_low()
        ui.until(lambda: setup.draft.buzzers[0] == 4)
        factory.pin(26).drive_high()
        app.referee.flush()
        ui.step(3)
    assert setup.draft.buzzers == [4, None, None, None] and toast_text(ui) == ""
    waiting = [row.name for row in setup.ids.buzzer_rows.children if row.waiting]
    assert waiting == ["Ben"]
    ui.tap(setup.ids.skip_buzzers)
    assert setup.step == "first"


def test_next_during_the_draw_waits_for_it_then_moves_on(ui) -> None:
    ui.start()
    setup = setup_at(ui, "first", "Ana", "Ben", "Cy")
    ui.tap(setup.ids.draw)
    assert setup.drawing
    ui.tap(setup.ids.next)
    assert setup.step == "first" and toast_text(ui) == ""
    ui.until(lambda: setup.step == "table")
    assert setup.draft.first is not None


def test_the_five_spice_game_puts_out_no_trophies_and_no_worlds_end_card(ui) -> None:
    ui.start()
    setup = setup_at(ui, "rules")
    ui.tap(setup.ids.five_spices)
    setup.draft.add_seat("Ana")
    setup.draft.add_seat("Ben")
    setup.draft.first = 0
    setup.go("table")
    ui.step(2)
    for picture in (setup.ids.trophies_out, setup.ids.end_card_out):
        assert picture.opacity == 0 and picture.height == 0
    assert setup.ids.more.disabled
    setup.go("rules")
    ui.step(2)
    ui.tap(setup.ids.spicy)
    setup.go("table")
    ui.step(2)
    assert setup.ids.trophies_out.opacity == 1 and setup.ids.end_card_out.opacity == 1
