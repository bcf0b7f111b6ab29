"""Typing on the on-screen keyboard by touches alone, as a finger would: find the key, tap it."""

from __future__ import annotations

from typing import Any

from companion.ui.keyboard import ACCENTS, LATIN, LETTERS, SHIFT, SPACE, SYMBOLS
from companion.ui.widgets.keyboard import KeyboardKey


def keys(ui: Any) -> dict[str, KeyboardKey]:
    """The keys showing, by what they do (a letter in lower case, or an action)."""
    return {key.key.action: key for key in ui.find_all(KeyboardKey)}


def type_on_screen(ui: Any, text: str) -> None:
    """Tap each letter of ``text``, changing layer and shift with their own keys when needed."""
    keyboard = ui.app.screen_keyboard
    for char in text:
        action = SPACE if char == " " else char.lower()
        tried: set[str] = set()
        while action not in keys(ui):  # another layer has it: try each layer key once
            shown = keys(ui)
            layer = next(layer for layer in (LATIN, ACCENTS, SYMBOLS, LETTERS) if layer in shown and layer not in tried)
            tried.add(layer)
            ui.tap(shown[layer])
        if char.isalpha() and char.isupper() != keyboard.shift and char.lower() != char.upper():
            ui.tap(keys(ui)[SHIFT])
        ui.tap(keys(ui)[action])
