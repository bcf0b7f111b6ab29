"""A QR code drawn from its modules: one luminance texture a module a texel, scaled by whole pixels.

Scaling by a whole number of screen pixels, with nearest-neighbour filtering,
keeps every module square and its edges sharp, which is what a phone camera
needs from a screen at arm's length; the light quiet zone is part of the texture.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.widget import Widget

from companion.bgstats import qr_matrix


class QrCode(Widget):
    text = StringProperty("")
    module_px = NumericProperty(0)
    """Screen pixels a module, as drawn (0 before the first layout): for tests and the notes beside it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self._modules = 0
        self.bind(text=self._make, pos=self._draw, size=self._draw)

    def _make(self, *_args: object) -> None:
        if not self.text:
            self._texture, self._modules = None, 0
            self._draw()
            return
        matrix = qr_matrix(self.text)
        n = len(matrix)
        texture = Texture.create(size=(n, n), colorfmt="luminance")
        texture.mag_filter = texture.min_filter = "nearest"
        rows = reversed(matrix)  # a texture's first row is its bottom one
        texture.blit_buffer(b"".join(bytes(0 if dark else 255 for dark in row) for row in rows),
                            colorfmt="luminance", bufferfmt="ubyte")
        self._texture, self._modules = texture, n
        self._draw()

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        if self._texture is None:
            self.module_px = 0
            return
        scale = int(min(self.width, self.height) // self._modules)
        self.module_px = scale
        side = scale * self._modules
        x, y = round(self.x + (self.width - side) / 2), round(self.y + (self.height - side) / 2)  # centre: may lag
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(x, y), size=(side, side))
