"""Names in their own scripts on a table of every language: Latin, Cyrillic, kana, kanji and Persian seated
together, through the table, a challenge, its result, the end, the players list and the score race.

Kivy draws a label in one font, so each label on each of these screens must have chosen a font that has a glyph
for every character it draws (checked with fontTools on the font files Kivy has registered under its
``font_name``), and each name must be on screen, whole or cut, in its own letters; an emoji is the placeholder.
"""

from __future__ import annotations

import re

import pytest
from kivy.uix.label import Label

from companion.languages import CODES
from companion.rules import SPICY, Card, new_setup
from companion.ui.bidi import unmarked
from companion.ui.fonts import PLACEHOLDER
from companion.ui.widgets.fit import ELLIPSIS
from companion.ui.widgets.label import Runs
from table_helpers import Table
from tests.test_ui_catalogue import undrawable

NAMES = ["Zoë", "Ёжик", "さくら", "佐藤", "سارا", "Ben 🌶️"]
SHOWN = {"Ben 🌶️": f"Ben {PLACEHOLDER}"}
"""How a name is drawn when it is not drawn as typed: its emoji as the placeholder."""


def spans(label: Label) -> list[tuple[str, str]]:
    """What the label's core text draws, as (font, words): its one font, or each markup font span. The marks
    a line is ordered by (a name's, ``bidi.isolated``) are drawn as nothing: no font is asked for them."""
    if not isinstance(label._label, Runs):
        return [(label.font_name, unmarked(label._label.text))]
    found = re.findall(r"\[font=([^\]]+)\](.*?)\[/font\]", label._label.text)
    assert "".join(f"[font={font}]{words}[/font]" for font, words in found) == label._label.text
    return [(font, unmarked(words.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")))
            for font, words in found]


def check(ui, where: str, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Every label on screen draws in a font with all its glyphs; each of ``names`` is drawn in one."""
    labels = [label for label in ui.find_all(Label) if label.text and label.opacity and label.width > 1]
    lacking = {(label.text, font): missing for label in labels for font, words in spans(label)
               if (missing := undrawable({words}, font))}
    assert lacking == {}, where
    drawn = ["".join(words for _font, words in spans(label)) for label in labels]
    for name in names:
        shown = SHOWN.get(name, name)
        assert any(shown in text or (shown[:2] in text and ELLIPSIS in text) for text in drawn), (where, name)


@pytest.mark.parametrize("language", CODES)
def test_every_name_is_drawn_in_its_own_script_on_every_screen(ui, language: str) -> None:  # type: ignore
    table = Table(ui, new_setup(SPICY, NAMES, first=0, end_card=25), gpio=False)
    assert table.app.change_settings(language=language)
    ui.step(2)
    check(ui, "table", NAMES)

    table.declare("chili", 2)  # Zoë's card; さくら challenges it
    table.view.press(2)
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    check(ui, "challenge", ["さくら", "Zoë"])
    table.tap(table.sheet().ids.not_number)
    ui.until(lambda: table.screen.sheet_name == "reveal")
    ui.step(2)
    check(ui, "reveal", ["Zoë"])
    table.view.reveal(Card("chili", 3))  # a lie: さくら wins the stack
    ui.until(lambda: table.screen.sheet_name == "result")
    ui.step(2)
    check(ui, "result", ["さくら", "Zoë"])
    table.tap(table.sheet().ids.ok)
    ui.step(2)

    table.tap(table.screen.ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    assert table.app.root.current == "end"
    ui.step(3)
    check(ui, "end", NAMES)

    table.app.show("players")
    ui.step(3)
    check(ui, "players", NAMES)

    (game,) = table.app.store.list_games()
    page = table.app.screen("game")
    assert page.open(game.id)
    table.app.show("game")
    ui.step(2)
    check(ui, "game", NAMES)
    ui.tap(page.ids.race_button)
    ui.step(3)
    check(ui, "race", NAMES)


def test_a_name_being_typed_shows_in_its_own_script(ui) -> None:  # type: ignore[no-untyped-def]
    app = ui.start()
    ui.tap(app.screen("home").ids.new_game)
    screen = app.screen("setup")
    ui.tap(screen.ids.next)
    ui.step(2)
    field = screen.ids.new_name
    for name in ("Zoë", "Ёжик", "さくら", "佐藤", "سارا"):
        field.text = name
        ui.step()
        assert undrawable({name}, field.font_name) == {}, name
    field.text = ""
    ui.step()
    assert undrawable({field.hint_text}, field.font_name) == {}


def test_a_sentence_with_persian_and_japanese_names_draws_each_in_its_font(ui) -> None:  # type: ignore
    """No one font has both scripts: the label draws a font span a script, each name in its own letters."""
    table = Table(ui, new_setup(SPICY, NAMES, first=2, end_card=25), gpio=False)
    table.declare("chili", 1)  # さくら's card; سارا challenges it
    table.view.press(4)
    ui.until(lambda: table.screen.sheet_name == "challenge")
    ui.step(2)
    title = table.sheet().ids.title
    assert isinstance(title._label, Runs) and {font for font, _words in spans(title)} == {"DejaVuSans", "NotoSansJP"}
    check(ui, "challenge", ["سارا", "さくら"])


def test_a_label_gives_kivy_the_whole_size_it_draws_at(ui) -> None:  # type: ignore[no-untyped-def]
    """SDL_ttf draws at a whole size, and Kivy keeps a face for each size it is given: 8.17 and 8.61 (sizes
    scaled to a panel) drew the same letters from two more faces of the Japanese font (2.5 ms and 0.6 MiB
    each)."""
    ui.start()
    from companion.ui.widgets.label import Label as SharedLabel

    labels = [SharedLabel(text="新しいゲーム Ben", font_size=size) for size in (8.0, 8.17, 8.61)]
    for label in labels:
        label.texture_update()
    assert {label._label.options["font_size"] for label in labels} == {8.0}
    assert len({tuple(label.texture_size) for label in labels}) == 1  # drawn as before: the same letters
    labels[0].font_size = 9.5
    labels[0].texture_update()
    assert labels[0]._label.options["font_size"] == 9.0 and labels[0].texture_size[0] > labels[1].texture_size[0]
