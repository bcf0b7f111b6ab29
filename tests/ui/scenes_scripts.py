"""Scenes of names in their own scripts seated together (Latin, Cyrillic, kana, kanji, Persian and an emoji):
the table, a challenge, its result, the end, the players list and the score race. Nothing may be a box."""

from __future__ import annotations

from typing import Any

from companion.rules import SPICY, Card, new_setup
from companion.ui.view import TableView
from scenes import scene
from scenes_setup import goto

NAMES = ["Zoë", "Ёжик", "さくら", "佐藤", "سارا", "Ben 🌶️"]


def started(ui: Any, first: int = 0, number: int = 2) -> TableView:
    """Zoë's chili 2 on the stack, Ёжик to play (or the chili ``number`` of the seat ``first``)."""
    ui.app.start_game(new_setup(SPICY, NAMES, first=first, end_card=25))
    ui.step(2)
    view: TableView = ui.app.screen("table").view
    view.declare("chili", number)
    ui.step(2)
    return view


def challenged(ui: Any) -> TableView:
    """さくら challenges Zoë's chili 2: "not that number!"."""
    view = started(ui)
    view.press(2)
    ui.until(lambda: view.buzz is not None)  # the claim is decided by the referee, on its thread
    ui.step(2)
    return view


def ended(ui: Any) -> None:
    """さくら won the stack; the World's End card came out."""
    view = challenged(ui)
    view.call("number")
    view.reveal(Card("chili", 3))
    ui.step(2)
    view.dismiss_result()
    view.end_card_showed()
    ui.step(3)


@scene("scripts-table")
def table(ui: Any) -> None:
    started(ui)


@scene("scripts-challenge")
def challenge(ui: Any) -> None:
    challenged(ui)


@scene("scripts-result")
def result(ui: Any) -> None:
    view = challenged(ui)
    view.call("number")
    view.reveal(Card("chili", 3))
    ui.step(2)


@scene("scripts-end")
def end(ui: Any) -> None:
    ended(ui)


@scene("scripts-players")
def players(ui: Any) -> None:
    ended(ui)
    goto(ui, "players")


@scene("scripts-race")
def race(ui: Any) -> None:
    ended(ui)
    (game,) = ui.app.store.list_games()
    page = ui.app.screen("game")
    page.open(game.id)
    goto(ui, "game")
    ui.tap(page.ids.race_button)
    ui.step(3)


@scene("scripts-challenge-mixed")
def challenge_mixed(ui: Any) -> None:
    """سارا challenges さくら's chili 1: no one font has both, each name in its own."""
    view = started(ui, first=2, number=1)
    view.press(4)
    ui.until(lambda: view.buzz is not None)
    ui.step(2)
