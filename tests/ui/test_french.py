"""In French, every message on screen is French: the engine's refusals, the buzzers' and the store's notices.

Each expected sentence is built from the French catalogue (the template and the
table words in it, names and paths as they are), never copied from the English.
"""

from __future__ import annotations

import errno
import gettext
import os
import sqlite3
from pathlib import Path

import pytest

from companion.languages import CODES
from companion import __version__
from companion.config import BuzzerConfig, StoreConfig, UiConfig
from companion.rules import SPICY, new_setup
from companion.store import Store
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.widgets.claim_pad import NumberButton
from companion.ui.widgets.seat_panel import SeatPanel
from store_helpers import damaged_database
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2
f = gettext.translation("companion", LOCALE, languages=["fr"]).gettext


@pytest.fixture
def table(ui) -> Table:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"]))
    assert table.app.change_settings(language="fr")
    return table


def in_french(ui, **sections) -> None:  # type: ignore[no-untyped-def]
    ui.start(config=ui.config(ui=UiConfig(language="fr"), **sections))


def test_a_tap_on_an_illegal_number_says_why_in_french(table: Table) -> None:
    table.declare("chili", 2)
    table.tap(within(table.screen.ids.pad, NumberButton, number=2))
    numbers = f("{low} to {high}").format(low=3, high=10)
    why = f("the stack is {spice} and stands at {number}").format(spice=f("chili"), number=2)
    options = f("{spice} {numbers}").format(spice=f("chili"), numbers=numbers)
    assert table.toast() == f("{name} must declare {options}: {why}").format(name="Ben", options=options, why=why)
    assert table.toast().startswith("Ben doit annoncer piment 3")
    assert table.view.stack == 1


def test_a_challenge_with_no_card_to_challenge_says_why_in_french(table: Table, ui) -> None:  # type: ignore
    nothing = f("there is no card to challenge: a card can be challenged only until the next seat plays or passes")
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.toast() == nothing)
    table.app.toast.dismiss()
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[CY]), 0.8)
    assert table.toast() == nothing and nothing.startswith("aucune carte à défier")


def test_a_second_buzz_says_who_challenges_in_french(table: Table, ui) -> None:  # type: ignore[no-untyped-def]
    table.declare("pepper", 1)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.buzz((CY, 0.0))
    ui.until(lambda: table.toast() == f("{name} buzzed too late: {challenger} challenges").format(
        name="Cy", challenger="Ben"))


def test_a_buzz_by_the_cards_own_player_says_so_in_french(table: Table, ui) -> None:  # type: ignore[no-untyped-def]
    table.declare("wasabi", 3)
    table.buzz((ANA, 0.0))
    ui.until(lambda: table.toast() == f("{name} played this card and cannot challenge it").format(name="Ana"))
    ui.hold(ui.find(SeatPanel, seat=table.view.seats[ANA]), 0.8)  # a long press on the own panel: the engine says no
    assert table.toast() == f("{name} cannot challenge their own card").format(name="Ana")


# --- what the store and the buzzers say at start ---------------------------------------------


def test_the_stores_and_the_buzzers_notices_are_french(ui, tmp_path: Path) -> None:  # type: ignore
    damaged_database(tmp_path / "games.db")
    in_french(ui, buzzers=BuzzerConfig(backend="auto", serial_ports=(str(tmp_path / "no-such-port"),)))
    shown = ui.app.toast.text
    moved = f("{path} was damaged and could not be read: it was moved to {moved}").format(
        path=tmp_path / "games.db", moved="")
    assert moved in shown and f("{notice} and a fresh database was started").format(notice="") in shown
    assert f("{problem}; keys {keys} are the buzzers").format(problem="", keys="1 2 3 4 5 6") in shown
    assert "damaged" not in shown and "are the buzzers" not in shown


def test_a_database_that_can_only_be_read_says_so_in_french(ui, tmp_path: Path) -> None:  # type: ignore
    Store.open(tmp_path / "games.db").close()
    with sqlite3.connect(tmp_path / "games.db") as raw:
        raw.execute("PRAGMA user_version = 99")  # a newer version's schema
    in_french(ui)
    why = f("it was made by {who}, newer than this version ({version}): update the app to save games in it; "
            "reading works").format(who=f("a newer Spicy Companion"), version=__version__)
    assert f("nothing can be saved in {path}: {why}").format(path=tmp_path / "games.db", why=why) in ui.app.toast.text


def test_a_database_that_cannot_be_opened_says_why_in_french(ui, tmp_path: Path) -> None:  # type: ignore
    (tmp_path / "not-a-folder").write_text("a file where a folder should be")
    in_french(ui, store=StoreConfig(db=tmp_path / "not-a-folder" / "games.db"))
    assert ui.app.screen("problem").ids.reason.text == f(
        "cannot keep the database at {path}: {folder} is a file, not a folder"
    ).format(path=tmp_path / "not-a-folder" / "games.db", folder=tmp_path / "not-a-folder")


# --- what the settings screen refuses ----------------------------------------------------------


def french_settings(ui) -> None:  # type: ignore[no-untyped-def]
    """The app started in English, switched to French by a tap on the settings screen."""
    ui.start()
    ui.app.show("settings")
    ui.until(lambda: not ui.app.root.transition.is_active)
    ui.tap(ui.app.screen("settings").ids.languages.buttons["fr"])
    assert tr.language == "fr"


def shown_toast(ui) -> str:  # type: ignore[no-untyped-def]
    toast = ui.app.toast
    return toast.text if toast is not None and toast.parent is not None else ""  # made for the first toast


def test_a_value_the_config_refuses_is_refused_in_french_with_the_value_as_typed(ui) -> None:  # type: ignore
    french_settings(ui)
    assert ui.app.change_settings(language="tlh") is False
    refused = f("[ui] language must be one of {languages}, not {value}").format(languages=", ".join(CODES), value="'tlh'")
    assert shown_toast(ui) == refused == f"[ui] language doit être l’une des langues {', '.join(CODES)}, pas 'tlh'"
    assert ui.app.change_settings(sounds="yes") is False
    kind = f("[{section}] {key} must be {expected}, not {value}").format(
        section="ui", key="sounds", expected=f("true or false"), value="'yes'")
    assert shown_toast(ui) == kind == "[ui] sounds doit être true ou false, pas 'yes'"
    assert (ui.app.prefs_ui.language, ui.app.prefs_ui.sounds, tr.language) == ("fr", True, "fr")


def test_a_tap_whose_setting_cannot_be_kept_says_so_in_french_and_changes_nothing(ui) -> None:  # type: ignore
    french_settings(ui)
    blocked = ui.app.prefs.path.with_name(ui.app.prefs.path.name + ".new")
    blocked.mkdir()  # where the new file is written first: a folder, so the write fails even for root
    settings = ui.app.screen("settings")
    ui.tap(settings.ids.sounds_off)
    assert shown_toast(ui) == f("The setting could not be kept in {path}: {reason}").format(
        path=ui.app.prefs.path, reason=os.strerror(errno.EISDIR))
    assert shown_toast(ui).startswith("Le réglage n’a pas pu être gardé dans ")
    assert ui.app.prefs_ui.sounds is True and settings.ids.sounds_on.selected and ui.app.sounds.enabled
