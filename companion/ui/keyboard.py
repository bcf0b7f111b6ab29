"""Which keyboard the table types with, and the keys of the one drawn on screen.

A Pi lying on the table has a touchscreen and no keyboard, so a text field
there needs keys on the screen; a desktop with a keyboard types on that.
``[ui] keyboard`` says which: ``screen``, ``physical``, or ``auto`` (the
default), which draws the keys in a full-screen kiosk and wherever no
keyboard with letters is plugged in. Plain Python, so the choice and the
layouts are tested without a window.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from companion import languages

SHIFT, BACKSPACE, ENTER, SPACE, HIDE = "shift", "backspace", "enter", "space", "hide"
"""Keys that do something other than type their own letter."""
KANA, VOICED, SMALL = "kana", "voiced", "small"
"""The kana keys: hiragana or katakana (where shift is on other keyboards), the dakuten key (か→が, は→ば→ぱ)
and the small-kana key (や→ゃ, つ→っ), each changing the kana just typed, as a Japanese phone's keys do."""
ZWNJ = "\u200c"
"""The half-space (zero-width non-joiner) that Persian writes between the parts of a word that do not join
(می‌شود). A layout whose letters hold it (Persian's) has it where Shift is: its letters have no capitals."""
LETTERS, MORE, LATIN, ACCENTS, SYMBOLS = "letters", "more", "latin", "accents", "symbols"
"""The layers: a key on each switches to another. ``MORE`` is the second page of a language with more letters
than three rows hold (``Language.more_letters``); ``LATIN`` is the source language's letters, a layer of
its own only where the language's letters are not Latin ones."""

LETTER_KEYS = range(16, 26)
"""Linux key codes of the top letter row (Q to P): a keyboard has them all, a power button or a GPIO key
none. They sit in the lowest 32 bits of the kernel's key bitmap, whatever the size of its words."""


@dataclass(frozen=True)
class Key:
    """One key: what it types (a letter) or does (``SHIFT``, a layer's name...), and how wide it is."""

    action: str
    width: float = 1.0


def physical_keyboard(sys_dir: Path = Path("/sys")) -> bool:
    """Whether an input device with the letter keys is plugged in (read each time: keyboards come and go)."""
    for event in (sys_dir / "class" / "input").glob("event*"):
        try:
            words = (event / "device" / "capabilities" / "key").read_text().split()
            low = int(words[-1], 16) if words else 0
        except (OSError, ValueError):
            continue
        if all(low >> code & 1 for code in LETTER_KEYS):
            return True
    return False


def screen_keyboard_wanted(setting: str, fullscreen: bool, sys_dir: Path = Path("/sys")) -> bool:
    """The ``[ui] keyboard`` rule: draw the keys on screen, or leave typing to a keyboard?

    >>> screen_keyboard_wanted("screen", False), screen_keyboard_wanted("physical", True)
    (True, False)
    >>> screen_keyboard_wanted("auto", True)  # a kiosk: always
    True
    """
    if setting != "auto":
        return setting == "screen"
    return fullscreen or not physical_keyboard(sys_dir)


_ACCENT_ROWS = ("éèêëàâäçôö", "îïìíûüùúÿñ", "áåãæœóøß")
"""The letters names need beyond a-z: French first, then the neighbours' (Zoë, José, Björn, Søren)."""
_SYMBOL_ROWS = ("1234567890", "-'.&()_!?@", ",:;\"/#+*")


