"""The fonts the labels draw in, and the one each text is drawn in.

Kivy's text (SDL2_ttf, no Pango) has no per-glyph fallback: a label draws all of its text in one font, and a
letter that font lacks is a box. So a label chooses its font from the letters it holds
(``companion.ui.widgets.label``): the language's own font first, then Roboto (the design's type: Latin and
Cyrillic), DejaVuSans (Persian letters and digits, Latin and Cyrillic as well), Noto Sans CJK JP (kana and
kanji, Latin and Cyrillic as well) and, last, Kivy's whole DejaVu Sans (the scripts the subsets leave out). Each of the last two also draws Latin, so a Persian or a Japanese name in
an English sentence is drawn whole in one font; the first font that draws every letter wins. Only a text no
one font draws all of (Persian and Japanese together) is cut into runs, a font each (``runs``).

An emoji, and a character none of them draws (a script none of them has), is shown as one placeholder, a
lozenge every one of them has, so a label never changes font for it and never shows a box. Every emoji: DejaVuSans
draws a few (😀, ❤) in black and white, the others none, and a name is shown the same way on every screen
whatever else its label holds. An emoji written as several code points (a skin tone, a flag, a family joined
by zero-width joiners) is one placeholder.

What each font draws is read from ``fonts/coverage.json``, written by ``scripts/subset-font`` with fontTools
(a test checks it against the fonts), so the app opens no font to choose.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from unicodedata import category

from kivy import kivy_data_dir
from kivy.core.text import LabelBase

FOLDER = Path(__file__).parent / "fonts"
COVERAGE = FOLDER / "coverage.json"
KIVY_FONTS = Path(kivy_data_dir) / "fonts"
ROBOTO, PERSIAN, JAPANESE, WHOLE = "Roboto", "DejaVuSans", "NotoSansJP", "DejaVuSansWhole"
"""WHOLE is Kivy's own DejaVu Sans, every script it has: the last font a text tries, for a name in a script no
subset keeps (Hebrew, Armenian, Georgian, Greek with its accents...). Its file is opened only by a label that
needs it, and it has no bold: a bold label draws those letters in its regular weight."""
PLACEHOLDER = "\u25ca"
"""◊: what a character no font draws is shown as."""

EMOJI = (range(0x2600, 0x27C0), range(0x2B00, 0x2C00), range(0x1F000, 0x1FB00))
"""Where the emoji are: the symbols and dingbats (☀ ❤ ✈), the arrows and stars (⭐) and the pictographs."""
JOINER = "\u200d"
REGIONAL = range(0x1F1E6, 0x1F200)
"""Regional indicators: two of them are one flag."""
EMOJI_TAILS = (range(0xFE00, 0xFE10), range(0x1F3FB, 0x1F400), range(0x20E3, 0x20E4), range(0xE0020, 0xE0080))
"""Variation selectors, skin tones, the keycap and tag characters: part of the emoji before them."""


@cache
def faces() -> dict[str, tuple[Path, ...]]:
    """Each label font's files, regular then bold, in the order a text tries them. Made once: each new text
    a label is given asks for the order."""
    return {
        ROBOTO: (KIVY_FONTS / "Roboto-Regular.ttf", KIVY_FONTS / "Roboto-Bold.ttf"),
        PERSIAN: (FOLDER / f"{PERSIAN}-Regular.ttf", FOLDER / f"{PERSIAN}-Bold.ttf"),  # subsets (scripts/subset-font)
        JAPANESE: (FOLDER / f"{JAPANESE}-Regular.otf", FOLDER / f"{JAPANESE}-Bold.otf"),
        WHOLE: (KIVY_FONTS / "DejaVuSans.ttf",),
    }


def register() -> None:
    """Make the fonts Kivy does not register itself known by their names (``Roboto`` is Kivy's own)."""
    for name, files in faces().items():
        if name != ROBOTO:
            LabelBase.register(name, str(files[0]), fn_bold=str(files[-1]))


@lru_cache(maxsize=1)
def _coverage() -> dict[str, str]:
    with COVERAGE.open(encoding="utf-8") as opened:
        characters: dict[str, str] = json.load(opened)
    return characters


@cache
def drawn_by(font: str) -> frozenset[int]:
    """The code points ``font`` (a name of ``faces()``) draws, in both its weights. Each font's set is made
    when a text first needs it: a table writing Latin alone makes Roboto's only."""
    return frozenset(map(ord, _coverage()[font]))


@cache
def _drawable(fonts: tuple[str, ...]) -> frozenset[int]:
    """What a label may draw as it is in one of ``fonts``: what they draw, but no emoji."""
    return frozenset().union(*map(drawn_by, fonts)).difference(*EMOJI)


@lru_cache(maxsize=4096)
def _drawn_by_one(point: int) -> bool:
    """Whether one of the fonts draws ``point`` and it is no emoji: the fonts asked in turn, so a kana makes
    Japanese's set and a Persian letter Persian's, and only a letter the subsets lack the whole DejaVu's."""
    return not any(point in emoji for emoji in EMOJI) and any(point in drawn_by(name) for name in faces())


def invisible(character: str) -> bool:
    """Drawn as nothing or as a space even by a font without it: spaces, controls, and the format characters
    (zero-width joiners, direction marks) that HarfBuzz, which SDL2_ttf shapes with, leaves out."""
    return category(character) in ("Zs", "Cc", "Cf")


@lru_cache(maxsize=4096)
def shown(text: str) -> str:
    """``text`` with each character no font draws, an emoji with its joined parts, as one placeholder.

    >>> shown("Zoë 😀"), shown("👍🏽 ok"), shown("👨\u200d👩\u200d👧"), shown("🇯🇵🇫🇷"), shown("❤️ 한")
    ('Zoë ◊', '◊ ok', '◊', '◊◊', '◊ ◊')
    """
    if all(ord(character) in _drawable((ROBOTO,)) or invisible(character) for character in text):
        return text  # the common case, Latin or Cyrillic: no other font's set is made
    out: list[str] = []
    joined = flag = False
    for character in text:
        point = ord(character)
        tail = out[-1:] == [PLACEHOLDER] and (joined or any(point in tails for tails in EMOJI_TAILS)
                                              or (flag and point in REGIONAL) or character == JOINER)
        if tail:
            joined, flag = character == JOINER, False
            continue
        joined = False
        if _drawn_by_one(point) or invisible(character):
            out.append(character)
            flag = False
        else:
            out.append(PLACEHOLDER)
            flag = point in REGIONAL
    return "".join(out)


@lru_cache(maxsize=1024)
def capitals(text: str) -> str:
    """``text`` in capitals wherever a font draws the capital: Georgian's capitals (Mtavruli, added to Unicode in
    2018) are in none of the fonts, so a Georgian name keeps its letters rather than turn to placeholders; the
    initial on a seat's badge and a name shouted in a title read as the player typed it.

    >>> capitals("zoë"), capitals("groß"), capitals("ნინო"), capitals("ёжик"), capitals("さくら")
    ('ZOË', 'GROSS', 'ნინო', 'ЁЖИК', 'さくら')
    """
    upper = text.upper()
    if upper == text or all(ord(character) in _drawable((ROBOTO,)) or invisible(character) for character in upper):
        return upper  # a script with no capitals (Japanese, Persian), or Roboto's: no other font's set is made
    drawable = _drawable(tuple(faces()))
    return "".join(big if all(ord(c) in drawable or invisible(c) for c in big) else character
                   for character in text for big in (character.upper(),))


@lru_cache(maxsize=4096)
def font_for(text: str, preferred: str = ROBOTO) -> str:
    """The font that draws every letter of ``text`` (as ``shown`` gives it): ``preferred`` if it does, else the
    first of ``faces()`` that does; if none does (Persian and Japanese in one text), the one drawing most.

    >>> font_for("Zoë"), font_for("Ёжик"), font_for("سارا و Ben"), font_for("さくら wins 12"), font_for("ẞ")
    ('Roboto', 'Roboto', 'DejaVuSans', 'NotoSansJP', 'DejaVuSans')
    """
    needed = {ord(character) for character in text if not invisible(character)}
    order = [preferred, *(name for name in faces() if name != preferred)]
    found = next((name for name in order if needed <= drawn_by(name)), None)
    # only then the one drawing most: it reads every font's set (Kivy's whole DejaVu Sans too)
    return found or max(order, key=lambda name: len(needed & drawn_by(name)))


@lru_cache(maxsize=4096)
def runs(text: str, preferred: str = ROBOTO) -> tuple[tuple[str, str], ...]:
    """``shown(text)`` as (font, words) runs: one run in ``font_for`` it, or, when no font draws all of it
    (Persian and Japanese in one sentence), each letter in that font if it has it, else in the first that has
    it, a space or a joiner in the run it is in. A label draws several runs as Kivy markup's font spans.

    >>> runs("Zoë"), runs("سارا beat さくら")
    ((('Roboto', 'Zoë'),), (('DejaVuSans', 'سارا beat '), ('NotoSansJP', 'さくら')))
    """
    words = shown(text)
    first = font_for(words, preferred)
    order = [first, *(name for name in faces() if name != first)]
    found: list[tuple[str, str]] = []
    for character in words:
        font = found[-1][0] if found else first
        if not invisible(character) and ord(character) not in drawn_by(font):
            font = next((name for name in order if ord(character) in drawn_by(name)), first)
        if found and found[-1][0] == font:
            found[-1] = (font, found[-1][1] + character)
        else:
            found.append((font, character))
    return tuple(found) or ((first, words),)


def drawn(text: str, preferred: str = ROBOTO) -> tuple[str, str]:
    """What a label holding ``text`` draws, and its font, for code that measures or draws one font only:
    ``shown(text)`` in ``font_for`` it. When no font draws all of it (``runs``), a letter the chosen font
    lacks is measured as the placeholder: the width is near, and nothing is a box.

    >>> drawn("Zoë 😀"), drawn("سارا beat さくら")
    (('Zoë ◊', 'Roboto'), ('سارا beat ◊◊◊', 'DejaVuSans'))
    """
    words = shown(text)
    font = font_for(words, preferred)
    has = drawn_by(font)
    return "".join(c if ord(c) in has or invisible(c) else PLACEHOLDER for c in words), font
