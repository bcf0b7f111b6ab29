"""Scenes around the table: home, set-up step by step, saved games, settings, the buzzer check."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from keyboard_helpers import keys, type_on_screen
from scenes import scene

from companion.rules import SPICY, EndCardDrawn, Play, new_setup
from companion.table.session import Session
from companion.store import Store, StoreError
from companion.ui.i18n import tr
from companion.ui.keyboard import ACCENTS

OWN_SCRIPT_NAMES = {"ru": "Ёжик", "ja": "さくら", "fa": "علی‌رضا"}
"""A name in the table's own script where its letters are not Latin ones, typed on its own layout."""


def goto(ui: Any, screen: str) -> Any:
    ui.app.show(screen)
    ui.step(3)
    return ui.app.screen(screen)


def seat(ui: Any, *names: str) -> Any:
    """Set-up at its seats step with these names typed in."""
    setup = goto(ui, "setup")
    setup.go("seats")
    ui.step(2)
    for name in names:
        setup.ids.new_name.text = name
        ui.tap(setup.ids.add)
    return setup


def save_games(ui: Any) -> None:
    store = ui.app.store
    finished = Session.new(store, new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27))
    for action in (Play(0, "chili", 2), Play(1, "chili", 5), EndCardDrawn()):
        finished.apply(action)
    Session.new(store, new_setup(SPICY, ["Dee", "Eve"]))


@scene("home")
def home(ui: Any) -> None:
    goto(ui, "home")


@scene("settings")
def settings(ui: Any) -> None:
    goto(ui, "settings")


@scene("buzzer-check")
def buzzer_check(ui: Any) -> None:
    goto(ui, "buzzers")
    ui.key("3")


@scene("setup-rules")
def setup_rules(ui: Any) -> None:
    setup = goto(ui, "setup")
    setup.change("toggle_variant", "copy-cat")
    setup.change("toggle_variant", "start-it-up")


@scene("setup-seats")
def setup_seats(ui: Any) -> None:
    ui.app.store.add_player("Finn")
    ui.app.store.add_player("Gus")
    seat(ui, "Ana", "Ben", "Cy", "Dee")


def typing(ui: Any, text: str) -> Any:
    """The seats step with the on-screen keyboard up and ``text`` typed on it."""
    ui.app.prefs.ui = replace(ui.app.prefs.ui, keyboard="screen")
    ui.app.store.add_player("Finn")
    setup = seat(ui, "Ana", "Ben")
    ui.tap(setup.ids.new_name)
    type_on_screen(ui, text)
    return setup


@scene("setup-keyboard")
def setup_keyboard(ui: Any) -> None:
    typing(ui, OWN_SCRIPT_NAMES.get(tr.language, "Zoë"))


@scene("setup-keyboard-accents")
def setup_keyboard_accents(ui: Any) -> None:
    typing(ui, "Zo")
    ui.tap(keys(ui)[ACCENTS])


@scene("setup-buzzers")
def setup_buzzers(ui: Any) -> None:
    setup = seat(ui, "Ana", "Ben", "Cy")
    setup.go("buzzers")
    ui.step(2)
    ui.key("2")


@scene("setup-first")
def setup_first(ui: Any) -> None:
    setup = seat(ui, "Ana", "Ben", "Cy")
    setup.go("first")
    setup.choose_first(1)
    ui.step(2)


@scene("setup-table")
def setup_table(ui: Any) -> None:
    setup = seat(ui, "Ana", "Ben", "Cy")
    setup.choose_first(0)
    setup.go("table")
    ui.step(2)


@scene("setup-starting")
def setup_starting(ui: Any) -> None:
    """"Start the game" in the frame of its tap, before the table is built."""
    setup = seat(ui, "Ana", "Ben", "Cy")
    setup.choose_first(0)
    setup.go("table")
    setup.starting = True
    ui.step(2)


@scene("database-problem")
def database_problem(ui: Any) -> None:
    blocker = ui.tmp_path / "not-a-folder"
    blocker.write_text("a file where the database folder should be")
    try:
        Store.open(blocker / "games.db")
    except StoreError as exc:
        goto(ui, "problem").explain(str(exc))


@scene("start-up-notices")
def start_up_notices(ui: Any) -> None:
    damaged = ui.tmp_path / "damaged.db"
    Store.open(damaged).close()
    with damaged.open("r+b") as file:  # ours by its header, its schema page wiped
        file.seek(100)
        file.write(bytes(3996))
    store = Store.open(damaged)
    store.close()
    goto(ui, "home")
    ui.app.notify(f"{store.notice}\nno GPIO on this machine; keys 1 2 3 4 5 6 are the buzzers", 10)


@scene("unfinished-game")
def unfinished_game(ui: Any) -> None:
    """New game with a game unfinished: resume it or abandon it first."""
    Session.new(ui.app.store, new_setup(SPICY, ["Ana", "Ben", "Maximilian-Alexander", "Dee"]))
    home = goto(ui, "home")
    ui.tap(home.ids.new_game)


@scene("setup-rules-fr")
def setup_rules_fr(ui: Any) -> None:
    ui.app.change_settings(language="fr")
    setup_rules(ui)


@scene("setup-rules-new-cards")
def setup_rules_new_cards(ui: Any) -> None:
    """The two cards of the French rule sheet, at the foot of the list."""
    setup = goto(ui, "setup")
    setup.change("toggle_variant", "four-is-any")
    setup.change("toggle_variant", "chili-reverses")
    ui.step(2)
    page = setup.ids.variants
    while not hasattr(page, "scroll_y"):  # the step's page scrolls
        page = page.parent
    if page.children and page.children[0].height > page.height:
        page.scroll_y = 0
    ui.step(3)


@scene("setup-rules-new-cards-fr")
def setup_rules_new_cards_fr(ui: Any) -> None:
    ui.app.change_settings(language="fr")
    setup_rules_new_cards(ui)
