"""The label every screen draws its words with: in a font that has all of them, and never a box.

A screen's kv says ``Label:``; importing ``companion.ui.widgets`` registers this class under that name, so
every label of every ``.kv``, and each one added later, is this one. Python code builds it by importing it
from here. Its ``font_name`` is its own: chosen from its text (``companion.ui.fonts.runs``) each time the
text changes, with the table's language's font first; a text no one font draws all of is drawn as Kivy
markup, a font span a script; a character no font draws (an emoji) is drawn as the placeholder while
``text`` keeps what was typed.

A text Kivy would cut is drawn smaller instead, here once for every screen (``Label.texture_update``):
in a box of a fixed width, a word in a script with spaces wider than the box (which Kivy would break
between two of its letters), or lines past the box's height or ``max_lines`` (which Kivy would drop), make
the type smaller until the words are whole, down to ``SMALLEST`` of their size. A line of Japanese breaks
between any two characters, as Japanese does, by its rule of line starts (``companion.ui.breaks``): the
label hands Kivy, which wraps at spaces only, a Japanese text already broken into lines.

Right to left is done here too, once for every screen: a text holding a Persian letter, and every text while
the table speaks a right-to-left language, is drawn by ``Ordered``, which lets Kivy wrap the text as it was
written and orders each line as it draws it (``companion.ui.bidi``); in a right-to-left language a label
aligned left is aligned right and one aligned right left, as the screens mirror.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from kivy.core.text.markup import MarkupLabel
from kivy.core.text.text_layout import LayoutWord
from kivy.uix.label import CoreLabel, Label as KivyLabel
from kivy.utils import escape_markup

from companion.languages import language
from companion.ui import bidi, fonts
from companion.ui.breaks import breakable, wrap
from companion.ui.i18n import tr


def drawn(text: str) -> tuple[str, str]:
    """What ``text`` is drawn as in one font, and the font, for code that draws text itself in one font
    (the chart, a text field)."""
    row = language(tr.language)
    words, font = fonts.drawn(text, row.font)
    return (bidi.visual(words, row.rtl, row.digits) if ordered(words) else words), font  # a chart's axis in ۰-۹


def runs(text: str) -> tuple[tuple[str, str], ...]:
    """What a label holding ``text`` draws, as (font, words) runs (``fonts.runs``)."""
    return fonts.runs(text, language(tr.language).font)


def spans(parts: tuple[tuple[str, str], ...]) -> str:
    """Runs as Kivy markup: a font span each, their words escaped."""
    return "".join(f"[font={font}]{escape_markup(words)}[/font]" for font, words in parts)


def drawn_size(font_size: float) -> float:
    """The size Kivy's text draws at: the whole part of ``font_size`` (SDL_ttf opens a face at a whole
    size). Kivy keeps a face for each size it is given, so 8.17 and 8.61 (a size scaled to a seat's panel)
    opened the same face twice, 2.5 ms and 0.6 MiB each in Japanese; given the whole size, once.

    >>> drawn_size(8.61), drawn_size(24.0)
    (8.0, 24.0)
    """
    return float(int(font_size))


def width(text: str, font_size: float, bold: bool = True) -> float:
    """How wide a label draws ``text`` on one line, each run in its font; measured without a texture."""
    return _width(text, drawn_size(font_size), bold, tr.language)


@lru_cache(maxsize=4096)
def _width(text: str, font_size: float, bold: bool, _language: str) -> float:
    """Cached: a button's kv rule asks again as each of its padding, icon and width is set, with the same
    words; ``_language`` is what ``runs`` and ``ordered`` read."""
    parts, kind = runs(text), CoreLabel
    if ordered(text):
        if len(parts) == 1:
            kind = Ordered
        else:
            parts = ordered_runs("".join(words for _font, words in parts))  # measured as drawn, letters joined
    return sum(float(kind(font_name=font, font_size=font_size, bold=bold).get_extents(words)[0])
               for font, words in parts)


def ordered(text: str) -> bool:
    """Whether a label drawing ``text`` orders its lines: the table speaks a right-to-left language, or the
    text holds a right-to-left letter (a Persian name on an English table)."""
    return language(tr.language).rtl or bidi.needs_order(text)


MIRRORED = {"left": "right", "right": "left", "auto": "right"}

SMALLEST = 0.6
"""The least part of its size a label draws its words at to keep them whole."""
TRIES = 5
"""How many smaller sizes a label tries: each one aimed at what the last one measured."""


def laid_out_whole(core: CoreLabel, text: str) -> float:
    """How much smaller ``core`` (laid out, with a width to wrap at) must draw ``text`` for every word to
    be whole: 1.0 when it is; less when it dropped lines (past its height or ``max_lines``) or broke a
    word of a script with spaces across two lines."""
    lines = [" ".join(word.text for word in line.words) for line in core._cached_lines]
    drawn = [piece for line in lines for piece in re.split(r"[ \n]", line) if piece]
    written = [piece for piece in re.split(r"[ \n]", text) if piece]
    if sum(map(len, drawn)) < sum(map(len, written)):
        _width, height = core.text_size
        needed = sum(line.h for line in core._cached_lines) * sum(map(len, written)) / max(1, sum(map(len, drawn)))
        return min(0.95, (height / needed) ** 0.5) if height and needed else 0.9
    words = set(written)
    if all(piece in words or breakable(piece) for piece in drawn):
        return 1.0
    widest = max((core.get_extents(word)[0] for word in words if not breakable(word)), default=0)
    return min(0.95, core.text_size[0] / widest) if widest > core.text_size[0] else 0.9


class Ordered(CoreLabel):
    """Kivy's core text, each wrapped line drawn in its visual order (``bidi.visual``), in the paragraph
    direction and the digits of the table's language. Measured as drawn, so the wrap and the fit see the
    joined letters' widths."""

    def _order(self, text: str) -> str:
        row = language(tr.language)
        return bidi.visual(text, row.rtl, row.digits)

    def get_extents(self, text: str) -> tuple[int, int]:
        return super().get_extents(self._order(text))

    def get_cached_extents(self) -> Any:
        return self.get_extents

    def _render_text(self, text: str, x: int, y: int) -> None:
        super()._render_text(self._order(text), x, y)

    def render_lines(self, lines: Any, options: dict[str, Any], render_text: Any, y: int, size: Any) -> int:
        if language(tr.language).rtl:
            options = {**options, "halign": MIRRORED.get(options["halign"], options["halign"])}
        return super().render_lines(lines, options, render_text, y, size)


def ordered_runs(line: str) -> tuple[tuple[str, str], ...]:
    """One line of several fonts' letters (a Persian and a Japanese name in one sentence) as it is drawn left
    to right: in its visual order (``bidi.visual``: the table's direction and digits, Persian letters joined),
    then cut into a run a font (``fonts.runs``), so each run is drawn in the font that has its letters."""
    row = language(tr.language)
    return fonts.runs(bidi.visual(line, row.rtl, row.digits), row.font)


class Runs(MarkupLabel):
    """Kivy's markup text for a label in several fonts (``fonts.runs``). A class of its own: Kivy's label
    wraps its text in colour markup, from ``text``, only when its core text is exactly a ``MarkupLabel``.

    Kivy wraps the spans as written; a label that orders its lines (``ordered``) then draws each line in its
    visual order, cut again into a run a font (``ordered_runs``): the spans of the logical text, drawn left
    to right, would put a Persian sentence's words backwards and its letters apart."""

    def get_extents(self, text: str) -> tuple[int, int]:
        """As wide as drawn, Persian letters joined (narrower than apart), so Kivy wraps what is drawn."""
        if not bidi.needs_order(text) and not language(tr.language).digits:
            return super().get_extents(bidi.unmarked(text))  # a name's marks (``Label._draw``) measured as nothing
        row = language(tr.language)
        return super().get_extents(bidi.visual(text, row.rtl, row.digits))

    def get_cached_extents(self) -> Any:
        return self.get_extents

    def _pre_render(self) -> tuple[int, int]:
        size: tuple[int, int] = super()._pre_render()
        lines = self._cached_lines
        if not ordered("".join(word.text for line in lines for word in line.words)):
            return size
        for line in lines:
            self._order(line)
        width = max((line.w for line in lines), default=0)
        options = self.options
        self._internal_size = width, self._internal_size[1]  # type: ignore[has-type]
        if self.text_size[0] is None and not options["shorten"]:  # as wide as its widest line, drawn
            return max(1, int(width + options["padding"][0] + options["padding"][2])), size[1]
        return size

    def _order(self, line: Any) -> None:
        """``line``'s words as drawn: in visual order, a word a font, each measured in its font."""
        if not line.words:
            return
        by_font = {word.options["font_name"]: word for word in line.words}
        first = line.words[0]
        words = []
        for font, part in ordered_runs("".join(word.text for word in line.words)):
            like = by_font.get(font, first)
            self.options = options = {**like.options, "font_name": font}
            self.resolve_font_name()
            words.append(LayoutWord(options, self.get_extents(part)[0], like.lh, part))
        line.words = words
        line.w = sum(word.lw for word in words)

    def render_lines(self, lines: Any, options: dict[str, Any], render_text: Any, y: int, size: Any) -> int:
        if language(tr.language).rtl:
            options = {**options, "halign": MIRRORED.get(options["halign"], options["halign"])}
        return super().render_lines(lines, options, render_text, y, size)


def laying_out(widget: Any) -> bool:
    """Whether a layout holding ``widget`` is to lay its children out before the next frame."""
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if getattr(getattr(parent, "_trigger_layout", None), "is_triggered", False):  # a Layout's trigger
            return True
        parent = parent.parent
    return False


class Label(KivyLabel):
    """Kivy's label, drawing ``fonts.runs(text)``: in one font, or in a font span a script."""

    _label: Any
    """Kivy's core text: a ``CoreLabel``, ``Ordered``, or ``Runs``."""
    texture: Any

    def _create_label(self) -> None:
        super()._create_label()
        self._label.options["font_size"] = drawn_size(self.font_size)
        self._draw(self.text)

    def _trigger_texture_update(self, name: str | None = None, source: Any = None, value: Any = None) -> None:
        if name == "text" and source:
            value = self._draw(value)
        elif name == "font_size" and source:
            value = drawn_size(value)
        super()._trigger_texture_update(name, source, value)

    _words = ""
    """What ``_draw`` gave the core text, before a Japanese text is broken into lines."""

    _waited = False
    """Whether this label's last scheduled drawing waited for the layouts above it (``texture_update``)."""

    def texture_update(self, *args: Any) -> None:
        """Draw the text. Scheduled (Kivy's trigger passes the frame's time), a label whose layouts above have
        yet to run that frame waits for them, once: a screen's labels are given their text before their boxes
        their sizes, and were drawn twice, first at Kivy's 100 px (a button's words shrunk to nothing, a
        sentence wrapped and made smaller five times), then at the size laid out. Called directly, it draws."""
        if args and not self._waited and laying_out(self):
            self._waited = True
            self._trigger_texture()
            return
        self._waited = False
        core = self._label
        width = self.text_size[0]
        if isinstance(core, MarkupLabel) or not width or self.shorten:
            super().texture_update(*args)
            return
        self._break_lines(width)
        super().texture_update(*args)
        if self.texture is not None:
            self._keep_whole(width)

    def _break_lines(self, width: float) -> None:
        """A Japanese text, broken into lines at ``width`` by its rule (``breaks.wrap``) for Kivy to draw."""
        if breakable(self._words):
            core = self._label
            core.resolve_font_name()  # the font just chosen: Kivy resolves it as it draws, after this measure
            core.text = wrap(self._words, width, lambda text: core.get_extents(text)[0])

    def _keep_whole(self, width: float) -> None:
        """Draw the words smaller, down to ``SMALLEST`` of the label's size, while Kivy cuts them."""
        core = self._label
        wanted = size = core.options["font_size"]
        for _ in range(TRIES):
            smaller = laid_out_whole(core, core.text)
            if smaller >= 1.0 or size <= wanted * SMALLEST:
                break
            size = max(wanted * SMALLEST, size * smaller)
            core.options["font_size"] = drawn_size(size)
            self._break_lines(width)
            core.refresh()
        if size != wanted:
            self.texture = core.texture
            self.texture_size = list(core.texture.size)
            core.options["font_size"] = wanted  # the next layout starts from the label's own size again

    def follow_direction(self) -> None:
        """Draw the text again as the table's language now wants it (its direction, its digits)."""
        self._draw(self.text)
        self.texture_update()

    def _draw(self, text: str) -> str:
        """Choose the font for ``text``; what the core label is given to draw: a line it orders with each name
        it holds (a ``bidi.Named``'s) marked, to be drawn as one unit (``bidi.isolated``). ``text`` keeps no
        mark: a language switch draws it again from the plain words, and a left-to-right line has none."""
        parts = runs(bidi.isolated(text) if ordered(text) else text)
        if len(parts) == 1:
            (font, words), kind = parts[0], Ordered if ordered(text) else CoreLabel
        else:
            font, kind, words = parts[0][0], Runs, spans(parts)
        if type(self._label) is not kind:
            self._label = kind(**{**self._label.options, "text_size": self._label.usersize})
        self._label.text = self._words = words
        self.font_name = font  # Kivy's own binding hands it to the core label
        return words
