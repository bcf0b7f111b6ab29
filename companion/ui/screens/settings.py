"""Settings: the language, the sounds, the spoken calls and their volume, seat panels that face their
edges for a screen lying flat, and the phone page.

Each change applies at once and is kept across restarts (``companion.ui.prefs``).
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.config import SPEECH_LOUD, UiConfig
from companion.languages import LANGUAGES
from companion.ui import theme
from companion.ui.widgets import load_kv
from companion.ui.widgets.forms import ChoiceButton

load_kv(__file__)

LANGUAGE_WIDTH = 160
"""The narrowest a language's button gets (dp): its own name whole, in the longest ("Nederlands")."""
VOLUMES = (40, 70, SPEECH_LOUD)
"""The spoken calls' volumes to choose from, in percent: soft, medium, loud (settings.kv has a button each)."""


class SettingsScreen(Screen):
    phones_said = StringProperty("")
    """What the phone page is doing, in words (``Phones.said`` of the app that built this screen)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        phones = App.get_running_app().phones
        phones.bind(said=self.setter("phones_said"))
        self.phones_said = phones.said

    @staticmethod
    def volume_chosen(ui: UiConfig) -> int:
        """The spoken calls' button lit: 0 (Off) when speech is off, else the nearest of ``VOLUMES`` (the
        config file may set any percentage)."""
        return min(VOLUMES, key=lambda each: abs(each - ui.speech_volume)) if ui.speech else 0


class LanguageChoices(GridLayout):
    """One button per row of ``companion.languages``, each name in its own font, in as many columns as
    the row has room for: the eighth language is one more button, not a new layout."""

    chosen = StringProperty("")
    buttons = DictProperty()
    """Each language's button, by its code."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.spacing = dp(theme.GAP)
        self.size_hint_y = None
        self.bind(minimum_height=self.setter("height"), width=self._columns)
        for row in LANGUAGES:
            button = ChoiceButton(text=row.name, size_hint_y=None, height=dp(56))
            button.bind(on_release=lambda _button, code=row.code: App.get_running_app().change_settings(language=code))
            self.buttons[row.code] = button
            self.add_widget(button)
        self.cols = 1

    def on_chosen(self, _instance: object, code: str) -> None:
        for each, button in self.buttons.items():
            button.selected = each == code

    def _columns(self, _instance: object, width: float) -> None:
        gap = self.spacing[0]
        self.cols = max(1, min(len(self.buttons), int((width + gap) // (dp(LANGUAGE_WIDTH) + gap))))
