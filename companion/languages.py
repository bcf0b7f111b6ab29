"""The languages the table can speak: one row each, read by the config, Settings, the on-screen keyboard,
the catalogue's upkeep and the tests.

A language is offered here once its catalogue (``companion/ui/locale/<code>``) is complete and its font
draws every word of it; ``tests/test_ui_catalogue.py`` fails otherwise. Adding one is a row here, then
``scripts/translations`` (which makes its ``.po``), then its translations. Plain Python: the config
checks a language without Kivy.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """One language as the table meets it."""

    code: str
    """The gettext and CLDR code (``companion/ui/locale/<code>``; Babel's locale for dates and plurals)."""
    name: str
    """Its own name, as its speakers look for it in Settings."""
    letters: tuple[str, str, str]
    """The keyboard's three rows of letters, in the layout a hand of that language already knows."""
    direction: str = "ltr"
    """``rtl`` for a language written right to left: its lines are ordered by the bidi algorithm and the
    screens mirror (``companion.ui.bidi``)."""
    digits: str = ""
    """The ten digits it writes numbers in, when not 0-9 (Persian's ۰-۹)."""
    font: str = "Roboto"
    """The font a label tries first when the table speaks it, so its words and the numbers beside them match: a
    name of ``companion.ui.fonts.faces`` (``Roboto`` is Kivy's own). A label whose text this font cannot draw
    all of takes the first of the others that can (a Japanese name on an English table)."""
    spaced_punctuation: bool = False
    """French typography: a narrow no-break space before ; : ! ? » and after «, put in by the catalogue."""
    voice: str = ""
    """The espeak-ng voice that speaks its calls (``espeak-ng --voices``); "" for none, and the table stays
    silent in it. Japanese is one only if its catalogue is in kana: espeak-ng reads kanji as "Chinese letter"."""
    more_letters: tuple[str, str, str] = ("", "", "")
    """A second page of three rows, for a script with more letters than three rows hold (Japanese kana's
    50-sound grid, あ to ほ on the first page, ま to ん and the small kana on this one)."""

    @property
    def latin(self) -> bool:
        """Whether its letters are Latin ones: a language in another script gets the Latin letters as a layer
        of its keyboard too, for a visitor's name.

        >>> language("de").latin, language("ru").latin
        (True, False)
        """
        return all(unicodedata.name(letter).startswith("LATIN") for row in self.letters for letter in row
                   if letter.isalpha())

    @property
    def rtl(self) -> bool:
        """Whether it is written right to left.

        >>> language("fa").rtl, language("en").rtl
        (True, False)
        """
        return self.direction == "rtl"


SOURCE = "en"
"""The language the code is written in: its catalogue is the text itself."""

LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", ("qwertyuiop", "asdfghjkl'", "zxcvbnm-"), voice="en"),
    Language("fr", "Français", ("azertyuiop", "qsdfghjklm", "wxcvbn'-"), spaced_punctuation=True,
             voice="fr"),
    Language("de", "Deutsch", ("qwertzuiopü", "asdfghjklöä", "yxcvbnmß"), voice="de"),
    Language("nl", "Nederlands", ("qwertyuiop", "asdfghjkl'", "zxcvbnm-"), voice="nl"),
    Language("ru", "Русский", ("йцукенгшщзхъ", "фывапролджэё", "ячсмитьбю"), voice="ru"),
    Language("ja", "日本語", ("あいうえおかきくけこ", "さしすせそたちつてとっー", "なにぬねのはひふへほ"),
             font="NotoSansJP", more_letters=("まみむめもらりるれろ", "やゆよわをんゃゅょっー・", "ぁぃぅぇぉゎゔゝゞ")),
    Language("fa", "فارسی", ("ضصثقفغعهخحجچ", "شسیبلاتنمکگآ", "\u200cظطزرذدپوژ"), direction="rtl",
             digits="۰۱۲۳۴۵۶۷۸۹", font="DejaVuSans", voice="fa"),
)

CODES = tuple(language.code for language in LANGUAGES)


def language(code: str) -> Language:
    """The row of ``code``; the source language's for a code no row has.

    >>> language("fr").name, language("xx").code
    ('Français', 'en')
    """
    return next((row for row in LANGUAGES if row.code == code), LANGUAGES[0])


def translated() -> tuple[Language, ...]:
    """The languages with a catalogue to keep: all but the source."""
    return tuple(row for row in LANGUAGES if row.code != SOURCE)
