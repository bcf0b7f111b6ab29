"""The on-screen keyboard: a Pi with only its touchscreen types a new player's name, by touches alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from kivy.core.window import Window
from kivy.metrics import dp

from companion.config import UiConfig
from companion.store import Store
from companion.store.simulate import simulate
from companion.ui.keyboard import ACCENTS, BACKSPACE, ENTER, HIDE, LATIN, LETTERS, SPACE, SYMBOLS
from companion.ui.screens.setup import SetupScreen
from companion.ui.widgets.keyboard import KeyboardKey, TextField
from keyboard_helpers import keys, type_on_screen
from layouts import FLAT, LANDSCAPE, LAYOUTS, params

def window_box(widget) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def seats_step(ui) -> SetupScreen:  # type: ignore[no-untyped-def]
    """Home, New game, Next: the seats step, reached by taps."""
    home = ui.app.screen("home")
    ui.tap(home.ids.new_game)
    setup: SetupScreen = ui.app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    assert setup.step == "seats"
    return setup


@pytest.mark.parametrize(("size", "flat"), params(LAYOUTS))
def test_zoe_is_typed_by_touches_alone_and_gets_a_seat(ui, size, flat) -> None:
    app = ui.start(size=size, config=ui.config(ui=UiConfig(keyboard="screen", face_seats=flat)))
    key_events: list[object] = []
    Window.bind(on_key_down=lambda *args: key_events.append(args))
    setup = seats_step(ui)
    field = setup.ids.new_name
    ui.tap(field)
    keyboard = app.screen_keyboard
    assert field.focus and keyboard.parent is Window and keyboard.target is field.__self__

    shown = ui.find_all(KeyboardKey)
    assert len(shown) > 30
    for key in shown:  # every key a finger's size, every key on the glass
        x0, y0, x1, y1 = window_box(key)
        assert key.width >= dp(48) and key.height >= dp(48), key.key
        assert 0 <= x0 and x1 <= Window.width and 0 <= y0, key.key
    _, bottom, _, top = window_box(field)
    assert bottom >= keyboard.top and top <= Window.height  # the field stays in sight above the keys

    type_on_screen(ui, "Zoë")
    assert field.text == "Zoë"
    ui.tap(keys(ui)[ENTER])
    assert setup.draft.names == ["Zoë"] and field.text == ""
    assert field.focus and keyboard.parent is Window  # the next name needs no tap on the field

    type_on_screen(ui, "Jean-Luc")
    ui.tap(setup.ids.add)  # the Add button beside the field does the same
    assert setup.draft.names == ["Zoë", "Jean-Luc"] and field.focus and keyboard.parent is Window

    ui.tap(keys(ui)[HIDE])
    assert not field.focus and keyboard.parent is None and app.root.y == 0
    ui.tap(field)
    ui.tap(keys(ui)[ENTER])  # on an empty field, Enter puts the keys away too, and Next shows
    assert not field.focus and keyboard.parent is None and setup.draft.names == ["Zoë", "Jean-Luc"]
    assert key_events == []


def test_french_types_on_azerty_and_the_enter_key_says_what_it_does(ui) -> None:
    app = ui.start(config=ui.config(ui=UiConfig(keyboard="screen", language="fr")))
    setup = seats_step(ui)
    ui.tap(setup.ids.new_name)
    row = sorted((key for key in ui.find_all(KeyboardKey)), key=lambda key: (-key.y, key.x))
    assert [key.text for key in row[:6]] == ["A", "Z", "E", "R", "T", "Y"]
    assert keys(ui)[ENTER].text == "Ajouter"
    type_on_screen(ui, "Françoise")
    ui.tap(keys(ui)[ENTER])
    assert setup.draft.names == ["Françoise"]
    assert app.screen_keyboard.target is setup.ids.new_name.__self__


@pytest.mark.parametrize(("size", "flat"), [((800, 480), False), ((720, 1280), False), ((800, 480), True)],
                         ids=["800x480", "720x1280", "800x480-flat"])
def test_russian_types_a_cyrillic_name_on_jcuken_and_a_visitor_s_on_the_latin_keys(ui, size, flat) -> None:
    """Twelve keys in a row still fit the narrowest window a finger's size; one key brings the Latin letters
    and their accents, and the keys go back to Cyrillic. Touches only: no key event reaches the window."""
    ui.start(size=size, config=ui.config(ui=UiConfig(keyboard="screen", language="ru", face_seats=flat)))
    key_events: list[object] = []
    Window.bind(on_key_down=lambda *args: key_events.append(args))
    setup = seats_step(ui)
    field = setup.ids.new_name
    ui.tap(field)
    shown = ui.find_all(KeyboardKey)
    top_row = sorted((key for key in shown if len(key.key.action) == 1), key=lambda key: (-key.y, key.x))[:12]
    assert "".join(key.text for key in top_row) == "ЙЦУКЕНГШЩЗХЪ"
    for key in shown:
        x0, y0, x1, y1 = window_box(key)
        assert key.width >= dp(48) and key.height >= dp(48), key.key
        assert 0 <= x0 and x1 <= Window.width and 0 <= y0, key.key
    assert keys(ui)[LATIN].text == "ABC" and ACCENTS not in keys(ui)

    for letter in "ёжик":  # shift comes on by itself for the first letter
        ui.tap(keys(ui)[letter])
    assert field.text == "Ёжик"
    assert keys(ui)[ENTER].text == "Добавить"
    ui.tap(keys(ui)[ENTER])

    ui.tap(keys(ui)[LATIN])
    for letter in "zo":
        ui.tap(keys(ui)[letter])
    ui.tap(keys(ui)[ACCENTS])
    ui.tap(keys(ui)["ë"])
    assert "z" in keys(ui) and keys(ui)[LETTERS].text == "АБВ"  # back to the Latin letters after an accent
    ui.tap(keys(ui)[LETTERS])
    assert "ж" in keys(ui) and "z" not in keys(ui)
    ui.tap(keys(ui)[ENTER])
    assert setup.draft.names == ["Ёжик", "Zoë"]
    assert key_events == []


def test_a_table_with_a_keyboard_types_on_it(ui) -> None:
    app = ui.start(config=ui.config(ui=UiConfig(keyboard="physical")))
    setup = seats_step(ui)
    ui.tap(setup.ids.new_name)
    assert setup.ids.new_name.focus and app.screen_keyboard.parent is None
    for name in ("Ana", "Ben"):
        Window.dispatch("on_textinput", name)  # what the window sends as the keyboard types
        ui.step()
        Window.dispatch("on_key_down", 13, 36, None, [])  # Enter
        ui.step()
        Window.dispatch("on_key_up", 13, 36)
        ui.step()
    assert setup.draft.names == ["Ana", "Ben"] and setup.ids.new_name.focus  # Enter keeps the focus
    Window.dispatch("on_textinput", "Cy")
    ui.step()
    ui.tap(setup.ids.add)
    assert setup.draft.names == ["Ana", "Ben", "Cy"] and setup.ids.new_name.focus


def test_a_field_low_on_its_screen_is_lifted_above_the_keys_and_still_takes_touches(ui) -> None:
    """Any screen's TextField gets the keyboard: here one at the foot of Home, where the keys would land."""
    app = ui.start(size=(720, 1280), config=ui.config(ui=UiConfig(keyboard="screen")))
    home = app.screen("home")
    field = TextField(size_hint=(None, None), size=(dp(300), dp(56)), pos=(dp(16), dp(16)), enter_text="OK")
    home.add_widget(field)
    ui.step(2)
    ui.tap(field)
    keyboard = app.screen_keyboard
    ui.step(2)
    _, bottom, _, top = window_box(field)
    assert app.root.y > 0 and keyboard.top <= bottom and top <= Window.height
    type_on_screen(ui, "Noël 2")
    ui.tap(field)  # a touch on the lifted field lands on it: the focus stays
    assert field.text == "Noël 2" and field.focus
    ui.tap(keys(ui)[HIDE])
    assert app.root.y == 0 and keyboard.parent is None


