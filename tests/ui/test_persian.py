"""Persian, right to left: each wrapped line drawn in the order it reads, and a table switched to Persian and
back by touch, a Persian name typed on its keyboard and a challenge played in between."""

from __future__ import annotations

import gettext
import re
from typing import Any

import pytest
from arabic_reshaper import reshape
from kivy.core.text import Label as CoreLabel

from companion.config import BuzzerConfig, UiConfig
from companion.ui import fonts
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.keyboard import BACKSPACE, ENTER, HIDE, SHIFT, ZWNJ
from companion.ui.widgets.claim_pad import NumberButton
from companion.ui.widgets.fit import fit_names
from companion.ui.widgets.forms import Header
from companion.ui.widgets.label import Label, Ordered
from companion.ui.widgets.seat_panel import SeatPanel
from buzzers_fixtures import timed_factory
from keyboard_helpers import keys, type_on_screen
from table_helpers import LEDS, Table, within

MIXED = "سارا برنده شد با 12 امتیاز، Ben دوم"
"""Sara won with 12 points, Ben second: Persian, a number and a Latin name in one sentence."""
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"
ARABIC_SCRIPT = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]")
fa = gettext.translation("companion", LOCALE, languages=["fa"]).gettext


def read_as_drawn(word: str) -> str:
    """A word of a right-to-left line as the eye sees it drawn left to right, worked out by hand: a Persian
    word's joined letters reversed, a number in Persian digits and a Latin name as they are."""
    if ARABIC_SCRIPT.search(word):
        return reshape(word)[::-1]
    return word.translate(str.maketrans("0123456789", PERSIAN_DIGITS)) if word.isdigit() else word


def drawn_lines(text: str, width: float | None, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The lines Kivy wraps ``text`` into at ``width``, top first, and what SDL2_ttf is handed to draw of each."""
    handed: list[str] = []
    render_text = CoreLabel._render_text
    monkeypatch.setattr(CoreLabel, "_render_text", lambda self, words, x, y: (handed.append(words),
                                                                                render_text(self, words, x, y)))
    core = Ordered(text=text, font_name=fonts.PERSIAN, font_size=24, text_size=(width, None), halign="left")
    core.refresh()
    core.render(real=True)
    logical = [line.words[0].text for line in core._cached_lines if line.words]
    return logical, handed[-len(logical):]  # the last drawing (filling the texture may have drawn one before)


@pytest.mark.parametrize(("share", "lines"), [(1.2, 1), (0.6, 2), (0.35, 3)])
def test_each_wrapped_line_reads_right_to_left_with_its_number_and_name_left_to_right(
        ui: Any, monkeypatch: pytest.MonkeyPatch, share: float, lines: int) -> None:
    """Wrapped first, ordered per line: the first line holds the sentence's start (the bidi algorithm on the
    whole text would put it last), each line's words run right to left, 12 reads ۱۲ and Ben reads Ben."""
    fonts.register()
    tr.switch("fa")
    try:
        whole = Ordered(font_name=fonts.PERSIAN, font_size=24).get_extents(MIXED)[0]
        logical, handed = drawn_lines(MIXED, whole * share, monkeypatch)
    finally:
        tr.switch("en")
    assert len(logical) >= lines and (len(logical) == 1) == (lines == 1)
    assert " ".join(line.strip() for line in logical) == MIXED and logical[0].startswith("سارا")
    for line, drawn in zip(logical, handed, strict=True):
        assert drawn.strip() == " ".join(read_as_drawn(word) for word in reversed(line.split()))
    assert any("۱۲" in drawn for drawn in handed) and any("Ben" in drawn for drawn in handed)
    assert not any("21" in drawn or "neB" in drawn or "12" in drawn for drawn in handed)


