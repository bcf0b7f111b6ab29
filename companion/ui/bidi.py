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

A name typed at the table and the app's own words around it can look alike: "Ben 2" is a player so named, or
Ben and his 2 points. So whoever fills a name into a line says where it is (``Named``, ``named``), and the
label draws each such name as one unit, as typed (``isolated``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from string import Formatter
from typing import Any
from unicodedata import bidirectional

RTL_LETTERS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
"""Hebrew, Arabic and Persian letters and their presentation forms: a text holding one needs ordering."""
_DIGIT_RUN = re.compile(r"\S+")
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")
WESTERN = "0123456789"
_NUMBER = "[0-9\u06f0-\u06f9](?:[.,:\u066b\u066c]?[0-9\u06f0-\u06f9])*"
"""Digits and the separators between them ("1,5", "20:14"); a comma after the last digit is the sentence's."""
_SIGNED = re.compile(f"\\([-+\u2212\u00b1]?{_NUMBER}\\)|(?<![\\w])[-+\u2212\u00b1]{_NUMBER}")
"""A number with its sign (a score of −8, a margin of +12 ms), or in brackets ("(+2)"): in a right-to-left
line the algorithm would put the sign on the number's right, and a bracket on the wrong side of it. The
comma of "Gus −4, Ana 7" stays out of it, or it would be drawn on the number's right, read before it."""
_NAME_BEFORE_NUMBER = re.compile("([A-Za-z\u00c0-\u024f\u2026][0-9]*)(?=(?:[:;,\u060c]|[ \u00a0])[ \u00a0]*"
                                 "(?:[(\\[+\u2212-]|[0-9\u06f0-\u06f9]+(?![0-9A-Za-z\u00c0-\u024f])))")
"""A Latin word (a name) before a space or a colon and a number or a bracket: in a right-to-left line the
algorithm would take the number into the name's left-to-right run ("Ana (4)" drawn "(Ana (4", "Ben: 1" read
"1 :Ben"), so a right-to-left mark ends it. Digits inside a word are its own ("Ben2", "R2D2", a table's
"Table 3f9a": a mark there would draw them "2Ben", "22DR", "3f9a Table")."""
RLM, LRM = "\u200f", "\u200e"
EMBED, POP = "\u202a", "\u202c"
"""Left-to-right embedding and its end: what keeps a signed number, or a name, in its own order (the algorithm
drops both)."""
RIGHT_EMBED = "\u202b"
"""Right-to-left embedding: what keeps a name written right to left in its own order."""
_NAME = re.compile("([\u202a\u202b][^\u202c]*(?:\u202c|$)|^[^\u202a\u202b\u202c]*\u202c)")
"""A name between its marks (``isolated``), or the part of one a wrapped line ends or starts with."""
_UNMARKED = str.maketrans("", "", EMBED + RIGHT_EMBED + POP + RLM + LRM)


class Named(str):
    """A line that knows where the names typed at the table are in it: (start, end) of each, in order.

    A str, so a screen sets it as a label's text and a test reads it as the plain sentence; the label asks
    it where its names are (``isolated``). An operation on it (a join, a format) gives a plain str, which
    knows no names: a line with a name in it is made whole by ``named``."""

    names: tuple[tuple[int, int], ...]

    def __new__(cls, text: str, names: Iterable[tuple[int, int]] = ()) -> Named:
        made = super().__new__(cls, text)
        made.names = tuple(names)
        return made


class Whole(str):
    """A name a sentence holds whole: ``fit_names`` cuts the others to fit, never this one (a league's table
    before a saved game's seats, which the row is about). Known as a name all the same."""


def named(template: str, names: Mapping[str, str], /, **words: object) -> Named:
    """``template.format(**words, **names)``, knowing where its ``names`` are, and the names a word filled in
    knows (a ``Named``: a line made of lines, "{count} at {table}" inside "{games}: {tables}").

    >>> line = named("{name} · {code}", {"name": "Table 3"}, code="3F9AB2C")
    >>> line, line.names
    ('Table 3 · 3F9AB2C', ((0, 7),))
    >>> named("{games}: {tables}", {}, games="5 games", tables=line).names
    ((9, 16),)
    """
    formatter, values = Formatter(), {**words, **names}
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    for literal, field, spec, conversion in formatter.parse(template):
        out.append(literal)
        if field is None:
            continue
        value = formatter.convert_field(formatter.get_field(field, (), values)[0], conversion)
        start = sum(map(len, out))
        out.append(formatter.format_field(value, spec or ""))
        if field in names:
            spans.append((start, start + len(out[-1])))
        elif isinstance(value, Named) and not spec and conversion is None:
            spans += [(start + begin, start + end) for begin, end in value.names]
    return Named("".join(out), spans)


def join_named(separator: str, lines: Iterable[str]) -> Named:
    """``separator.join(lines)``, knowing the names each of ``lines`` knows (a ``Named``'s).

    >>> line = join_named("\\n", ["League: 3 tables", named("{table} not seen yet", {"table": "Table 3"})])
    >>> line, line.names
    ('League: 3 tables\\nTable 3 not seen yet', ((17, 24),))
    """
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    at = 0
    for line in lines:
        if out:
            out.append(separator)
            at += len(separator)
        spans += [(at + begin, at + end) for begin, end in getattr(line, "names", ())]
        out.append(line)
        at += len(line)
    return Named("".join(out), spans)


def as_name(name: str) -> Named:
    """``name``, the whole of it known as a name: a label holding a name alone draws it as typed too.

    >>> as_name("Ben 2").names
    ((0, 5),)
    """
    return Named(name, [(0, len(name))] if name else [])


def isolated(text: str) -> str:
    """``text`` with each of its names (a ``Named``'s) between an embedding in the name's own direction and
    its end, for the label to draw it as one unit (``_marked``): its digits as typed and in its order, a
    number after it the app's. A plain str has no names: it is itself.

    >>> isolated(named("{name} ۵", {"name": "Ben 2"}))
    '\u202aBen 2\u202c ۵'
    """
    if not isinstance(text, Named) or not text.names:
        return text
    out, at = [], 0
    for start, end in text.names:
        out += [text[at:start], _embedding(text[start:end]), text[start:end], POP]
        at = end
    return "".join([*out, text[at:]])


def unmarked(text: str) -> str:
    """``text`` without the marks put in to order it (``isolated``'s, ``_marked``'s): a line drawn as it is."""
    return text.translate(_UNMARKED)


def _embedding(name: str) -> str:
    """The embedding a name is drawn in: the direction of its first strong letter, as an isolate's is."""
    kind = next((kind for kind in map(bidirectional, name) if kind in ("L", "R", "AL")), "L")
    return EMBED if kind == "L" else RIGHT_EMBED


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
    parts = _NAME.split(text)  # a name (``isolated``) keeps the digits it was typed with
    return "".join(part if index % 2 else _DIGIT_RUN.sub(
        lambda token: token[0] if _LATIN.search(token[0]) else token[0].translate(table), part)
        for index, part in enumerate(parts))


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
        return unmarked(line)
    from bidi.algorithm import get_display  # python-bidi's own algorithm: it mirrors brackets, its Rust one not

    return unmarked(str(get_display(_reshaper().reshape(_marked(line, rtl)), base_dir="R" if rtl else "L")))


def _marked(line: str, rtl: bool) -> str:
    """``line`` with the marks that keep a name and a signed number in their order in a right-to-left one.

    A name the line says it holds (``isolated``) is embedded in its own direction and has the paragraph's
    mark on each side, as an isolate would (python-bidi has none): the words around it take it for a
    neutral, so "Table 3" followed by the app's "۵" is drawn as typed, the ۵ at its left."""
    mark = RLM if rtl else LRM
    parts = _NAME.split(line)
    for index in range(0, len(parts), 2):
        if rtl:
            part = _NAME_BEFORE_NUMBER.sub(lambda name: name[0] + RLM, parts[index])
            parts[index] = _SIGNED.sub(lambda number: EMBED + number[0] + POP + RLM, part)  # RLM: Persian follows
    for index in range(1, len(parts), 2):
        name = unmarked(parts[index])
        parts[index] = mark + _embedding(name) + name + POP + mark
    return "".join(parts)


Place = tuple[int, bool] | None
"""Where a typed character is drawn: the index of its glyph in the drawn line and whether that glyph runs right
to left; None for one drawn as nothing (a zero-width non-joiner, a direction mark)."""


@lru_cache(maxsize=256)
def places(line: str, rtl: bool, digits: str = "") -> tuple[str, tuple[Place, ...]]:
    """``visual(line, rtl, digits)``, and where each character of ``line`` is drawn in it: what a text field
    places its cursor by, as the bidi algorithm moved the characters and arabic-reshaper joined them.

    >>> places("سلام", True)[1]  # its lam and alef are one glyph
    ((2, True), (1, True), (1, True), (0, True))
    >>> places("Ben 12", True)
    ('12 Ben', ((3, False), (4, False), (5, False), (2, True), (0, False), (1, False)))
    """
    from bidi import algorithm

    written = with_digits(line, digits)  # a character for a character
    marked = _marked(written, rtl)
    shaped = _reshaper().reshape(marked)
    storage = algorithm.get_empty_storage()
    storage["base_level"] = 1 if rtl else 0
    storage["base_dir"] = "R" if rtl else "L"
    algorithm.get_embedding_levels(shaped, storage)
    for index, character in enumerate(storage["chars"]):
        character["index"] = index
    for step in (algorithm.explicit_embed_and_overrides, algorithm.resolve_weak_types,
                 algorithm.resolve_neutral_types, algorithm.resolve_implicit_levels,
                 algorithm.reorder_resolved_levels, algorithm.apply_mirroring):
        step(storage, False)
    drawn = [character for character in storage["chars"] if character["ch"] != RLM]
    glyph = {character["index"]: (at, character["level"] % 2 == 1) for at, character in enumerate(drawn)}
    into_marked, into_shaped = _inserted(written, marked), _joined(marked, shaped)
    return "".join(character["ch"] for character in drawn), tuple(
        glyph.get(into_shaped[into_marked[index]]) for index in range(len(line)))


def _inserted(source: str, marked: str) -> list[int]:
    """For each character of ``source``, its index in ``marked``, which is ``source`` with marks put in."""
    found, at = [], 0
    for character in source:
        while marked[at] != character:
            at += 1
        found.append(at)
        at += 1
    return found


def _joined(source: str, shaped: str) -> list[int]:
    """For each character of ``source``, the index in ``shaped`` (arabic-reshaper's) of the form it became: a
    letter's joined form, one ligature for lam and alef, the glyph before for a mark it left out."""
    from unicodedata import normalize

    found: list[int] = []
    at = 0
    index = 0
    while index < len(source):
        base = normalize("NFKC", shaped[at]) if at < len(shaped) else ""
        if base and normalize("NFKC", source[index:index + len(base)]) == base:
            found += [at] * len(base)
            index, at = index + len(base), at + 1
        else:  # left out (a harakat): drawn with the letter before
            found.append(max(at - 1, 0))
            index += 1
    return found


@cache
def _reshaper() -> Any:
    """arabic-reshaper as the Persian font can draw it: its one default ligature DejaVu Sans has no glyph for,
    Allah's (U+FDF2, which "عبدالله" would be drawn with as a box), is left out; its lam-alef ones are kept.
    Made on a table's first right-to-left line: a table in a left-to-right script needs it not.

    Its package imports fontTools' ``ttLib`` when it is installed (the test extra has it), for a feature the
    app does not use (a configuration read from a font file): some 4 MiB held by every Persian table that has
    fontTools, and none on the Pi's install. So it is imported with ``ttLib`` marked absent, as on the Pi."""
    absent = "fontTools.ttLib" not in sys.modules
    if absent:
        sys.modules["fontTools.ttLib"] = None  # type: ignore[assignment]  # an import of it fails at once
    try:
        from arabic_reshaper import ArabicReshaper
    finally:
        if absent:
            del sys.modules["fontTools.ttLib"]
    reshaper = ArabicReshaper(configuration={"ARABIC LIGATURE ALLAH": "no"})
    reshaper.configuration = Settings(reshaper.configuration)
    return reshaper


class Settings:
    """arabic-reshaper's settings, read once. It asks configparser for six of them on every line it joins and
    for each of its ligatures once, through configparser's interpolation each time: most of what ordering a
    Persian table's first frame cost."""

    def __init__(self, section: Any) -> None:
        parser = section.parser
        self._key = parser.optionxform
        self._values: dict[str, str] = dict(parser.items(section.name, raw=True))
        self._states: dict[str, bool] = parser.BOOLEAN_STATES

    def get(self, key: str, fallback: str | None = None) -> str | None:
        return self._values.get(self._key(key), fallback)

    def getboolean(self, key: str) -> bool | None:
        value = self._values.get(self._key(key))
        return None if value is None else self._states[value.lower()]
