"""Typing on the on-screen keyboard by touches alone, as a finger would: find the key, tap it."""

from __future__ import annotations

import unicodedata
from typing import Any

from companion.ui.keyboard import (
    ACCENTS, KANA, KATAKANA, LATIN, LETTERS, MORE, SHIFT, SMALL, SPACE, SYMBOLS, SMALL_KANA, VOICED,
)
from companion.ui.widgets.keyboard import KeyboardKey


def keys(ui: Any) -> dict[str, KeyboardKey]:
    """The keys showing, by what they do (a letter in lower case, or an action)."""
    return {key.key.action: key for key in ui.find_all(KeyboardKey)}


def type_on_screen(ui: Any, text: str) -> None:
    """Tap each letter of ``text``, changing layer and shift with their own keys when needed; a kana as a
    Japanese hand types it: katakana by the kana key, が as か then ゛, ぱ as は then ゛ twice, a small kana the
    keyboard has no key for as its large one then 小."""
    keyboard = ui.app.screen_keyboard
    for char in text:
        if "HIRAGANA" in unicodedata.name(char, "") or "KATAKANA" in unicodedata.name(char, ""):
            _type_kana(ui, char)
            continue
        action = SPACE if char == " " else char.lower()
        _find(ui, action)
        if char.isalpha() and char.isupper() != keyboard.shift and char.lower() != char.upper():
            ui.tap(keys(ui)[SHIFT])
        ui.tap(keys(ui)[action])


def _find(ui: Any, action: str) -> None:
    """Show the layer with the key ``action``: try each layer key once."""
    tried: set[str] = set()
    while action not in keys(ui):
        shown = keys(ui)
        layer = next(layer for layer in (MORE, LATIN, ACCENTS, SYMBOLS, LETTERS) if layer in shown and layer not in tried)
        tried.add(layer)
        ui.tap(shown[layer])


def _type_kana(ui: Any, char: str) -> None:
    plain, *marks = unicodedata.normalize("NFD", char)
    foreign = "\u30a1" <= plain <= "\u30fa"
    letter = chr(ord(plain) - KATAKANA) if foreign else plain
    large = next((big for big, tiny in SMALL_KANA.items() if tiny == letter), letter)
    typed = letter if letter in _kana_keys() else large  # a small kana with no key of its own: its large one, 小
    _find(ui, typed)
    if ui.app.screen_keyboard.katakana != foreign:
        ui.tap(keys(ui)[KANA])
    ui.tap(keys(ui)[typed])
    if typed != letter:
        ui.tap(keys(ui)[SMALL])
    for mark in marks:
        for _ in range(1 if mark == "\u3099" else 2):  # ゛ once; ゜ is the key's second tap
            ui.tap(keys(ui)[VOICED])


def _kana_keys() -> set[str]:
    """Every letter of the language's two kana pages."""
    from companion.languages import language
    from companion.ui.i18n import tr

    row = language(tr.language)
    return set("".join(row.letters + row.more_letters))
