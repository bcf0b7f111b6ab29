"""The pieces the set-up, settings and list screens are made of: a header, choices, a tile.

``ChoiceButton`` is one of a set (a profile, a language) or a switch (a variant
card): the chosen look is the accent, like the claim pad's selected spice.
"""

from __future__ import annotations

from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.ui.widgets.mirror import Row
from companion.ui import theme
from companion.ui.widgets.buttons import SecondaryButton
from companion.ui.widgets.fit import one_line_size


class ChoiceButton(SecondaryButton):
    selected = BooleanProperty(False)


class Header(Row):
    """A screen's title with the way back home (and room on the right for one action)."""

    title = StringProperty("")
    back = StringProperty("home")
    """The screen the back button shows."""

    @staticmethod
    def title_size(title: str, width: float) -> float:
        """The title's type size: smaller when it is wider than its room, never cut ("Parties...istrées")."""
        return one_line_size(title, sp(theme.FONT_TITLE), width)


class Tile(Row):
    """A panel on the felt (surface fill, line border, 16 dp radius), for grouping a screen's parts."""

    fill = ListProperty([0, 0, 0, 0])


class Caption(Row):
    """The small bold caps above a tile's content, as on the table's tiles."""

    text = StringProperty("")
    wrap = BooleanProperty(False)
    """Take a second line rather than cut the text, for a caption that says how to use the tile."""
