"""Scenes of the table for ``scripts/screenshots`` (which also takes each one lying flat): every
profile, a last card, the World's End near, the challenge, reveal and result sheets, the end screen."""

from __future__ import annotations

import sqlite3
from typing import Any

from kivy.clock import Clock

from companion.rules import FIVE_SPICES, SPICY, SWEET_SPICY, Card, Profile, new_setup
from companion.ui.view import TableView
from scenes import scene

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def start(ui: Any, profile: Profile = SPICY, names: list[str] = NAMES, **options: Any) -> TableView:
    ui.app.start_game(new_setup(profile, names, **options))
    ui.step(2)
    view: TableView = ui.app.screen("table").view
    return view


def mid_game(ui: Any) -> TableView:
    """Ben to play on a chili 7, with a stack of 5 and a trophy taken."""
    view = start(ui, first=1, end_card=25)
    for spice, number in (("chili", 1), ("chili", 2), ("chili", 4), ("chili", 5)):
        view.declare(spice, number)
        view.pass_turn()
    view.declare("chili", 7)
    ui.step(2)
    return view


def buzz(ui: Any, view: TableView, first: str, later: str, delay: float) -> None:
    """Two keys pressed ``delay`` seconds apart, the later one first: the earlier edge wins."""
    now = Clock.get_time()
    ui.app.buzzers.key_down(later, now + delay)
    ui.app.buzzers.key_down(first, now)
    ui.until(lambda: view.buzz is not None)
    ui.step(2)


@scene("table", wide_flat=True)
def table(ui: Any) -> None:
    mid_game(ui)


@scene("table-sweet-spicy")
def table_sweet_spicy(ui: Any) -> None:
    view = start(ui, SWEET_SPICY, variants={"change-your-luck"})
    view.declare("lemon", 2, universal=True)
    ui.step(2)


@scene("table-universal-on")
def table_universal_on(ui: Any) -> None:
    """Sweet & Spicy, the seat to play about to lay a universal card: the toggle shows it is on."""
    start(ui, SWEET_SPICY)
    ui.app.screen("table").ids.pad.universal = True
    ui.step(2)


@scene("table-five-spices")
def table_five_spices(ui: Any) -> None:
    view = start(ui, FIVE_SPICES, NAMES[:3])
    view.declare("cinnamon")
    ui.step(2)


@scene("table-last-card")
def table_last_card(ui: Any) -> None:
    view = start(ui, names=NAMES[:3])
    view.declare("wasabi", 1)
    for number in range(2, 7):
        view.pass_turn()
        view.pass_turn()
        view.declare("wasabi", number)
    ui.step(2)


@scene("table-worlds-end-near")
def table_worlds_end_near(ui: Any) -> None:
    view = start(ui, names=NAMES[:3], end_card=75)
    for _ in range(3):
        view.pass_turn()
    ui.step(2)


@scene("challenge")
def challenge(ui: Any) -> None:
    view = mid_game(ui)
    buzz(ui, view, first="3", later="4", delay=0.012)


@scene("challenge-next-card")
def challenge_next_card(ui: Any) -> None:
    """Dee's buzz took the challenge of Ben's chili 7 while Cy may have laid a card on it already."""
    view = mid_game(ui)
    buzz(ui, view, first="4", later="3", delay=0.012)


@scene("challenge-moving")
def challenge_moving(ui: Any) -> None:
    """The table tapped "For the card Cy just laid": Cy's claim pad is on the sheet."""
    view = mid_game(ui)
    buzz(ui, view, first="4", later="3", delay=0.012)
    view.move_challenge()
    ui.step(2)


@scene("reveal", wide_flat=True)
def reveal(ui: Any) -> None:
    view = mid_game(ui)
    view.press(2)
    ui.until(lambda: view.buzz is not None)  # the claim is decided by the referee, on its thread
    view.call("number")
    ui.step(2)


@scene("result")
def result(ui: Any) -> None:
    view = mid_game(ui)
    view.press(2)
    ui.until(lambda: view.buzz is not None)  # the claim is decided by the referee, on its thread
    view.call("number")
    view.reveal(Card("chili", 4))
    ui.step(2)


@scene("end")
def end(ui: Any) -> None:
    view = mid_game(ui)
    view.end_card_showed()
    ui.step(3)


def universal_survived(ui: Any) -> TableView:
    """Sweet & Spicy: Cy challenged Ben's universal card and lost; Cy may take a universal card."""
    view = start(ui, SWEET_SPICY, first=0, end_card=25)
    view.declare("chili", 1)
    view.declare("chili", 2, universal=True)
    view.press(2)
    ui.until(lambda: view.buzz is not None)  # the claim is decided by the referee, on its thread
    view.call("number")
    view.dismiss_result()
    ui.step(2)
    return view


@scene("table-take-universal")
def table_take_universal(ui: Any) -> None:
    universal_survived(ui)


def sweet_spicy_end(ui: Any) -> None:
    """Sweet & Spicy over, after Cy took a universal card."""
    view = universal_survived(ui)
    view.take_universal()
    view.end_card_showed()
    ui.step(3)


@scene("end-sweet-spicy")
def end_sweet_spicy(ui: Any) -> None:
    sweet_spicy_end(ui)


