"""The start of every run in the journal: the version and every setting in use."""

from __future__ import annotations

import logging
from pathlib import Path

import kivy  # the app has set Kivy up by the time it logs its start
import pytest

from companion import __version__
from companion.config import load_config
from companion.pi.logs import log_buzzers, log_start, package_version


def test_start_logs_the_version_and_the_settings_from_the_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[display]\nrotation = 270\n[buzzers]\nbackend = 'serial'\n", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="companion"):
        log_start(load_config(path), path)
    lines = caplog.messages
    assert lines[0].startswith(f"Companion: Spicy Companion {__version__} (Python ")
    assert lines[0].endswith(f", Kivy {kivy.__version__})")
    assert lines[1] == f"Settings: from {path}"
    assert "[display] width = 800, height = 480, fullscreen = false, rotation = 270," in lines[4]
    assert lines[3].startswith("Settings: [buzzers] backend = 'serial', ")
    assert [line.split("]")[0] for line in lines[2:]] == [
        "Settings: [store",
        "Settings: [buzzers",
        "Settings: [display",
        "Settings: [ui",
        "Settings: [bgstats",
        "Settings: [league",
    ]


def test_start_without_a_file_says_the_defaults_are_in_use(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="companion"):
        log_start(load_config(tmp_path / "none.toml"), tmp_path / "none.toml")
    assert f"Settings: defaults ({tmp_path / 'none.toml'} does not exist)" in caplog.messages


def test_the_buzzers_line_names_the_backend_and_the_gpio_libraries_versions(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="companion"):
        log_buzzers("GPIO")
    gpiozero = package_version("gpiozero")
    assert gpiozero != "not installed"
    assert caplog.messages == [f"Buzzers: GPIO (gpiozero {gpiozero}, lgpio {package_version('lgpio')})"]
    assert package_version("no-such-distribution-spicy") == "not installed"