def rows(layer: str, language: str) -> list[list[Key]]:
    """The keys of a layer, row by row, the letters in the language's layout (``companion.languages``);
    every row is 10 to 12 keys wide, so keys keep one size.

    >>> [key.action for key in rows(LETTERS, "fr")[0]][:3]
    ['a', 'z', 'e']
    >>> [len(row) for row in rows(ACCENTS, "en")]
    [10, 10, 10, 5]
    >>> [key.action for key in rows(LETTERS, "fa")[2]][:3], [sum(key.width for key in row) for row in rows(LETTERS, "fa")]
    (['backspace', 'ظ', 'ط'], [12.0, 12.0, 12.0, 10.5])
    """
    row = languages.language(language)
    latin = languages.language(languages.SOURCE).letters
    top, middle, bottom = {LETTERS: row.letters, MORE: row.more_letters, LATIN: latin, ACCENTS: _ACCENT_ROWS,
                           SYMBOLS: _SYMBOL_ROWS}[layer]
    other = switches(layer, language)
    last = [*(Key(layer, 1.5) for layer in other), Key(SPACE, 7.5 - 1.5 * len(other)), Key(ENTER, 2.0), Key(HIDE, 1.0)]
    if layer in (LETTERS, MORE) and kana(language):
        side = min(1.5, (12 - len(bottom)) / 2)
        return [[*(Key(c) for c in top), Key(VOICED), Key(SMALL)], [Key(c) for c in middle],
                [Key(KANA, side), *(Key(c) for c in bottom), Key(BACKSPACE, side)], last]
    first = Key(ZWNJ, 1.5) if ZWNJ in bottom else Key(SHIFT, 1.5)
    keys = [
        [Key(c) for c in top],
        [Key(c) for c in middle],
        [first, *(Key(c) for c in bottom.replace(ZWNJ, "")), Key(BACKSPACE, 1.5)],
        last,
    ]
    return [mirrored(keys_row) for keys_row in keys] if row.rtl else keys


def mirrored(row: list[Key]) -> list[Key]:
    """A row of keys as a right-to-left table has it: the keys that act (Backspace, Enter, the layers) on the
    other side, the letters in the places of their standard layout, which a hand knows by place.

    >>> [key.action for key in mirrored([Key(SHIFT), Key("a"), Key("b"), Key(BACKSPACE)])]
    ['backspace', 'a', 'b', 'shift']
    """
    def letter(key: Key) -> bool:
        return len(key.action) == 1 and key.action != ZWNJ

    letters = iter([key for key in row if letter(key)])
    return [next(letters) if letter(key) else key for key in reversed(row)]


def switches(layer: str, language: str) -> tuple[str, ...]:
    """The layers a layer's bottom row switches to. In a language written in Latin letters, each layer
    reaches the other two; in another script, the letters reach the symbols and the Latin letters, and
    those reach the accents (Zoë at a table in Moscow), each layer a tap from the language's own letters.

    A language with a second page of letters has a third key on its letters' pages, to the other page.

    >>> switches(LETTERS, "en"), switches(LETTERS, "ru"), switches(LATIN, "ru")
    (('symbols', 'accents'), ('symbols', 'latin'), ('letters', 'accents'))
    >>> switches(LETTERS, "ja"), switches(MORE, "ja")
    (('more', 'symbols', 'latin'), ('letters', 'symbols', 'latin'))
    """
    if languages.language(language).latin:
        return {LETTERS: (SYMBOLS, ACCENTS), ACCENTS: (LETTERS, SYMBOLS), SYMBOLS: (LETTERS, ACCENTS)}[layer]
    if layer in (LETTERS, MORE) and any(languages.language(language).more_letters):
        return (MORE if layer == LETTERS else LETTERS, SYMBOLS, LATIN)
    return {LETTERS: (SYMBOLS, LATIN), LATIN: (LETTERS, ACCENTS), ACCENTS: (LETTERS, LATIN),
            SYMBOLS: (LETTERS, LATIN)}[layer]


def after_accent(language: str) -> str:
    """The layer an accented letter goes back to: the Latin letters it belongs with."""
    return LETTERS if languages.language(language).latin else LATIN


