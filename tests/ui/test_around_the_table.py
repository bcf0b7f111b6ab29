"""Around the table: start-up, home, set-up, saved games, settings and the buzzer check, on the real app."""

from __future__ import annotations

import sqlite3
import threading
import wave
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from kivy.uix.scrollview import ScrollView

from companion.config import BuzzerConfig, StoreConfig, UiConfig
from companion.rules import SPICY, EndCardDrawn, Pass, Play, new_setup
from companion.table.session import Session
from companion.store import Store
from companion.ui import theme
from companion.ui.i18n import tr
from companion.table.seating import Seating
from companion.ui.screens.games import GameRow
from companion.ui.screens.setup import SetupScreen
from companion.ui.sounds import FOLDER
from companion.ui.widgets.seat_panel import SeatPanel
from store_helpers import damaged_database


def table_shows(ui, names: tuple[str, ...]) -> bool:  # type: ignore[no-untyped-def]
    """The table screen is showing, its view is the live game and a panel stands for each seat."""
    app = ui.app
    table = app.screen("table")
    panels = [panel.seat.name for panel in ui.find_all(SeatPanel)]
    return (
        app.root.current == "table" and table.view.session is app.session
        and app.session.state.setup.names == names and sorted(panels) == sorted(names)
    )


def toast_text(ui) -> str:  # type: ignore[no-untyped-def]
    toast = ui.app.toast
    return toast.text if toast is not None and toast.parent is not None else ""  # made for the first toast


def tap_in_view(ui, widget) -> None:  # type: ignore[no-untyped-def]
    """Scroll the widget into view first, as a finger would, then tap it."""
    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent
    if parent is not None:
        parent.scroll_to(widget, animate=False)
        ui.step(2)
    ui.tap(widget)


BUTTONS = (5, 6, 13, 19, 26, 16)
LEDS = (17, 27, 22, 23, 24, 25)


def gpio(ui, factory: MockFactory):  # type: ignore[no-untyped-def]
    """Buzzers on GPIO with an LED each, wired to known pins."""
    buzzers = BuzzerConfig(backend="gpio", button_pins=BUTTONS, led_pins=LEDS)
    return ui.start(config=ui.config(buzzers=buzzers), pin_factory=factory)


# --- start-up ------------------------------------------------------------------------------


def test_an_unfinished_game_opens_straight_onto_its_table_with_its_seating(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27))
        for action in (Play(0, "chili", 2), Play(1, "chili", 5), Pass(2)):
            session.apply(action)
        expected = session.state
    app = ui.start()
    assert table_shows(ui, ("Ana", "Ben", "Cy"))
    assert app.session.game_id == session.game_id and app.session.state == expected
    assert app.screen("table").view.turn == 0 and app.screen("table").view.stack == 2
    assert app.seating == Seating.default(3)


