"""Settings changed on screen outlive a restart and never touch the config file."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.languages import CODES
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
    with pytest.raises(ConfigError, match=f"language must be one of {', '.join(CODES)}, not 'tlh'"):
        prefs.change(language="tlh")
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


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[" * 1000 + "]" * 1000, "nested too deeply"),  # raised RecursionError at every start
        ('{"ui": {"language": "fr"}, "pad": "' + "x" * 1_000_001 + '"}', "larger than 1 MB"),
        (b"\xff\xfe{}", "can't decode"),
    ],
    ids=["deep", "huge", "not-utf8"],
)
def test_a_file_that_cannot_be_read_is_moved_aside_and_the_config_rules(
    tmp_path: Path, content: str | bytes, problem: str
) -> None:
    path = tmp_path / "ui.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    prefs = Prefs(path, UiConfig(sounds=False))
    assert prefs.ui == UiConfig(sounds=False)
    assert problem in str(prefs.notice) and "ui.json.damaged" in str(prefs.notice)
    assert not path.exists() and (tmp_path / "ui.json.damaged").stat().st_size == len(content)
    prefs.change(face_seats=True)  # a fresh file from here on
    assert Prefs(path, UiConfig()).ui.face_seats


def test_a_fifo_in_place_of_the_settings_file_is_moved_aside_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "ui.json"
    os.mkfifo(path)
    made: list[Prefs] = []
    start = threading.Thread(target=lambda: made.append(Prefs(path, UiConfig(sounds=False))), daemon=True)
    start.start()
    start.join(10)  # a start that waits for a writer never comes back
    assert made, "reading the settings waited on the FIFO"
    assert made[0].ui == UiConfig(sounds=False) and "is a named pipe (FIFO), not a file" in made[0].notice
    assert stat.S_ISFIFO((tmp_path / "ui.json.damaged").stat().st_mode) and not path.exists()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: a real file system that fills up."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"a tmpfs needs root: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_keeps_the_old_file_and_leaves_no_empty_new_one(small_disk: Path) -> None:
    path = small_disk / "ui.json"
    prefs = Prefs(path, UiConfig())
    prefs.change(language="fr")
    kept = path.read_bytes()
    with (small_disk / "filler").open("wb", buffering=0) as filler, contextlib.suppress(OSError):
        while True:  # the disk fills to its last block
            filler.write(b"x" * 1024)
    with pytest.raises(OSError) as raised:
        prefs.change(face_seats=True)
    assert raised.value.errno == errno.ENOSPC
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "ui.json"]
    assert path.read_bytes() == kept and Prefs(path, UiConfig()).ui == UiConfig(language="fr")
