"""Right-to-left text as SDL2_ttf can draw it: each line in the order the eye reads it, its letters joined.

Kivy's wheels draw text with SDL2_ttf and HarfBuzz but no FriBidi. Told ``font_direction='rtl'``, HarfBuzz
joins Persian letters but runs the whole line right to left, digits and Latin too ("125" drawn "521", "Ben"
drawn "neB"). So the label draws each line left to right, as given by the Unicode bidi algorithm
(python-bidi, whose pure-Python algorithm mirrors a bracket in a right-to-left run: "(۷)" stays round) after joining its letters into their written forms (arabic-reshaper): a Persian word runs right
to left, a number or a Latin name inside it left to right. The algorithm orders one line: run on a whole
wrapped text, it puts the lines in reverse (kivy issue 8189), so the label wraps the logical text first and
orders each line as it draws it (``companion.ui.widgets.label``).

Persian writes its numbers in its own digits; a token holding Latin letters (a name such as Ben2, a path, a
config key) keeps its own. Plain Python, so the ordering is tested without a window.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

RTL_LETTERS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
"""Hebrew, Arabic and Persian letters and their presentation forms: a text holding one needs ordering."""
_DIGIT_RUN = re.compile(r"\S+")
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")
WESTERN = "0123456789"
_SIGNED = re.compile("\\([-+\u2212\u00b1]?[0-9\u06f0-\u06f9][0-9\u06f0-\u06f9.,:\u066b\u066c]*\\)"
                     "|(?<![\\w])[-+\u2212\u00b1][0-9\u06f0-\u06f9][0-9\u06f0-\u06f9.,:\u066b\u066c]*")
"""A number with its sign (a score of −8, a margin of +12 ms), or in brackets ("(+2)"): in a right-to-left
line the algorithm would put the sign on the number's right, and a bracket on the wrong side of it."""
_NAME_BEFORE_NUMBER = re.compile("([A-Za-z\u00c0-\u024f\u2026])(?=[:;,\u060c]?[ \u00a0]*[(\\[0-9\u06f0-\u06f9+\u2212-])")
"""A Latin word (a name) right before a number or a bracket: in a right-to-left line the algorithm would take
the number into the name's left-to-right run ("Ana (4)" drawn "(Ana (4", "Ben: 1" read "1 :Ben"), so a
right-to-left mark ends it."""
RLM = "\u200f"
EMBED, POP = "\u202a", "\u202c"
"""Left-to-right embedding and its end: what keeps a signed number in its own order (the algorithm drops both)."""


def needs_order(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter.

    >>> needs_order("Ben 12"), needs_order("سارا 12")
    (False, True)
    """
    return RTL_LETTERS.search(text) is not None


MIDDLE_DOT, DASH = "\u00b7", "\u2013"


def with_digits(text: str, digits: str) -> str:
    """``text`` with 0-9 written in ``digits`` (a language's ten digits; "" keeps them), except in a token that
    holds a Latin letter. Persian's zero is a dot: a middle dot between two parts of a line ("Pass · draw 1")
    would read as one ("· ۱" as ۱۰), so it is drawn as a dash.

    >>> with_digits("12 امتیاز، Ben2 دوم", "۰۱۲۳۴۵۶۷۸۹"), with_digits("پاس · 1", "۰۱۲۳۴۵۶۷۸۹")
    ('۱۲ امتیاز، Ben2 دوم', 'پاس – ۱')
    """
    if not digits:
        return text
    text = text.replace(MIDDLE_DOT, DASH)
    if not any(character in WESTERN for character in text):
        return text
    table = str.maketrans(WESTERN, digits)
    return _DIGIT_RUN.sub(lambda token: token[0] if _LATIN.search(token[0]) else token[0].translate(table), text)


@lru_cache(maxsize=4096)
def visual(line: str, rtl: bool, digits: str = "") -> str:
    """One line as it is drawn left to right: in the bidi algorithm's order, a right-to-left paragraph if
    ``rtl`` (the table speaks Persian) else a left-to-right one (a Persian name in an English sentence),
    Persian letters joined; a line with no right-to-left letter and no digit to change is itself.

    >>> visual("Ben 12", True), visual("سلام", False), visual("−8", True, "۰۱۲۳۴۵۶۷۸۹"), visual("Ana (4)", True)
    ('12 Ben', 'ﻡﻼﺳ', '−۸', '(4) Ana')
    """
    line = with_digits(line, digits)
    if not needs_order(line) and not rtl:
        return line
    if rtl:
        line = _NAME_BEFORE_NUMBER.sub(lambda name: name[0] + RLM, line)
        line = _SIGNED.sub(lambda number: EMBED + number[0] + POP + RLM, line)  # RLM: what follows is Persian's
    from bidi.algorithm import get_display  # python-bidi's own algorithm: it mirrors brackets, its Rust one not

    return str(get_display(_reshaper().reshape(line), base_dir="R" if rtl else "L")).replace(RLM, "")


@cache
def _reshaper() -> Any:
    """arabic-reshaper as the Persian font can draw it: its one default ligature DejaVu Sans has no glyph for,
    Allah's (U+FDF2, which "عبدالله" would be drawn with as a box), is left out; its lam-alef ones are kept.
    Made on a table's first right-to-left line: a table in a left-to-right script needs it not."""
    from arabic_reshaper import ArabicReshaper

    return ArabicReshaper(configuration={"ARABIC LIGATURE ALLAH": "no"})
