"""The draw pile: cards left before the World's End card, and a fuse that burns down towards it.

Calm, then amber when the World's End is near (3 cards a seat or fewer), then
red when it is next (a card a seat or fewer). A tap asks whether the World's
End card showed, so the table can end the game on what it sees.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, OptionProperty
from kivy.uix.behaviors import ButtonBehavior

from companion.ui.widgets.mirror import Row
from companion.ui.widgets import load_kv


class DrawPileTile(ButtonBehavior, Row):
    count = NumericProperty(0)
    start = NumericProperty(1)
    level = OptionProperty("calm", options=["calm", "warning", "danger"])
    end_card = BooleanProperty(True)
    """False in five-spices: no World's End, the face-up pile is reshuffled."""


load_kv(__file__)
