"""Sweet & Spicy's universal pile: how many universal cards are still there for a challenge's loser to take.

The count is the rules' (``TableView.universal_pile``, from the table model); the
tile only draws it, as a small amber card like the one each seat panel counts its
universal cards held with.
"""

from __future__ import annotations

from kivy.properties import NumericProperty

from companion.ui.widgets.mirror import Row
from companion.ui.widgets import load_kv


class UniversalPileTile(Row):
    count = NumericProperty(0)


load_kv(__file__)
