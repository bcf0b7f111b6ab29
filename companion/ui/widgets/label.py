"""The label every screen draws its words with: in a font that has all of them, and never a box.

A screen's kv says ``Label:``; importing ``companion.ui.widgets`` registers this class under that name, so
every label of every ``.kv``, and each one added later, is this one. Python code builds it by importing it
from here. Its ``font_name`` is its own: chosen from its text (``companion.ui.fonts.drawn``) each time the
text changes, with the table's language's font first; a character no font draws (an emoji) is drawn as the
placeholder while ``text`` keeps what was typed.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.label import Label as KivyLabel

from companion.languages import language
from companion.ui import fonts
from companion.ui.i18n import tr


def drawn(text: str) -> tuple[str, str]:
    """What a label holding ``text`` draws, and in which font: for code that measures or draws text itself
    (``companion.ui.widgets.fit``, the chart), so it measures what the label will draw."""
    return fonts.drawn(text, language(tr.language).font)


class Label(KivyLabel):
    """Kivy's label, drawing ``drawn(text)``."""

    def _create_label(self) -> None:
        super()._create_label()
        self._draw(self.text)

    def _trigger_texture_update(self, name: str | None = None, source: Any = None, value: Any = None) -> None:
        if name == "text" and source:
            value = self._draw(value)
        super()._trigger_texture_update(name, source, value)

    def _draw(self, text: str) -> str:
        """Choose the font for ``text``; what the core label is given to draw."""
        words, font = drawn(text)
        self._label.text = words
        self.font_name = font  # Kivy's own binding hands it to the core label
        return words
