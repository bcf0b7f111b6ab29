"""The on-screen keyboard, and the text field that calls it up.

A Pi with only its touchscreen has no other way to type a name, so every text
field is a :class:`TextField`: when it takes the focus and the table types on
the screen (``companion/ui/keyboard.py`` decides), the app's one
:class:`ScreenKeyboard` docks at the bottom of the window and lifts the screen
just enough that the field stays in sight above it. The keys type into the
field the way Kivy's own keys would (``insert_text``, ``do_backspace``,
``on_text_validate``), so a field cannot tell a finger from a keyboard, and a
physical keyboard keeps working beside it.

Touches on the keys are kept from Kivy's focus handling, which would otherwise
take the focus from the field at every key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior, FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion import languages
from companion.ui import fonts, theme
from companion.ui.i18n import tr
from companion.ui.widgets import load_kv
from companion.ui.widgets.buttons import PrimaryButton
from companion.ui.bidi import needs_order, visual
from companion.ui.widgets.label import Label, drawn
from companion.ui.widgets.ordered_field import OrderedCursor
from companion.ui.keyboard import (
    ACCENTS, BACKSPACE, ENTER, HIDE, KANA, LATIN, LETTERS, MORE, SHIFT, SMALL, SPACE, SYMBOLS, VOICED, ZWNJ, Key,
    after_accent, cased, katakana, letters_face, rows, shifts_by_itself, small, voiced,
)


SIGNS = (SHIFT, BACKSPACE, HIDE)
"""Keys drawn as a sign (⇧ ⌫ ▼), which Roboto does not have."""
HALF_SPACE = "\u0646\u06cc\u0645\u200c\u0641\u0627\u0635\u0644\u0647"
"""نیم‌فاصله: the ZWNJ key's name on Persian keyboards. A word of the layout, as its letters are, not of the
catalogue: the key is on the Persian letters only, which show only on a Persian table."""
SIGN_FONT = str(fonts.faces()[fonts.PERSIAN][0])
"""DejaVu Sans as the app ships it (its subset keeps the signs), so Kivy's whole copy is never opened."""

load_kv(__file__)


class KeyboardKey(ButtonBehavior, Label):
    """One key: a letter, or an action drawn as a word or a sign, each in the font that draws it (the shared
    label chooses: a kana key in Noto Sans CJK JP, Done in the language's own script)."""

    key = ObjectProperty(None)
    accent = BooleanProperty(False)
    """Drawn in the accent: Enter, and Shift while it is on."""