def test_a_field_that_takes_the_focus_before_the_keyboard_is_made_ahead_still_gets_it(ui) -> None:
    """Start-up makes the keyboard and the toast after the first frame; a field focused sooner makes the
    keyboard then, and a message after it still shows above the keys."""
    app = ui.start(config=ui.config(ui=UiConfig(keyboard="screen")))
    setup = seats_step(ui)
    app._screen_keyboard = app._toast = None  # as before start-up's work after the first frame has made them
    ui.tap(setup.ids.new_name)
    keyboard = app.screen_keyboard
    assert keyboard.parent is Window and keyboard.target is setup.ids.new_name.__self__
    type_on_screen(ui, "Zoë")
    ui.tap(keys(ui)[ENTER])
    assert setup.draft.names == ["Zoë"]
    app.notify("shown above the keys")
    ui.step()
    assert app.toast.parent is Window and app.toast.y >= keyboard.top


def tap_letters(ui, text: str) -> None:  # type: ignore[no-untyped-def]
    """Each key as it shows, its layer's key first when another layer has it; shift is never tapped, so
    every capital is the keyboard's own."""
    for char in text:
        action = SPACE if char == " " else char
        if action not in keys(ui):
            ui.tap(keys(ui)[SYMBOLS if action in ".!?" else LETTERS])
        ui.tap(keys(ui)[action])


@pytest.mark.parametrize(("size", "flat"), params((LANDSCAPE, FLAT)))
def test_a_note_and_a_rename_put_the_keys_away_and_shift_only_starts_a_name_or_a_sentence(ui, size, flat) -> None:
    with Store.open(ui.tmp_path / "games.db") as store:
        simulate(store, 1, seed=1, start=datetime(2026, 1, 1, tzinfo=UTC))
        name = store.players()[0]
    app = ui.start(size=size, config=ui.config(ui=UiConfig(keyboard="screen", face_seats=flat)))
    keyboard, page = app.screen_keyboard, app.screen("game")
    assert page.open(1)
    app.show("game")
    ui.step(2)
    ui.tap(page.ids.note)
    tap_letters(ui, "zoes first win. next")
    assert page.ids.note.text == "Zoes first win. Next"
    ui.tap(keys(ui)[ENTER])  # the keyboard's Save note
    assert app.store.query("SELECT note FROM games WHERE id = 1")[0][0] == "Zoes first win. Next" and keyboard.parent is None
    assert (app.toast.text, app.toast.good) == ("Note saved", True)  # a tick, not the warning sign
    page.ids.note.text = ""
    ui.tap(page.ids.note)
    tap_letters(ui, "ben won")
    ui.tap(page.ids.keep_note)
    assert app.store.query("SELECT note FROM games WHERE id = 1")[0][0] == "Ben won" and keyboard.parent is None

    player = app.screen("player")
    assert player.open(name)
    app.show("player")
    ui.step(2)
    ui.tap(player.ids.manage_tab)
    ui.tap(player.ids.rename)
    for _ in name:
        ui.tap(keys(ui)[BACKSPACE])
    tap_letters(ui, "mary ann")
    assert player.ids.rename.text == "Mary ann"
    ui.tap(player.ids.rename_button)
    assert keyboard.parent is None and player.sheet.parent is not None
