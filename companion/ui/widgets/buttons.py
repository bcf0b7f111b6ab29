"""Buttons drawn to the design: primary, secondary, ghost and round icon buttons.

``dimmed`` makes a button look disabled while it still fires ``on_release``:
an illegal choice must still answer a tap with the reason it is refused,
which a Kivy-disabled button would swallow.
"""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior

from companion.ui.widgets.mirror import Row
from companion.ui.widgets.fit import needed_width, one_line_size


UNPLACED = (100, 100)
"""Kivy's size of a widget no layout or rule has sized yet."""


class KeptClear:
    """A button no toast may cover (``Toast``): the challenge buttons and the seat to play's, which the table
    must reach at a glance. A kv rule mixes it in by name: ``<TurnButton@SecondaryButton+KeptClear>``."""


Factory.register("KeptClear", cls=KeptClear)


class BaseButton(ButtonBehavior, Row):
    text = StringProperty("")
    icon = StringProperty("")
    """A design icon's name (``theme.icon``), or "" for none."""
    dimmed = BooleanProperty(False)
    ink = ColorProperty()
    fill = ColorProperty()
    face = ColorProperty()
    """What the button is filled with before a press shades it: ``fill``, or the dimmed colour; a dimmed
    button still answers a tap (with its reason), so it shows the press too."""
    border_colour = ColorProperty()
    border_width = NumericProperty(2)
    radius = NumericProperty()
    font_size = NumericProperty()
    icon_size = NumericProperty()


    def words_size(self, size: float, *_deps: object) -> float:
        """``size``, or less when the words would not fit between the padding, the icon and the gaps: a
        button of a fixed width ("Rückgängig" in the undo pill) draws its word smaller, never cut.

        A button still at the size Kivy gives every new widget has not been placed: its kv rule runs as it is
        made, before its layout gives it a size, and runs again then. Measured at those 100 px, a long name
        would open its font at a size no frame draws (a Japanese face costs 2.5 ms and 0.6 MiB a size)."""
        if tuple(self.size) == UNPLACED:
            return size
        left, _top, right, _bottom = self.padding
        icon = self.icon_size if self.icon else 0.0
        return one_line_size(self.text, size, self.width - left - right - icon - 3 * self.spacing) if self.text else size

    def whole_width(self, size: float, *_deps: object) -> float:
        """How wide the button must be to draw its icon and words whole at ``size``: a rule loaded with this
        package (the header's Back) cannot import ``fit`` itself while the package is still being imported."""
        return needed_width(self, size)


class PrimaryButton(BaseButton):
    """The one thing to do next: accent fill, dark ink."""


class SecondaryButton(BaseButton):
    """Raised surface with a border."""


class GhostButton(BaseButton):
    """Border only, for cancel and back."""


class RoundButton(BaseButton):
    """56 dp round icon button: undo, redo, menu."""