def test_a_persian_name_in_an_english_sentence_reads_left_to_right_around_it(
        ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fonts.register()
    logical, handed = drawn_lines("سارا wins 12", None, monkeypatch)
    assert handed == [reshape("سارا")[::-1] + " wins 12"]  # an English line: its digits stay 0-9


def record_drawn(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """What SDL2_ttf was last handed to draw by each core text, by its id: its line as the eye reads it."""
    drawn: dict[int, str] = {}
    render_text = CoreLabel._render_text
    monkeypatch.setattr(CoreLabel, "_render_text", lambda self, words, x, y: (drawn.__setitem__(id(self), words),
                                                                                render_text(self, words, x, y)))
    return drawn


def persian_set_up(ui: Any) -> Any:
    """The set-up's seats on a Persian table, its name field focused, the on-screen keyboard up."""
    app = ui.start(size=(800, 480), config=ui.config(ui=UiConfig(keyboard="screen")))
    switch_in_settings(ui, "fa", "home")
    ui.tap(app.screen("home").ids.new_game)
    setup = app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    ui.tap(setup.ids.new_name)
    ui.step(2)
    return setup


@pytest.mark.parametrize("name", ["Ben 2", "Table 3"])
def test_a_name_with_a_number_of_its_own_is_drawn_as_typed_in_a_persian_sentence(
        ui: Any, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A player named "Ben 2" with 5 points, on a Persian table: his name drawn as typed (Latin, its 2 after it,
    Western), then, at its left, his points in Persian digits. Drawn "۲ Ben" it read as Ben with 2 points."""
    fonts.register()
    drawn = record_drawn(monkeypatch)
    tr.switch("fa")
    try:
        label = Label(text=fit_names("{name} 5 امتیاز", {"name": name}, 600, 24), font_size=24)
        label.texture_update()
        label._label.render(real=True)  # what its texture is filled with when it is drawn
    finally:
        tr.switch("en")
    assert label.text == f"{name} 5 امتیاز"  # what the screen set: the plain sentence
    assert drawn[id(label._label)] == f"{read_as_drawn('امتیاز')} ۵ {name}"
    label.follow_direction()  # English again: a left-to-right line, the name in it as typed
    label._label.render(real=True)
    assert drawn[id(label._label)] == f"{name} 5 {read_as_drawn('امتیاز')}"


def test_a_name_with_a_number_of_its_own_is_drawn_as_typed_through_the_persian_set_up(
        ui: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Ben 2" typed on the Persian keys: its seat's row, its choice of who plays first and "Ben 2 plays first"
    draw it as typed, never "۲ Ben" (Ben and a number of the app's)."""
    drawn = record_drawn(monkeypatch)
    setup = persian_set_up(ui)
    for name in ("Ben 2", "Cy"):
        type_on_screen(ui, name)
        ui.tap(keys(ui)[ENTER])
    ui.tap(keys(ui)[HIDE])
    ui.step(2)
    assert misdrawn(ui, drawn) == []
    for _step in ("buzzers", "first"):
        ui.tap(setup.ids.next)
        ui.step(2)
    ui.tap(list(reversed(setup.ids.first_seats.children))[0])
    ui.step(2)
    assert misdrawn(ui, drawn) == []
    ui.tap(setup.ids.next)  # the table's step: "Ben 2 plays first"
    ui.step(2)
    assert setup.first_line.startswith("Ben 2") and misdrawn(ui, drawn) == []


def misdrawn(ui: Any, drawn: dict[int, str]) -> list[str]:
    """What the labels on screen holding Ben 2 draw where it is not drawn as typed ("۲ Ben")."""
    shown = [drawn.get(id(label._label), "") for label in ui.find_all(Label)
             if "Ben 2" in label.text and label.opacity and label.width > 1]
    assert shown
    return [words for words in shown if "Ben 2" not in words]


def centre_x(widget: Any) -> float:
    return float(widget.to_window(*widget.center)[0])


def english_labels_only(root: Any, names: set[str]) -> list[str]:
    """The texts under ``root`` that still hold Persian once the names are taken out, and the labels still
    drawn right to left (their lines ordered though they hold no Persian, or aligned to the other side)."""
    left: list[str] = []
    for label in root.walk(restrict=True):
        if not isinstance(label, Label) or not label.text:
            continue
        text = label.text
        if text in {name[0] for name in names}:
            continue  # a seat's avatar: its name's first letter
        for name in names:
            text = text.replace(name, "")
        if ARABIC_SCRIPT.search(text):
            left.append(text)
        if isinstance(label._label, Ordered) and not ARABIC_SCRIPT.search(label.text):
            left.append(f"ordered: {label.text}")
    return left


def switch_in_settings(ui: Any, code: str, back_to: str) -> None:
    ui.app.show("settings")
    ui.until(lambda: not ui.app.root.transition.is_active)
    ui.tap(ui.app.screen("settings").ids.languages.buttons[code])
    ui.step(2)
    assert tr.language == code
    ui.app.show(back_to)
    ui.until(lambda: not ui.app.root.transition.is_active)
    ui.step(2)


def test_persian_by_touch_a_name_on_its_keyboard_a_challenge_and_english_again(ui: Any) -> None:
    factory = timed_factory()
    config = ui.config(buzzers=BuzzerConfig(backend="gpio", led_pins=LEDS), ui=UiConfig(keyboard="screen"))
    app = ui.start(size=(800, 480), config=config, pin_factory=factory)
    app.play_sound = lambda _name: None
    settings = app.screen("settings")
    switch_in_settings(ui, "fa", "home")
    home = app.screen("home")
    assert home.ids.new_game.text == fa("New game") != "New game"
    assert settings.ids.scroll.bar_pos_y == "left"  # a list's bar where its lines end, clear of their words

    # Set-up: علی‌رضا typed on the Persian keys (with the half-space), Ben and Cy on the Latin layer.
    ui.tap(home.ids.new_game)
    setup = app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    ui.tap(setup.ids.new_name)
    ui.step(2)
    shown = keys(ui)
    assert SHIFT not in shown and ZWNJ in shown  # Persian has no capitals: the half-space is where Shift was
    assert centre_x(shown[BACKSPACE]) < centre_x(shown["ظ"]) < centre_x(shown[ZWNJ])  # the keys that act flip
    assert centre_x(shown["ض"]) < centre_x(shown["چ"])  # the letters keep the standard layout's places
    assert centre_x(within(setup, Header).ids.back) > app.root.width / 2  # Back is at the right
    for name in ("علی\u200cرضا", "Ben", "Cy"):
        type_on_screen(ui, name)
        ui.tap(keys(ui)[ENTER])
    assert setup.draft.names == ["علی\u200cرضا", "Ben", "Cy"]
    ui.tap(keys(ui)[HIDE])
    for _step in ("buzzers", "first"):
        ui.tap(setup.ids.next)
        ui.step(2)
    ui.tap(list(reversed(setup.ids.first_seats.children))[0])
    for _step in ("table", "start"):
        ui.tap(setup.ids.next)
        ui.step(2)
    assert app.root.current == "table"

    # A challenge: Ben says "not that number!" to علی‌رضا's chili 1, which was a 4.
    table = Table.__new__(Table)
    table.ui, table.factory, table.app, table.sounds = ui, factory, app, []
    table.screen = app.screen("table")
    table.view = table.screen.view
    panels = {panel.seat.name: panel for panel in ui.find_all(SeatPanel)}
    persian_panel = panels["علی\u200cرضا"]
    assert centre_x(persian_panel) > app.root.width / 2  # the seats' column is at the right
    table.declare("chili", 1)
    table.buzz((1, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    challenge = table.sheet()
    assert "Ben" in challenge.ids.title.text and "علی" in challenge.ids.title.text
    assert isinstance(challenge.ids.title._label, Ordered)
    table.tap(challenge.ids.not_number)
    table.tap(within(table.sheet(), NumberButton, spice="chili", number=4))
    result = table.sheet()
    assert fa("the number was a lie.") in result.ids.title.text
    table.tap(result.ids.ok)
    assert table.screen.sheet_name == "" and table.view.seats[1].won > 0
    score = persian_panel.ids.score
    assert score.text.lstrip("-−").isdigit() and isinstance(score._label, Ordered)  # kept as a number,
    assert set(score._label._order(score.text)) <= set(PERSIAN_DIGITS + "-−")  # drawn in Persian digits

    # English again: nothing mirrored, nothing Persian but the name.
    switch_in_settings(ui, "en", "table")
    assert centre_x(persian_panel) < app.root.width / 2
    assert english_labels_only(table.screen, {"علی\u200cرضا"}) == []
    assert english_labels_only(settings, {"فارسی"}) == []  # its own name on its button
    app.show("settings")
    ui.until(lambda: not app.root.transition.is_active)
    assert centre_x(within(settings, Header).ids.back) < app.root.width / 2
    assert settings.ids.scroll.bar_pos_y == "right"
