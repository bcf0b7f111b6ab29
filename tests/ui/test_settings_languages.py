"""Settings offers one button per language of the table, and seven of them fit a Touch Display either way up."""

from __future__ import annotations

import pytest
from kivy.metrics import dp
from kivy.uix.label import Label

import companion.ui.screens.settings
from companion.languages import LANGUAGES, Language
from companion.ui import theme
from tests.test_ui_catalogue import undrawable

SEVEN = (
    *LANGUAGES,
    *(Language(code, name, LANGUAGES[0].letters) for code, name in (
        ("de", "Deutsch"), ("nl", "Nederlands"), ("ru", "Русский"), ("ja", "日本語"), ("fa", "فارسی"),
    ) if code not in {row.code for row in LANGUAGES}),
)[:7]
"""The table's rows and the seven the rule sheets and the tables ask for, in their own names."""


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda size: "x".join(map(str, size)))
def test_every_language_has_a_button_with_its_name_whole(ui, monkeypatch: pytest.MonkeyPatch,
                                                          size: tuple[int, int]) -> None:
    monkeypatch.setattr(companion.ui.screens.settings, "LANGUAGES", SEVEN)
    app = ui.start(size=size)
    app.show("settings")
    ui.step(3)
    choices = app.screen("settings").ids.languages
    assert list(choices.buttons) == [row.code for row in SEVEN]
    for row in SEVEN:
        button = choices.buttons[row.code]
        words = next(child for child in button.children if isinstance(child, Label))
        assert words.text == row.name and undrawable({row.name}, words.font_name) == {}  # its own script
        assert button.height >= dp(theme.TARGET) and button.width >= dp(theme.TARGET)
        assert choices.x <= button.x and button.right <= choices.right + 0.5
        assert words.texture_size[0] <= button.width - 2 * dp(16), row.name  # inside its padding
    assert choices.cols >= 2 and choices.height <= size[1] / 2  # two rows at most: the other settings still show