class ScreenKeyboard(BoxLayout):
    target = ObjectProperty(None, allownone=True)
    """The field being typed into, while the keyboard shows."""
    layer = StringProperty(LETTERS)
    shift = BooleanProperty(True)
    katakana = BooleanProperty(False)
    """The kana keys type katakana (a foreign name, ジョージ), not hiragana: kept from field to field."""

    def __init__(self, wanted: Callable[[], bool] = lambda: True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.wanted = wanted
        """Asked at each focus: is the table typing on the screen (no keyboard plugged in, a kiosk)?"""
        self._lifted: Any = None
        """The widget raised to keep the field in sight (the app's root), to lower again."""

    # --- showing and hiding ----------------------------------------------------------------------

    def attach(self, field: TextInput) -> None:
        """Show the keys for ``field``, unless the table types on a keyboard."""
        if not self.wanted():
            return
        self.target = field
        self.layer = LETTERS
        self.shift = self._shifts(field)
        self._build()
        if self.parent is None:
            Window.add_widget(self)
        Clock.schedule_once(lambda _dt: self._lift(), 0)  # once the keys are laid out

    def detach(self, field: TextInput) -> None:
        if field is not self.target:
            return
        self.target = None
        if self.parent is not None:
            self.parent.remove_widget(self)
        self._lower()

    def _lift(self) -> None:
        """Raise the screen under the field just enough that the keys do not cover it."""
        field = self.target
        root = App.get_running_app().root
        if field is None or root is None or field.get_root_window() is None:
            return
        self._lower()
        bottom = field.to_window(field.x, field.y)[1]
        top = field.to_window(field.x, field.top)[1]
        lift = max(0.0, min(self.top + dp(theme.GAP) - bottom, Window.height - top))
        if lift:
            root.y = lift
            self._lifted = root

    def _lower(self) -> None:
        if self._lifted is not None:
            self._lifted.y = 0
            self._lifted = None

    # --- the keys --------------------------------------------------------------------------------

    def on_layer(self, *_args: object) -> None:
        self._build()

    def on_katakana(self, *_args: object) -> None:
        self.on_shift()

    def on_shift(self, *_args: object) -> None:
        for row in self.ids.rows.children:
            for key in row.children:
                key.text, key.accent = self.face(key.key)

    def _build(self) -> None:
        holder = self.ids.rows
        holder.clear_widgets()
        for keys in rows(self.layer, tr.language):
            row = BoxLayout(spacing=dp(6))
            for key in keys:
                text, accent = self.face(key)
                button = KeyboardKey(key=key, text=text, accent=accent, size_hint_x=key.width)
                if key.action in SIGNS:
                    button.font_name = SIGN_FONT
                elif key.action == VOICED:
                    button.font_size = sp(theme.FONT_TITLE * 4 / 3)  # two half-width marks, as big as a kana
                elif key.action == ZWNJ:
                    button.font_size = sp(theme.FONT_CAPTION)  # its name is a word, on a key of one and a half letters
                button.bind(on_release=lambda button: self.press(button.key))
                row.add_widget(button)
            holder.add_widget(row)

    def face(self, key: Key) -> tuple[str, bool]:
        """What a key shows, and whether it is drawn in the accent."""
        labels = {
            SHIFT: ("\u21e7", self.shift),
            BACKSPACE: ("\u2326" if languages.language(tr.language).rtl else "\u232b", False),  # ⌦ points back
            ZWNJ: (HALF_SPACE, False),
            SPACE: ("", False),
            ENTER: (getattr(self.target, "enter_text", "") or tr._("Done"), True),
            HIDE: ("\u25bc", False),
            LETTERS: (letters_face(tr.language), False),
            MORE: (letters_face(tr.language, MORE), False),
            KANA: ("かな" if self.katakana else "カナ", False),
            VOICED: ("\uff9e\uff9f", False),  # half-width: the two marks fit a key at 720 wide
            SMALL: ("小", False),
            LATIN: (letters_face(languages.SOURCE), False),
            ACCENTS: ("\u00e0\u00e9\u00e7", False),
            SYMBOLS: ("?123", False),
        }
        if key.action in labels:
            return labels[key.action]
        return self._letter(key.action), False

    def _letter(self, letter: str) -> str:
        """A letter key's letter: shifted, or the katakana of a kana while the kana key says so."""
        shifted = cased(letter, self.shift)  # a Latin letter keeps its shift while the kana key says katakana
        return katakana(shifted) if self.katakana else shifted

    def press(self, key: Key) -> None:
        field = self.target
        if field is None:
            return
        action = key.action
        if action in (KANA, VOICED, SMALL):
            self._kana_key(action, field)
        elif action == SHIFT:
            self.shift = not self.shift
        elif action in (LETTERS, MORE, LATIN, ACCENTS, SYMBOLS):
            self.layer = action
        elif action == BACKSPACE:
            field.do_backspace()
            self.shift = self._shifts(field)
        elif action == ENTER:
            if field.multiline:
                field.insert_text("\n")
            elif not field.text.strip():
                field.focus = False  # nothing more to enter: the keys make way for Next
            else:
                field.dispatch("on_text_validate")
                self.shift = self._shifts(field)
                if field.text_validate_unfocus:
                    field.focus = False  # the field's one action is done (Save note, Rename): the keys go
        elif action == HIDE:
            field.focus = False
        else:
            field.insert_text(" " if action == SPACE else self._letter(action))
            self.shift = self._shifts(field)
            if self.layer == ACCENTS:
                self.layer = after_accent(tr.language)  # one accented letter, then back to the letters

    def _kana_key(self, action: str, field: TextInput) -> None:
        """Hiragana or katakana; or the kana just typed (before the cursor) made voiced or small, as a Japanese
        phone's ゛゜ and 小 keys do: が is か then ゛, ぱ is は then ゛ twice, ょ is よ then 小."""
        if action == KANA:
            self.katakana = not self.katakana
            return
        before = field.text[:field.cursor_index()]
        if not before:
            return
        changed = (voiced if action == VOICED else small)(before[-1])
        if changed != before[-1]:
            field.do_backspace()
            field.insert_text(changed)

    @staticmethod
    def _shifts(field: TextInput) -> bool:
        return shifts_by_itself(field.text, getattr(field, "capitals", "name") == "sentence")

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        FocusBehavior.ignored_touch.append(touch)  # a key keeps the focus in the field
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        return super().on_touch_move(touch) or self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        return super().on_touch_up(touch) or self.collide_point(*touch.pos)


class TextField(OrderedCursor):
    """A text field in the theme's colours that calls up the on-screen keyboard when it takes the focus.

    Enter (or the keyboard's own Enter key, labelled ``enter_text``) leaves the
    focus where it is, so a list of names is typed without a tap between them.
    """

    enter_text = StringProperty("")
    """The word on the on-screen keyboard's Enter key (the screen's action: "Add")."""
    capitals = OptionProperty("name", options=["name", "sentence"])
    """Where shift comes on by itself: a name's first letter, or each sentence's (a note)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(focus=self._focused, text=self._choose_font, hint_text=self._choose_font)
        self._choose_font()

    def _choose_font(self, *_args: object) -> None:
        """A name typed or pasted in its own script shows in it as it is typed, in the font a label would
        choose; an emoji is kept as typed, so it is the font's box here until the name is added."""
        self.font_name = drawn(self.text or self.hint_text)[1]
        self.halign = "right" if languages.language(tr.language).rtl else "left"

    def follow_direction(self) -> None:
        """The language changed: the field aligns to its side (``companion.ui.widgets.mirror.relayout``)."""
        self._choose_font()

    def _create_line_label(self, text: str, hint: bool = False) -> Any:
        """A line holding Persian is drawn in the order it reads, its letters joined (``companion.ui.bidi``),
        as a label draws it; its cursor stands where it is drawn (``OrderedCursor``)."""
        if needs_order(text):
            text = visual(text, languages.language(tr.language).rtl)
        return super()._create_line_label(text, hint)

    def _focused(self, _field: TextField, focused: bool) -> None:
        keyboard: ScreenKeyboard | None = getattr(App.get_running_app(), "screen_keyboard", None)
        if keyboard is None:
            return
        if focused:
            keyboard.attach(self)
        else:
            keyboard.detach(self)


class FieldButton(PrimaryButton):
    """The button beside a text field (Add): a press leaves the focus, and the keyboard, in the field."""

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            FocusBehavior.ignored_touch.append(touch)
        return bool(super().on_touch_down(touch))
