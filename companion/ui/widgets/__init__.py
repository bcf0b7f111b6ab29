"""Our own small widget set (docs/design/README.md "Components"): each a class and its kv rule.

Importing this package loads the ``.kv`` of the widgets every screen uses (the
buttons, the form pieces), so screens can use them by name. The other widgets
load their own ``.kv`` when their module is first imported: the on-screen
keyboard and the toast, like the table's pieces, are not needed to draw the
first frame (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder

from companion.ui import fonts
from companion.ui.widgets.label import Label
from companion.ui.widgets.mirror import Grid, Row, Stack
from companion.ui.widgets.buttons import GhostButton, PrimaryButton, RoundButton, SecondaryButton
from companion.ui.widgets.fit import short
from companion.ui.widgets.forms import Caption, ChoiceButton, Header, Tile
from companion.ui.widgets.icon import Icon

HERE = Path(__file__).parent


def load_kv(module_file: str) -> None:
    """Load the ``.kv`` beside a module (once; Builder refuses nothing, so guard re-imports)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


fonts.register()
Factory.unregister("Label")
Factory.register("Label", cls=Label)  # every kv ``Label:`` draws its words in a font that has them
for _name, _cls in (("BoxLayout", Row), ("GridLayout", Grid), ("StackLayout", Stack)):  # every row mirrors
    Factory.unregister(_name)
    Factory.register(_name, cls=_cls)
for _name in ("ScrollView", "RecycleView"):  # a list's bar on the side its lines end, imported with a first list
    Factory.unregister(_name)
    Factory.register(_name, module="companion.ui.widgets.scrolls")
load_kv(str(HERE / "buttons.py"))
load_kv(str(HERE / "forms.py"))

__all__ = [
    "Caption", "ChoiceButton", "GhostButton", "Header", "Icon", "Label", "PrimaryButton", "RoundButton", "SecondaryButton",
    "Tile", "load_kv", "short",
]
