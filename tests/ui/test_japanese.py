"""A Japanese table by touch: Japanese chosen in Settings, names typed on the kana keyboard (a dakuten, katakana,
a small kana, a visitor's Latin name), a game started and a challenge played, every word from the catalogue.

Expected sentences are built from the Japanese catalogue, never copied from the English; names as typed.
"""

from __future__ import annotations

import gettext
import time

import pytest
from kivy.core.window import Window
from kivy.metrics import dp

from buzzers_fixtures import timed_factory
from companion.config import BuzzerConfig, UiConfig
from companion.ui.catalogue import LOCALE
from companion.ui.i18n import tr
from companion.ui.keyboard import ENTER, KANA, LATIN, LETTERS, MORE, SMALL, VOICED
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.forms import Header
from companion.ui.widgets.keyboard import KeyboardKey
from keyboard_helpers import keys, type_on_screen
from table_helpers import BUTTONS, LEDS, within

catalogue = gettext.translation("companion", LOCALE, languages=["ja"])
j = catalogue.gettext
GAKU, SAKURA, BEN = 0, 1, 2


def key_boxes_fit(ui) -> None:  # type: ignore[no-untyped-def]
    """Every key showing is a finger's size and on the glass."""
    for key in ui.find_all(KeyboardKey):
        x, y = key.to_window(key.x, key.y)
        assert key.width >= dp(48) and key.height >= dp(48), key.key
        assert 0 <= x and x + key.width <= Window.width and 0 <= y, key.key


def press(ui, factory, seat: int) -> None:  # type: ignore[no-untyped-def]
    """A slap on a seat's buzzer (gpiozero's MockFactory): down past the confirmation time, then up."""
    base = factory.ticks()
    factory.pin(BUTTONS[seat]).press(at=base + 0.002)
    time.sleep(0.03)
    factory.pin(BUTTONS[seat]).release(at=base + 0.06)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_a_japanese_table_types_kana_names_and_plays_a_challenge_by_touch(ui, size) -> None:  # type: ignore
    factory = timed_factory()
    app = ui.start(size=size, pin_factory=factory, config=ui.config(
        buzzers=BuzzerConfig(backend="gpio", led_pins=LEDS), ui=UiConfig(keyboard="screen")))
    key_events: list[object] = []
    Window.bind(on_key_down=lambda *args: key_events.append(args))

    ui.tap(app.screen("home").ids.settings)
    ui.until(lambda: not app.root.transition.is_active)
    ui.tap(app.screen("settings").ids.languages.buttons["ja"])
    assert tr.language == "ja" and app.prefs.ui.language == "ja"
    ui.tap(within(app.screen("settings"), Header).ids.back)
    ui.until(lambda: not app.root.transition.is_active)

    home = app.screen("home")
    ui.tap(home.ids.new_game)
    setup = app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    field = setup.ids.new_name
    ui.tap(field)
    key_boxes_fit(ui)
    assert keys(ui)[ENTER].text == j("Add") and keys(ui)[LATIN].text == "ABC" and keys(ui)[KANA].text == "カナ"
    assert keys(ui)[MORE].text == "まみむ" and keys(ui)[VOICED].font_name == "NotoSansJP"

    ui.tap(keys(ui)["か"])  # が: か, then the dakuten key
    ui.tap(keys(ui)[VOICED])
    ui.tap(keys(ui)["く"])
    assert field.text == "がく"
    ui.tap(keys(ui)[ENTER])

    ui.tap(keys(ui)["は"])  # は, ば, ぱ, and back to は: the key goes round
    for shown in ("ば", "ぱ", "は"):
        ui.tap(keys(ui)[VOICED])
        assert field.text == shown
    ui.tap(keys(ui)["backspace"])
    assert field.text == ""
    type_on_screen(ui, "さくら")  # ら is on the second page
    assert field.text == "さくら" and LETTERS in keys(ui) and "ま" in keys(ui)
    key_boxes_fit(ui)
    ui.tap(keys(ui)[ENTER])

    ui.tap(keys(ui)[KANA])  # katakana for a foreign name: ジョー
    assert keys(ui)[KANA].text == "かな" and keys(ui)["よ"].text == "ヨ"
    ui.tap(keys(ui)[LETTERS])
    for action in ("し", VOICED):
        ui.tap(keys(ui)[action])
    ui.tap(keys(ui)[MORE])
    for action in ("よ", SMALL, "ー"):
        ui.tap(keys(ui)[action])
    assert field.text == "ジョー"
    for _ in "ジョー":
        ui.tap(keys(ui)["backspace"])

    ui.tap(keys(ui)[LATIN])  # a visitor's name on the Latin keys, katakana still on for the kana: and back
    type_on_screen(ui, "Ben")
    assert field.text == "Ben" and keys(ui)[LETTERS].text == "あいう"
    ui.tap(keys(ui)[ENTER])
    ui.tap(keys(ui)[LETTERS])
    assert keys(ui)["あ"].text == "ア"
    ui.tap(keys(ui)[KANA])
    assert setup.draft.names == ["がく", "さくら", "Ben"]
    ui.tap(keys(ui)["hide"])

    for step in ("buzzers", "first"):
        ui.tap(setup.ids.next)
        ui.step(2)
        assert setup.step == step
    ui.tap(list(reversed(setup.ids.first_seats.children))[GAKU])
    ui.tap(setup.ids.next)
    ui.step(2)
    assert setup.first_line == j("{name} plays first").format(name="がく")
    ui.tap(setup.ids.next)
    assert app.root.current == "table"
    ui.until(lambda: not app.root.transition.is_active)

    screen = app.screen("table")
    hint = j("1, 2 or 3 of any spice, or pass")
    assert screen.ids.header.text in (hint, j("{name} to play: {hint}").format(name="がく", hint=hint))  # the
    # portrait table says whose turn it is on the seat's panel
    pad = screen.ids.pad
    ui.tap(within(pad, SpiceButton, spice="chili"))
    assert within(pad, SpiceButton, spice="chili").text == j("Chili") == "唐辛子"
    assert sorted(button.text for button in pad.ids.spices.children) == sorted(
        j(word) for word in ("Chili", "Wasabi", "Pepper"))
    ui.tap(within(pad, NumberButton, number=2))
    press(ui, factory, BEN)
    ui.until(lambda: screen.sheet_name == "challenge")
    sheet = screen._sheets["challenge"]
    assert sheet.ids.title.text.startswith("Benが")  # "{challenger}が{player}の{claim}にチャレンジ"
    ui.tap(sheet.ids.not_number)
    assert screen.sheet_name == "reveal"
    ui.tap(within(screen._sheets["reveal"], NumberButton, number=2, spice="chili"))
    assert screen.sheet_name == "result"
    result = screen._sheets["result"]
    assert result.ids.title.text == j("{claim}: {verdict}").format(
        claim=j("Chili") + " 2", verdict=j("the number was true.")) == "唐辛子 2：数字は本当だった。"
    clauses = [catalogue.ngettext("{winner} wins {n} card", "{winner} wins {n} cards", 1).format(winner="がく", n=1),
               j("{loser} draws {n} and starts the next stack").format(loser="Ben", n=2)]
    assert result.ids.detail.text == j("{clauses}.").format(clauses=j("; ").join(clauses))
    ui.tap(result.ids.ok)
    assert screen.sheet_name == "" and [seat.hand for seat in screen.view.seats] == [5, 6, 8]
    assert key_events == []
