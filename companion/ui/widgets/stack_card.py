"""The stack: the claim on its top card (spice colour, number, icon) and how many cards lie there.

Up to three tilted backs show the stack's depth. ``ghost`` draws only a dashed
outline: what was claimed, beside the card that was revealed.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.relativelayout import RelativeLayout

from companion.ui.widgets import load_kv
from companion.ui.widgets.fit import one_line_size


class StackCard(RelativeLayout):
    spice = StringProperty("")
    """"" for an empty stack."""
    number = NumericProperty(0)
    """0 when the claim has no number (five-spices)."""
    count = NumericProperty(0)
    ghost = BooleanProperty(False)
    wild = StringProperty("")
    """A revealed wild card: "wild-spice" or "wild-number"."""
    caption = StringProperty("")
    universal = BooleanProperty(False)
    """The card on top was laid as a universal card: a marker on it says so."""
    pill = BooleanProperty(True)
    """Whether the "STACK n" pill shows under the card."""
    card = ObjectProperty(None, allownone=True)
    """A revealed ``Card``, on the result sheet."""
    card_w = NumericProperty(0)
    card_h = NumericProperty(0)
    card_x = NumericProperty(0)
    card_y = NumericProperty(0)
    fill = ColorProperty()

    def word_size(self, text: str, size: float, *_deps: float) -> float:
        """``size``, or less when the bold ``text`` would be wider than the card.

        A claim's word is one word, which neither wraps nor may be cut:
        "Cinnamon" on a narrow card is drawn smaller instead. The kv rule passes
        the card's width too, so that it runs again when the card is resized.
        """
        return one_line_size(text, size, self.card_w - dp(12))


load_kv(__file__)