def test_a_finished_game_is_not_resumed(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        Session.new(store, new_setup(SPICY, ["Ana", "Ben"])).apply(EndCardDrawn())
    app = ui.start()
    assert app.root.current == "home" and app.session is None


def test_a_log_that_no_longer_replays_opens_home_and_says_why(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new(store, new_setup(SPICY, ["Ana", "Ben"]))
        store.db.execute(
            "INSERT INTO actions (game_id, seq, at, action) VALUES (?, 1, '2025', ?)",
            [session.game_id, '{"action": "play", "seat": 0, "spice": "chili", "number": 7, "universal": false, "tuck": 0}'],
        )
        store.db.conn.commit()
    app = ui.start()
    assert app.root.current == "home" and app.session is None
    assert toast_text(ui) == "Ana must declare any spice 1 to 3: a new stack starts"


def test_the_stores_and_the_buzzers_notices_are_shown_once_in_words(ui, tmp_path: Path) -> None:
    damaged_database(tmp_path / "games.db")
    config = ui.config(buzzers=BuzzerConfig(backend="auto", serial_ports=(str(tmp_path / "no-such-port"),)))
    ui.start(config=config)
    shown = toast_text(ui)
    assert "was damaged and could not be read" in shown and "fresh database was started" in shown
    assert "keys 1 2 3 4 5 6 are the buzzers" in shown
    ui.stop()
    ui.start(config=ui.config(buzzers=BuzzerConfig(backend="keyboard")))
    assert toast_text(ui) == ""


def test_a_database_that_can_only_be_read_says_so_at_start(ui, tmp_path: Path) -> None:
    Store.open(tmp_path / "games.db").close()
    with sqlite3.connect(tmp_path / "games.db") as raw:
        raw.execute("PRAGMA user_version = 99")  # a newer version's schema
    app = ui.start()
    assert app.root.current == "home" and app.store.read_only
    assert f"nothing can be saved in {tmp_path / 'games.db'}: it was made by a newer Spicy Companion" in toast_text(ui)


def test_a_database_that_cannot_be_opened_gets_a_screen_not_a_traceback(ui, tmp_path: Path) -> None:
    (tmp_path / "not-a-folder").write_text("a file where a folder should be")
    app = ui.start(config=ui.config(store=StoreConfig(db=tmp_path / "not-a-folder" / "games.db")))
    assert app.root.current == "problem"
    screen = app.screen("problem")
    assert "not-a-folder is a file, not a folder" in screen.ids.reason.text
    assert app.store is None


# --- home ----------------------------------------------------------------------------------


def test_resume_from_home_says_why_when_there_is_nothing_to_resume(ui) -> None:
    app = ui.start()
    home = app.screen("home")
    assert home.ids.resume.dimmed
    ui.tap(home.ids.resume)
    assert app.root.current == "home" and toast_text(ui) == "There is no unfinished game to resume"
    for name, screen in (("games", "games"), ("buzzers", "buzzers"), ("settings", "settings"), ("new_game", "setup")):
        app.show("home")
        ui.step()
        ui.tap(home.ids[name])
        assert app.root.current == screen


# --- set-up --------------------------------------------------------------------------------


def add_seats(ui, setup: SetupScreen, *names: str) -> None:  # type: ignore[no-untyped-def]
    for name in names:
        setup.ids.new_name.text = name
        ui.tap(setup.ids.add)


def test_a_whole_set_up_by_touch_saves_the_game_and_hands_the_seating_to_the_table(ui) -> None:
    factory = MockFactory()
    app = gpio(ui, factory)
    app.store.add_player("Dee")
    home = app.screen("home")
    ui.tap(home.ids.new_game)
    setup: SetupScreen = app.screen("setup")
    assert app.root.current == "setup" and setup.step == "rules"

    ui.tap(setup.ids.sweet_spicy)
    ui.tap(setup.ids.winner_starts)
    rows = {row.variant: row for row in setup.ids.variants.children}
    for variant in ("copy-cat", "turn-it-up", "spice-raider"):
        tap_in_view(ui, rows[variant].children[-1])
        rows = {row.variant: row for row in setup.ids.variants.children}
    assert setup.draft.variants == ["copy-cat", "turn-it-up"]
    assert toast_text(ui) == "At most two variant cards: take one out first"
    assert rows["copy-cat"].line.startswith("Reading: ") and not rows["turn-it-up"].line.startswith("Reading")

    ui.tap(setup.ids.next)
    assert setup.step == "seats"
    ui.step(2)
    add_seats(ui, setup, "Ana", "[b]Ben[/b]")
    chips = {chip.player: chip for chip in setup.ids.players.children}
    assert list(chips) == ["Dee"]
    ui.tap(chips["Dee"])
    assert setup.draft.names == ["Ana", "[b]Ben[/b]", "Dee"]
    first_row = setup.ids.seat_rows.children[-1]
    ui.tap(first_row.children[-1])  # Ana's colour: the next one nobody wears
    assert setup.draft.colours == [3, 1, 2]
    ui.tap(setup.ids.seat_rows.children[-2].children[1])  # Ben moves one seat later
    assert setup.draft.names == ["Ana", "Dee", "[b]Ben[/b]"]

    ui.tap(setup.ids.next)
    assert setup.step == "buzzers"
    ui.step(2)
    for pin, bound in ((26, 1), (5, 2)):  # buzzers 5 and 1 pressed, by Ana then Dee; Ben skips
        factory.pin(pin).drive_low()
        ui.until(lambda: 3 - setup.draft.buzzers.count(None) == bound)  # noqa: B023 (awaited in the loop)
        factory.pin(pin).drive_high()
    assert setup.draft.buzzers == [4, 0, None]
    app.referee.flush()  # the LEDs change on the referee's thread
    assert factory.pin(17).state  # the LED of the buzzer just bound lights

    ui.tap(setup.ids.next)
    assert setup.step == "first"
    ui.step(2)
    ui.tap(setup.ids.next)
    assert setup.step == "first" and toast_text(ui) == "Choose who plays first, or draw"
    ui.tap(setup.ids.draw)
    assert setup.drawing
    ui.until(lambda: not setup.drawing)
    drawn = setup.draft.first
    assert drawn is not None
    assert [choice.selected for choice in reversed(setup.ids.first_seats.children)] == [s == drawn for s in range(3)]

    ui.tap(setup.ids.next)
    assert setup.step == "table"
    ui.step(2)
    assert setup.ids.end_card.text == "27"
    ui.tap(setup.ids.more)
    ui.tap(setup.ids.more)
    ui.tap(setup.ids.fewer)
    assert setup.ids.end_card.text == "28"
    ui.tap(setup.ids.next)

    ui.step(2)
    assert table_shows(ui, ("Ana", "Dee", "[b]Ben[/b]"))
    state = app.session.state
    assert state.profile.id == "sweet-spicy" and state.setup.names == ("Ana", "Dee", "[b]Ben[/b]")
    assert state.setup.end_card == 28 and state.setup.first == drawn
    assert state.setup.variants == frozenset({"copy-cat", "turn-it-up"})
    assert state.setup.start_after_challenge == "winner"
    assert app.seating == Seating(colours=(3, 2, 1), buzzers=(4, 0, 1))
    saved = app.store.load(app.session.game_id).setup
    assert saved == state.setup
    assert app.store.seating(app.session.game_id) == app.seating  # saved with the game


def test_set_up_refusals_are_toasts_and_change_nothing(ui) -> None:
    app = ui.start()
    app.show("setup")
    ui.step(2)
    setup: SetupScreen = app.screen("setup")
    ui.tap(setup.ids.five_spices)
    ui.tap(setup.ids.winner_starts)
    assert setup.draft.start_after_challenge == "loser" and "seat after the challenger" in toast_text(ui)
    rows = {row.variant: row for row in setup.ids.variants.children}
    tap_in_view(ui, rows["start-it-up"].children[-1])
    assert setup.draft.variants == [] and "not the five-spice game" in toast_text(ui)
    ui.tap(setup.ids.next)
    ui.step(2)
    ui.tap(setup.ids.next)
    assert setup.step == "seats" and toast_text(ui) == "Two seats at least"
    add_seats(ui, setup, "Ana", "  ", "Ana")
    assert setup.draft.names == ["Ana"] and toast_text(ui) == "Ana already has a seat"
    add_seats(ui, setup, "Ben", "Cy", "Dee", "Eve", "Finn", "Gus")
    assert len(setup.draft.names) == 6 and toast_text(ui) == "Six seats at most"
    assert setup.ids.new_name.text == "Gus"  # what was typed is kept


def test_names_are_shown_literally_and_long_ones_shortened(ui) -> None:
    app = ui.start()
    long_name = "[color=f00]Bartholomew-Alexander[/color]"  # 40 characters, the most a name may have
    app.store.add_player(long_name)
    setup: SetupScreen = app.screen("setup")
    app.show("setup")
    setup.go("seats")
    ui.step(2)
    (chip,) = setup.ids.players.children
    assert chip.text == "[color=f00]Bart…" and chip.player == long_name
    ui.tap(chip)
    assert setup.draft.names == [long_name]
    (row,) = setup.ids.seat_rows.children
    label = next(child for child in row.children if getattr(child, "text", None) == long_name)
    assert not label.markup and label.shorten
    assert label.texture_size[0] <= label.width  # drawn shortened, within its row


def test_keys_typed_into_a_name_are_letters_not_buzzers(ui) -> None:
    app = ui.start()
    app.show("setup")
    setup: SetupScreen = app.screen("setup")
    setup.go("seats")
    ui.step(2)
    presses: list[int] = []
    app.listen(lambda buzzer, _time: presses.append(buzzer))
    setup.ids.new_name.focus = True
    ui.step(2)
    ui.key("3")
    setup.ids.new_name.focus = False
    ui.step(2)
    ui.key("4")
    app.referee.flush()  # presses reach the listener on the referee's thread
    assert presses == [3]


# --- saved games ---------------------------------------------------------------------------


def test_saved_games_newest_first_and_a_tap_opens_the_game(ui, tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        started = "2025-01-01T20:00:00.000+00:00"
        old = Session.new(store, new_setup(SPICY, ["Ana", "Ben"], end_card=29), clock=lambda: started)
        old.apply(Play(0, "pepper", 1))
        old.apply(EndCardDrawn())
        later = "2025-03-01T20:00:00.000+00:00"
        Session.new(store, new_setup(SPICY, ["Cy", "Dee", "Eve"]), clock=lambda: later)
    app = ui.start()
    assert table_shows(ui, ("Cy", "Dee", "Eve"))  # the unfinished one
    app.show("games")
    ui.step(3)
    games = app.screen("games")
    rows = sorted(ui.find_all(GameRow), key=lambda row: -row.y)
    assert [(row.title.text, row.names.text) for row in rows] == [
        ("Mar 1, 2025, 8:00\u202fPM · Spicy · 0 moves · unfinished", "Cy, Dee, Eve"),
        ("Jan 1, 2025, 8:00\u202fPM · Spicy · 2 moves · 0 min · Ana won", "Ana −5,  Ben −6"),
    ]
    ui.tap(rows[1])
    page = app.screen("game")
    ui.until(lambda: app.root.current == "game")
    cells = [getattr(cell, "text", "trophy") for cell in reversed(page.ids.summary.children)]
    assert cells[5:] == ["Ana", "5", "0", "0", "−5", "Ben", "6", "0", "0", "−6"]
    assert page.outcome == "The World's End card showed." and not page.unfinished
    ui.tap(page.ids.header.ids.back)
    assert app.root.current == "games" and games.total == 2
    ui.tap(sorted(ui.find_all(GameRow), key=lambda row: -row.y)[0])
    assert page.unfinished
    ui.tap(page.ids.resume)
    ui.step(2)
    assert table_shows(ui, ("Cy", "Dee", "Eve"))


# --- settings ------------------------------------------------------------------------------


def test_settings_apply_at_once_and_outlive_a_restart(ui) -> None:
    app = ui.start(config=ui.config(ui=UiConfig(language="en", sounds=True, face_seats=False)))
    app.show("settings")
    ui.step(2)
    settings = app.screen("settings")
    ui.tap(settings.ids.languages.buttons["fr"])
    ui.tap(settings.ids.sounds_off)
    within_settings = ui.find(ScrollView)
    within_settings.scroll_y = 0  # the last setting is below the fold at 800x480: scrolled to, as a finger would
    ui.step(2)
    ui.tap(settings.ids.face_on)
    assert tr.language == "fr" and tr._("Settings") == "Réglages"
    assert settings.ids.languages.buttons["fr"].selected and not settings.ids.languages.buttons["en"].selected
    assert not app.sounds.enabled and not app.sounds.play("buzz-0")
    assert app.face_seats
    ui.stop()
    again = ui.start(config=ui.config(ui=UiConfig(language="en", sounds=True, face_seats=False)))
    assert (tr.language, again.sounds.enabled, again.face_seats) == ("fr", False, True)
    home = again.screen("home")
    assert home.ids.new_game.text == "Nouvelle partie"
    again.change_settings(language="en")
    assert home.ids.new_game.text == "New game"


def test_sounds_are_preloaded_and_play_when_on(ui) -> None:
    app = ui.start()
    buzzes = {f"buzz-{colour}" for colour in range(len(theme.SEAT_COLOURS))}
    assert set(app.sounds.loaded) == {*buzzes, "decision", "last-card", "end"}
    notes = {wave.open(str(FOLDER / f"{name}.wav")).readframes(2205) for name in buzzes}
    assert len(notes) == len(buzzes)  # each seat colour's buzz is a sound of its own
    assert app.sounds.play("decision")
    assert app.sounds.loaded["decision"].state == "play"
    with pytest.raises(KeyError, match="no sound named 'boom'"):
        app.sounds.play("boom")


# --- the buzzer check ----------------------------------------------------------------------


def test_buzzer_check_lights_the_pressed_buzzer_on_screen_and_its_led(ui) -> None:
    factory = MockFactory()
    app = gpio(ui, factory)
    app.show("buzzers")
    ui.step(2)
    check = app.screen("buzzers")
    assert len(check.lights) == 6 and not any(light.lit for light in check.lights)
    factory.pin(13).drive_low()  # buzzer 3
    ui.until(lambda: check.lights[2].lit)
    assert [light.lit for light in check.lights] == [False, False, True, False, False, False]
    assert check.last == "Buzzer 3 pressed"
    app.referee.flush()  # the LEDs change on the referee's thread
    assert factory.pin(22).state and not factory.pin(17).state  # buzzer 3's LED, not buzzer 1's
    ui.until(lambda: not check.lights[2].lit)
    app.show("home")
    ui.step()
    factory.pin(26).drive_low()  # buzzer 5, once the check has gone: its press is no longer the check's
    threading.Event().wait(0.05)  # confirmed and handed to the referee
    app.referee.flush()
    ui.step(2)
    assert not check.lights[4].lit and check.last == "Buzzer 3 pressed" and not factory.pin(22).state


def test_keys_stand_in_for_buzzers_on_the_check(ui) -> None:
    app = ui.start()
    app.show("buzzers")
    ui.step(2)
    check = app.screen("buzzers")
    ui.key("5")
    ui.until(lambda: check.lights[4].lit)
    ui.key("x")
    assert check.last == "Buzzer 5 pressed"