def letters_face(language: str, layer: str = LETTERS) -> str:
    """What the key to a language's letters (or to their second page) shows: the first three of its alphabet
    ("ABC", "АБВ"; "あいう" and "まみむ", no small kana).

    >>> letters_face("en"), letters_face("de"), letters_face("ru"), letters_face("ja"), letters_face("ja", MORE)
    ('ABC', 'ABC', 'АБВ', 'あいう', 'まみむ')
    """
    row = languages.language(language)
    alphabet = sorted({letter for line in (row.more_letters if layer == MORE else row.letters) for letter in line
                       if letter.isalpha() and "LETTER SMALL" not in unicodedata.name(letter)})
    return "".join(alphabet[:3]).upper()


def kana(language: str) -> bool:
    """Whether the language's letters are hiragana: its keyboard has the kana keys instead of shift.

    >>> kana("ja"), kana("ru")
    (True, False)
    """
    return all("HIRAGANA" in unicodedata.name(letter) for row in languages.language(language).letters
               for letter in row if letter.isalpha())


KATAKANA = 0x60
"""How far each katakana is from its hiragana in Unicode (か U+304B, カ U+30AB)."""
SMALL_KANA = dict(zip("あいうえおつやゆよわかけ", "ぁぃぅぇぉっゃゅょゎゕゖ", strict=True))


def katakana(letter: str) -> str:
    """The katakana of a hiragana; anything else as it is (ー, a Latin letter).

    >>> katakana("さ") + katakana("ゔ") + katakana("ー") + katakana("q")
    'サヴーq'
    """
    return chr(ord(letter) + KATAKANA) if "\u3041" <= letter <= "\u3096" or "\u309d" <= letter <= "\u309e" else letter


def voiced(letter: str) -> str:
    """The next form of a kana in the dakuten key's round: plain, with dakuten, with handakuten, plain again;
    a kana with no voiced form, or a letter that is no kana, is as it was.

    >>> voiced("か"), voiced("が"), voiced("は"), voiced("ば"), voiced("ぱ"), voiced("ウ"), voiced("あ")
    ('が', 'か', 'ば', 'ぱ', 'は', 'ヴ', 'あ')
    """
    plain = unicodedata.normalize("NFD", letter)[0]
    forms = [plain, *(form for mark in ("\u3099", "\u309a")
                      if len(form := unicodedata.normalize("NFC", plain + mark)) == 1)]
    if len(forms) == 1 or letter not in forms:
        return letter
    return forms[(forms.index(letter) + 1) % len(forms)]


def small(letter: str) -> str:
    """The small kana of a large one and the large of a small one (つ↔っ, ヤ↔ャ); any other letter as it was.

    >>> small("つ"), small("ゃ"), small("ヨ"), small("ァ"), small("か"), small("さ")
    ('っ', 'や', 'ョ', 'ア', 'ゕ', 'さ')
    """
    hiragana = chr(ord(letter) - KATAKANA) if "\u30a1" <= letter <= "\u30f6" else letter
    other = SMALL_KANA.get(hiragana) or next((large for large, tiny in SMALL_KANA.items() if tiny == hiragana), "")
    if not other:
        return letter
    return katakana(other) if hiragana != letter else other


def cased(letter: str, shift: bool) -> str:
    """The letter as shifted, when it has one capital (ß has none).

    >>> cased("ë", True), cased("ß", True), cased("É", False)
    ('Ë', 'ß', 'é')
    """
    if not shift:
        return letter.lower()
    upper = letter.upper()
    return upper if len(upper) == 1 else letter


def shifts_by_itself(text: str, sentence: bool = False) -> bool:
    """Whether shift comes on by itself for the next letter: at the start of a name only (a name's other
    capitals are one tap of shift away), at the start of each sentence of a note; shifting at every word
    wrote a note as "Zoë's First Win".

    >>> shifts_by_itself(""), shifts_by_itself("Jean-"), shifts_by_itself("Zoë's "), shifts_by_itself("Won. ", True)
    (True, False, False, True)
    """
    if not sentence:
        return not text
    before = text.rstrip()
    return not before or (before[-1] in ".!?" and text != before)
