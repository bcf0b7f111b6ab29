"""Which keyboard the table types with: the ``[ui] keyboard`` rule and the look under /sys for a keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import ConfigError, UiConfig
from companion.languages import CODES, language as language_row
from companion.ui.keyboard import (
    ACCENTS, KANA, LATIN, LETTERS, MORE, SHIFT, SMALL, SYMBOLS, VOICED, katakana, physical_keyboard, rows,
    screen_keyboard_wanted, small, switches, voiced,
)

KEYBOARD_KEYS = "10000 0 0 0 0 0 0 0 ffefffdf 3fcfffff ffffffff fffffffe"  # a USB keyboard, highest word first
POWER_BUTTON_KEYS = "10000000000000 0"  # KEY_POWER only
GPIO_KEYS = "1e0000 0"  # a few KEY_F keys from a gpio-keys overlay


def devices(tmp_path: Path, *keys: str) -> Path:
    """A /sys with one input event device per key bitmap, as the kernel writes them."""
    for number, bitmap in enumerate(keys):
        capabilities = tmp_path / "class" / "input" / f"event{number}" / "device" / "capabilities"
        capabilities.mkdir(parents=True)
        (capabilities / "key").write_text(bitmap + "\n")
    return tmp_path


def test_a_keyboard_is_a_device_with_the_letter_keys(tmp_path: Path) -> None:
    assert physical_keyboard(devices(tmp_path / "usb", POWER_BUTTON_KEYS, KEYBOARD_KEYS))
    assert not physical_keyboard(devices(tmp_path / "pi", POWER_BUTTON_KEYS, GPIO_KEYS, "0"))
    assert not physical_keyboard(tmp_path / "nothing-at-all")


@pytest.mark.parametrize(
    ("setting", "fullscreen", "plugged", "screen"),
    [
        ("auto", False, True, False),  # a desktop with its keyboard
        ("auto", False, False, True),  # a window on a Pi with only its touchscreen
        ("auto", True, True, True),  # the kiosk, a keyboard plugged in for upkeep
        ("screen", False, True, True),
        ("physical", True, False, False),
    ],
)
def test_the_keyboard_setting(tmp_path: Path, setting: str, fullscreen: bool, plugged: bool, screen: bool) -> None:
    sys_dir = devices(tmp_path, KEYBOARD_KEYS if plugged else POWER_BUTTON_KEYS)
    assert screen_keyboard_wanted(setting, fullscreen, sys_dir) is screen


def test_an_unknown_keyboard_setting_is_refused_with_the_choices() -> None:
    with pytest.raises(ConfigError, match="keyboard must be auto or screen or physical, not 'onscreen'"):
        UiConfig(keyboard="onscreen")


@pytest.mark.parametrize("language", CODES)
def test_every_layer_has_the_letters_names_need_and_rows_of_one_key_size(language: str) -> None:
    """The language's own letters, and in every language the Latin ones with their accents (a visitor's
    name), each layer reached from the letters by its keys; a row is 10 to 12 keys wide."""
    reached, todo = {LETTERS}, [LETTERS]
    while todo:
        for other in switches(todo.pop(), language):
            if other not in reached:
                reached.add(other)
                todo.append(other)
    row = language_row(language)
    assert reached == ({LETTERS, ACCENTS, SYMBOLS} | (set() if row.latin else {LATIN})
                       | ({MORE} if any(row.more_letters) else set()))
    typed = {key.action for layer in reached for row in rows(layer, language) for key in row}
    own = "".join(row.letters + row.more_letters)
    for letter in own + "abcdefghijklmnopqrstuvwxyzéèêëàâäçîïôöûüùÿœæñß0123456789-'":
        assert letter in typed
    for layer in reached:
        assert all(10 <= sum(key.width for key in row) <= 12 for row in rows(layer, language))


def test_russian_types_on_jcuken_with_yo_and_reaches_latin_letters() -> None:
    assert "".join(key.action for key in rows(LETTERS, "ru")[0]) == "йцукенгшщзхъ"
    assert [len(row) for row in rows(LETTERS, "ru")[:2]] == [12, 12] and "ё" in typed_keys(LETTERS, "ru")
    assert LATIN in typed_keys(LETTERS, "ru") and LATIN not in typed_keys(LETTERS, "de")
    assert "".join(key.action for key in rows(LATIN, "ru")[0]) == "qwertyuiop"


def typed_keys(layer: str, language: str) -> set[str]:
    return {key.action for row in rows(layer, language) for key in row}


def test_japanese_types_the_50_sound_grid_on_two_pages_with_the_kana_keys() -> None:
    """Every kana a name needs, in gojūon order, あ to ほ on one page and ま to ん with the small kana on the
    other; the kana key where shift is, the ゛゜ and 小 keys on each page; katakana and every voiced and small
    form are reached from the hiragana by those keys."""
    grid = "".join(key.action for layer in (LETTERS, MORE) for row in rows(layer, "ja")[:3] for key in row
                   if len(key.action) == 1)
    assert grid.startswith("あいうえおかきくけこさしすせそたちつてと") and "なにぬねのはひふへほまみむめもらりるれろやゆよわをん" in grid
    for layer in (LETTERS, MORE):
        assert {KANA, VOICED, SMALL} <= typed_keys(layer, "ja") and SHIFT not in typed_keys(layer, "ja")
        assert MORE in typed_keys(LETTERS, "ja") and LETTERS in typed_keys(MORE, "ja") and LATIN in typed_keys(layer, "ja")
    hiragana = [chr(point) for point in range(0x3041, 0x3095) if chr(point) not in "ゐゑ"]  # ぁ to ゔ, but the
    # two kana that left the language in 1946
    reached = set(grid) | {katakana(kana) for kana in grid}
    for _ in range(2):
        reached |= {voiced(kana) for kana in reached} | {small(kana) for kana in reached}
    assert set(hiragana) | {katakana(kana) for kana in hiragana} <= reached
    assert [voiced(kana) for kana in "かがはばぱウつ"] == list("がかばぱはヴづ")
    assert [small(kana) for kana in "やゃツッかケ"] == list("ゃやッツゕヶ")
