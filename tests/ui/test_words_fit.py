"""Every label's words fit where they are drawn, in every language, with six seats of the longest names:
a long word wraps or shrinks, never runs out of its box and is never cut (``fit_checks.misfits``).

The French of a last evening showed what this guards: "Garder la note" and "Commencer la partie" out of
their buttons, "GAGNE LA PILE" over the winner's name, "(+2" split from ")", a reveal title cutting a name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kivy.core.window import Window
from kivy.uix.widget import Widget

from companion.config import UiConfig
from companion.languages import CODES
from companion.rules import SPICY, Card, new_setup
from companion.rules.setup import MAX_NAME
from companion.ui.breaks import NO_START
from companion.ui.i18n import tr
from companion.ui.screens.result import ResultSeat
from companion.ui.widgets.label import Label
from companion.ui.words import delay
from fit_checks import misfits
from layouts import SHAPES, sizes
from table_helpers import on_the_last_step

NAMES = [
    "Maximilian-Alexander von Hohenzollern-Si",  # as long as a name may be
    "Ёжик Туманович",
    "Anne-Charlotte-Sophie de Villeneuve",
    "さくら佐藤",
    "سارا",
    "Françoise",
]


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    tr.switch("en")


def on_window(ui, where: str) -> list[str]:  # type: ignore[no-untyped-def]
    ui.step(3)
    return [f"{where}: {problem}" for child in Window.children for problem in misfits(child)]


def below(counts: Label, name: Label, seat: Widget) -> bool:
    """The counts' lines lie under the name's and inside the seat."""
    _x, top = counts.to_window(counts.x, counts.center_y + counts.texture_size[1] / 2)
    _x, under_name = name.to_window(name.x, name.center_y - name.font_size / 2)
    _x, bottom = seat.to_window(seat.x, seat.y)
    return top <= under_name + 2 and counts.to_window(counts.x, counts.center_y - counts.texture_size[1] / 2)[1] >= bottom - 1


def test_the_names_are_as_long_as_a_name_gets() -> None:
    assert len(NAMES[0]) == MAX_NAME


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("size", sizes(SHAPES))
def test_every_word_of_a_game_fits_its_box(ui, language: str, size: tuple[int, int]) -> None:  # type: ignore
    app, _setup = on_the_last_step(ui, NAMES, size=size, config=ui.config(ui=UiConfig(language=language)))
    wrong = on_window(ui, "set-up's last step")

    app.start_game(new_setup(SPICY, NAMES, first=1, end_card=25))
    ui.step(2)
    view = app.screen("table").view
    for spice, number in (("chili", 1), ("chili", 2), ("chili", 4), ("chili", 5)):
        view.declare(spice, number)
        view.pass_turn()
    view.declare("chili", 7)
    wrong += on_window(ui, "the table")
    view.press(2)
    ui.until(lambda: view.buzz is not None)
    wrong += on_window(ui, "the challenge")
    view.call("number")
    wrong += on_window(ui, "the reveal")
    view.reveal(Card("chili", 4))
    wrong += on_window(ui, "the result")
    wrong += [f"the result: {seat.name}'s counts {seat.ids.counts.text!r} run over the name or out of the seat"
              for seat in ui.find_all(ResultSeat) if not below(seat.ids.counts, seat.ids.name, seat)]
    view.dismiss_result()
    view.end_card_showed()
    wrong += on_window(ui, "the end")

    assert app.screen("game").open(app.session.game_id)
    app.show("game")
    wrong += on_window(ui, "the game's page")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("language", CODES)
@pytest.mark.parametrize("size", sizes(SHAPES))
def test_every_setting_is_explained_whole(ui, language: str, size: tuple[int, int]) -> None:  # type: ignore
    """Settings' explanations wrap, and their rows grow with them: German and Russian in portrait, and
    Japanese, whose lines have no space to wrap at, were cut."""
    app = ui.start(size=size, config=ui.config(ui=UiConfig(language=language)))
    app.show("settings")
    wrong = on_window(ui, "Settings")
    assert not wrong, "\n".join(wrong)
    sounds = [label for label in ui.find_all(Label) if label.text == tr._("A sound on a buzz, a decision, a last card and the end")]
    assert len(sounds) == 1 and sounds[0].texture_size[1] <= sounds[0].height + 1


def test_a_japanese_line_wraps_between_characters_by_its_rule(ui) -> None:  # type: ignore[no-untyped-def]
    ui.start(config=ui.config(ui=UiConfig(language="ja")))
    text = "カードを1枚伏せて出し、スパイスと数字を宣言する。ほかの席の誰でもBenのカードにチャレンジできる。"
    label = Label(text=text, font_size=20, text_size=(150, None))
    label.texture_update()
    lines = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
    assert len(lines) > 3 and "".join(lines) == text, lines
    assert not [line for line in lines if line[0] in NO_START], lines
    assert label.texture_size[0] <= 150 and label.font_size == 20


def test_a_word_wider_than_its_box_is_drawn_smaller_not_broken(ui) -> None:  # type: ignore[no-untyped-def]
    ui.start()
    label = Label(text="Spielregelnzusammenfassung ist lang", font_size=24, text_size=(200, None))
    label.texture_update()
    lines = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
    assert lines[0].strip() == "Spielregelnzusammenfassung", lines
    assert label.texture_size[0] <= 200 and label.font_size == 24  # drawn smaller; its own size is kept


def test_a_text_past_its_height_is_drawn_smaller_not_cut(ui) -> None:  # type: ignore[no-untyped-def]
    ui.start()
    label = Label(text="one two three four five six seven eight", font_size=20, size=(120, 50),
                  text_size=(120, 50), valign="top")
    label.texture_update()
    assert misfits_of(label) == []
    drawn = " ".join("".join(word.text for word in line.words) for line in label._label._cached_lines)
    assert drawn.split() == label.text.split()


def misfits_of(label: Label) -> list[str]:
    from kivy.uix.widget import Widget

    holder = Widget(size=label.size)
    holder.add_widget(label)
    return misfits(holder)


def test_a_buzz_time_is_written_in_the_language() -> None:
    tr.switch("ru")
    assert delay(12.3) == "+12 мс"
    tr.switch("de")
    assert delay(0.42) == "+0.4 ms"
