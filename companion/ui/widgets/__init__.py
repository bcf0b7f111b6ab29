"""Our own small widget set (docs/design/README.md "Components"): each a class and its kv rule.

Importing this package loads every widget's ``.kv`` once, so screens can use
the widgets by name.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

from companion.ui.widgets.buttons import GhostButton, PrimaryButton, RoundButton, SecondaryButton
from companion.ui.widgets.forms import Caption, ChoiceButton, Header, Tile, short
from companion.ui.widgets.icon import Icon
from companion.ui.widgets.keyboard import FieldButton, ScreenKeyboard, TextField
from companion.ui.widgets.toast import Toast

HERE = Path(__file__).parent


def load_kv(module_file: str) -> None:
    """Load the ``.kv`` beside a module (once; Builder refuses nothing, so guard re-imports)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


load_kv(str(HERE / "buttons.py"))
load_kv(str(HERE / "toast.py"))
load_kv(str(HERE / "forms.py"))
load_kv(str(HERE / "keyboard.py"))

__all__ = [
    "Caption", "ChoiceButton", "FieldButton", "GhostButton", "Header", "Icon", "PrimaryButton", "RoundButton",
    "ScreenKeyboard", "SecondaryButton", "TextField", "Tile", "Toast", "load_kv", "short",
]
