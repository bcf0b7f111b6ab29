"""Where a line of Japanese breaks: between any two of its characters, as Japanese writes, never inside a
word of Latin letters or digits ("Wi-Fi", "Ben", "10") in it, and by the rule of line starts (kinsoku): no
line starts with a closing sign, a comma or stop, a small kana or the long-vowel mark, and none ends with an
opening bracket.

Kivy wraps at spaces only, and breaks a word that does not fit its line at whatever letter the line ends on:
a Japanese sentence, one long "word", came out with "。" alone on its last line. The shared label gives
Kivy a Japanese text already broken into lines here, measured by the label's own font. No Kivy here: the
width of a piece of text is measured by the function given.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

NO_START = set("、。，．,.!?！？）」』】〕〉》”’'・：；:;…‥ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ々〻‐゠–〜～)]}")
"""What a line may not start with: it stays with the character before it."""
NO_END = set("（「『【〔〈《“‘([{")
"""What a line may not end with: it goes down with the character after it."""


def breakable(word: str) -> bool:
    """A piece of text a line may break inside, between any two characters: one holding Japanese (or Chinese)."""
    return any(unicodedata.east_asian_width(char) in "WF" for char in word)


GLUE = "\u00a0\u202f\u2060"
"""No-break spaces and the word joiner: a word holding one never breaks ("獲得 2 (+2)" stays whole)."""


def pieces(paragraph: str) -> list[str]:
    """``paragraph`` cut where a line may break: each wide character alone, a run of other letters (a Latin
    word, a number) whole, each run of spaces alone, and a word with a no-break space in it whole."""
    found: list[str] = []
    for word in re.split(r"( +)", paragraph):
        if word.isspace() or any(char in GLUE for char in word):
            found.append(word)
        elif word:
            found += _characters(word)
    return found


def _characters(word: str) -> list[str]:
    """A word with no space in it cut between its wide characters; its runs of other letters whole."""
    found: list[str] = []
    for char in word:
        if found and not breakable(char) and not breakable(found[-1][-1]):
            found[-1] += char
        else:
            found.append(char)
    return found


def wrap(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with a line break wherever its next piece would not fit ``width`` (as ``measure`` draws
    it), by the rule of line starts; its own line breaks kept. A piece wider than the line is left to the
    label (which draws it smaller)."""
    return "\n".join(line for paragraph in text.split("\n") for line in _lines(pieces(paragraph), width, measure))


def _lines(found: list[str], width: float, measure: Callable[[str], float]) -> list[str]:
    lines: list[list[str]] = [[]]
    for piece in found:
        line = lines[-1]
        if not line or measure("".join(line + [piece]).rstrip()) <= width:
            if line or not piece.isspace():
                line.append(piece)
            continue
        if piece.isspace():
            lines.append([])  # the space the line breaks at is not drawn
            continue
        moved: list[str] = []
        while len(line) > 1 and (piece[0] in NO_START if not moved else moved[0][0] in NO_START):
            moved.insert(0, line.pop())  # a sign that may not start a line takes the character before it down
        while len(line) > 1 and line[-1][-1] in NO_END:
            moved.insert(0, line.pop())  # an opening bracket goes down with what it opens
        lines.append([*moved, piece])
    return ["".join(line).rstrip() for line in lines]
