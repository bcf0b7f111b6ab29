"""A design icon: one tinted, textured quad keeping the icon's aspect ratio.

Kivy's ``Image`` masks every picture with a stencil (three more rectangles
and four stencil operations each); the table shows about forty icons, and a
software renderer pays for every one of those passes in every frame.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui.widgets.mirror import mirrored


POINTING = ("arrow", "undo", "redo")
"""Icons that point along the line: mirrored in a right-to-left language (``companion.ui.widgets.mirror``)."""
FLIPPED = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0)
"""A texture's corners read right to left: its mirror image."""


@cache
def icon_texture(path: str) -> Texture:
    return CoreImage(path).texture


class Icon(Widget):
    source = StringProperty("")
    """The picture's path (``theme.icon``), or "" for none."""
    color = ColorProperty([1, 1, 1, 1])
    """The tint: design icons are white."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._tint = Color(*self.color)
        self._quad = Rectangle()
        for name in ("pos", "size", "source", "color", "opacity"):
            self.fbind(name, self._refresh)
        self._refresh()

    def follow_direction(self) -> None:
        """Drawn again after the language changed: a pointing icon turns with the direction."""
        self._refresh()

    def _refresh(self, *_args: Any) -> None:
        """Centred at its size or smaller, never enlarged (as ``Image``'s "scale-down").

        Nothing is drawn without a picture, nor while hidden: Kivy still draws a
        canvas at opacity 0, and the table hides about twenty icons that way.
        """
        shown = bool(self.source) and self.width > 0 and self.height > 0 and self.opacity > 0
        if shown != bool(self.canvas.children):
            self.canvas.clear()
            if shown:
                self.canvas.add(self._tint)
                self.canvas.add(self._quad)
        if not shown:
            return
        texture = icon_texture(self.source)
        scale = min(self.width / texture.width, self.height / texture.height, 1.0)
        width, height = texture.width * scale, texture.height * scale
        self._tint.rgba = self.color
        self._quad.texture = texture
        self._quad.tex_coords = FLIPPED if mirrored() and Path(self.source).stem in POINTING else texture.tex_coords
        # From x and y: ``center`` is a cached alias that may not have heard of this change yet.
        self._quad.pos = (self.x + (self.width - width) / 2, self.y + (self.height - height) / 2)
        self._quad.size = (width, height)