@scene("end-sweet-spicy-fr")
def end_sweet_spicy_fr(ui: Any) -> None:
    assert ui.app.change_settings(language="fr")
    sweet_spicy_end(ui)


@scene("table-take-universal-fr")
def table_take_universal_fr(ui: Any) -> None:
    assert ui.app.change_settings(language="fr")
    universal_survived(ui)


@scene("database-busy")
def database_busy(ui: Any) -> None:
    """The end screen stays, and says why, when "Play again" finds the database busy."""
    end(ui)
    other = sqlite3.connect(ui.app.store.path, isolation_level=None)  # another program's write lock
    other.execute("BEGIN IMMEDIATE")
    ui.tap(ui.app.screen("end").ids.again)
    other.close()


def count_draw_pile(ui: Any) -> None:
    """Ben to play, the draw-pile sheet open and the table's count two under the companion's."""
    mid_game(ui)
    screen = ui.app.screen("table")
    ui.tap(screen.ids.draw_pile)
    sheet = screen._sheets["draw_pile"]
    ui.tap(sheet.ids.minus)
    ui.tap(sheet.ids.minus)
    ui.step(2)


@scene("draw-pile")
def draw_pile(ui: Any) -> None:
    count_draw_pile(ui)


@scene("draw-pile-fr")
def draw_pile_fr(ui: Any) -> None:
    ui.app.change_settings(language="fr")
    count_draw_pile(ui)


@scene("table-chili-reverses")
def table_chili_reverses(ui: Any) -> None:
    """A chili has turned the play: the title says which way it goes (the longest title, in French)."""
    ui.app.change_settings(language="fr")
    view = start(ui, SWEET_SPICY, first=0, variants={"chili-reverses"})
    view.declare("chili", 2)
    ui.step(2)


SIX = ["Ana", "Benjamin", "Cy", "Dolores", "Eve", "Françoise"]
"""Six seats, two on each long edge lying flat, with names as long as a table's usually are."""


def six_seats(ui: Any) -> None:
    """Six seats in Sweet & Spicy: Cy challenged Benjamin's chili 2 and lost, started the next stack
    with a chili 3, and Dolores (sharing the top edge lying flat) is to play."""
    view = number_called(ui, SWEET_SPICY, SIX)
    view.reveal(Card("chili", 2))
    view.dismiss_result()
    view.declare("chili", 3)
    ui.step(2)


@scene("table-six-seats", wide_flat=True)
def table_six_seats(ui: Any) -> None:
    six_seats(ui)


@scene("table-six-seats-fr")
def table_six_seats_fr(ui: Any) -> None:
    ui.app.change_settings(language="fr")
    six_seats(ui)


def phones_on(ui: Any) -> TableView:
    """The middle of a game with the phone page served (on loopback, as in the tests), back at the table."""
    from companion.phones import address

    address.lan_address, address.PORT = lambda: "127.0.0.1", 0
    view = mid_game(ui)
    ui.app.change_settings(phones=True)
    ui.step(3)
    return view


@scene("table-phones", wide_flat=True)
def table_phones(ui: Any) -> None:
    phones_on(ui)


@scene("phone-link", wide_flat=True)
def phone_link(ui: Any) -> None:
    phones_on(ui)
    ui.tap(ui.app.screen("table").ids.phone_link)


@scene("home-phones")
def home_phones(ui: Any) -> None:
    phones_on(ui)
    ui.app.root.current = "home"
    ui.step(3)


@scene("settings-phones")
def settings_phones(ui: Any) -> None:
    phones_on(ui)
    ui.app.show("settings")
    ui.step(3)
    settings = ui.app.screen("settings")
    settings.children[0].children[0].scroll_to(settings.ids.phones_on, animate=False)


@scene("table-menu-phones", wide_flat=True)
def table_menu_phones(ui: Any) -> None:
    """The table's menu with the phone page served: its code under How to play and Home."""
    phones_on(ui)
    ui.tap(ui.app.screen("table").ids.menu)


LONGEST = ["Ana", "Maximilian-Alexander von Hohenzollern", "Zoë-Françoise", "Dolores", "Ёжик Туманович", "さくら佐藤"]
"""Six seats with the longest names: Maximilian-Alexander's card is challenged."""


def number_called(ui: Any, profile: Profile, names: list[str]) -> TableView:
    """The first seat laid a chili 1, the second a chili 2; the third challenged it: "not that number!"."""
    view = start(ui, profile, names, first=0, end_card=25)
    for number in (1, 2):
        view.declare("chili", number)
    view.press(2)
    ui.until(lambda: view.buzz is not None)  # the claim is decided by the referee, on its thread
    view.call("number")
    ui.step(2)
    return view


def six_long_challenged(ui: Any) -> TableView:
    """Six seats of long names: Zoë-Françoise challenged Maximilian-Alexander's chili 2, "not that number!"."""
    return number_called(ui, SPICY, LONGEST)


@scene("reveal-six-seats")
def reveal_six_seats(ui: Any) -> None:
    """The reveal's title names the longest name whole or cut with an ellipsis, never in the middle of a word."""
    six_long_challenged(ui)


@scene("result-six-seats")
def result_six_seats(ui: Any) -> None:
    """Six narrow result seats: the winner's tab over its name, each count whole ("(+2)" with its bracket)."""
    view = six_long_challenged(ui)
    view.reveal(Card("chili", 4))
    ui.step(2)
