"""Settings changed on screen outlive a restart and never touch the config file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.config import ConfigError, UiConfig
from companion.ui.prefs import Prefs, default_prefs_path


def test_changes_are_kept_and_layered_over_the_config(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    prefs = Prefs(path, UiConfig(language="en", sounds=True, face_seats=False))
    assert prefs.ui == UiConfig(language="en", sounds=True, face_seats=False)
    prefs.change(language="fr", face_seats=True)
    again = Prefs(path, UiConfig(language="en", sounds=False))
    assert again.ui == UiConfig(language="fr", sounds=False, face_seats=True)
    assert again.notice == ""


def test_a_bad_value_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    prefs = Prefs(tmp_path / "ui.json", UiConfig())
    with pytest.raises(ConfigError, match="language must be one of en, fr"):
        prefs.change(language="de")
    assert prefs.ui == UiConfig()
    assert not (tmp_path / "ui.json").exists()


def test_a_damaged_file_is_moved_aside_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    path.write_text("{not json", encoding="utf-8")
    prefs = Prefs(path, UiConfig(sounds=False))
    assert prefs.ui == UiConfig(sounds=False)
    assert "could not be read" in prefs.notice and "ui.json.damaged" in prefs.notice
    assert (tmp_path / "ui.json.damaged").read_text(encoding="utf-8") == "{not json"


def test_values_of_the_wrong_kind_in_the_file_fall_back_to_the_config(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    path.write_text(json.dumps({"ui": {"language": "xx", "sounds": "yes", "face_seats": True, "colour": 3}}))
    assert Prefs(path, UiConfig()).ui == UiConfig(face_seats=True)


def test_the_file_lives_in_the_user_data_folder(own_user_folders: Path) -> None:
    assert default_prefs_path() == own_user_folders / "data" / "spicy-companion" / "ui.json"
