"""The [display] and [ui] sections: what the screen is told at start, refused by name when wrong."""

from pathlib import Path

import pytest

from companion.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_display_and_ui_sections_are_read(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, "[display]\nwidth = 720\nheight = 1280\nrotation = 90\n[ui]\nlanguage = 'fr'\nsounds = false\n")
    )
    assert (config.display.width, config.display.height, config.display.rotation) == (720, 1280, 90)
    assert config.ui.language == "fr" and config.ui.sounds is False and config.ui.face_seats is False


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[display]\nrotation = 45\n", "rotation must be 0, 90, 180 or 270, not 45"),
        ("[display]\nwidth = 10\n", "width must be a whole number of pixels from 320 to 7680, not 10"),
        ("[ui]\nlanguage = 'de'\n", "language must be one of en, fr, not 'de'"),
        ("[ui]\nsounds = 'yes'\n", "sounds must be bool, not str"),
    ],
)
def test_bad_screen_settings_are_refused_by_name(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        load_config(write(tmp_path, text))
