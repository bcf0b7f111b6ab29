"""What the journal shows at every start: which version runs, with which settings.

The start's line comes before the first frame (it is what the journal has when
the window cannot open), so it names only what is already imported; the GPIO
libraries' versions, read through ``importlib.metadata`` (some 16 ms of CPU to
import on its own), follow when the buzzers open, after the first frame.

Under systemd the app's stderr goes to the journal. Kivy, once imported, sends
every Python logger's records to stderr, so this module only logs; a
``Category: text`` message shows as ``[Category] text`` in Kivy's format.
"""

from __future__ import annotations

import logging
import platform
from dataclasses import fields
from pathlib import Path

from companion import __version__
from companion.config import Config, default_config_path, shown

log = logging.getLogger("companion")


def settings_lines(config: Config) -> list[str]:
    """One line a section, every key with the value in use, as the config file would spell it.

    >>> settings_lines(Config())[3]
    "[ui] language = 'en', sounds = true, speech = false, speech_volume = 100, face_seats = false, keyboard = 'auto', phones = false"
    """
    lines = []
    for section in fields(config):
        values = getattr(config, section.name)
        keys = ", ".join(f"{key.name} = {shown(getattr(values, key.name))}" for key in fields(values))
        lines.append(f"[{section.name}] {keys}")
    return lines


def package_version(package: str) -> str:
    """An installed distribution's version, or "not installed"."""
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def log_buzzers(kind: str) -> None:
    """The buzzers in use, with the versions of the GPIO libraries beside them."""
    log.info("Buzzers: %s (gpiozero %s, lgpio %s)", kind, package_version("gpiozero"), package_version("lgpio"))


def log_start(config: Config, path: Path | None = None) -> None:
    """Log the version and every setting in use; the app start-up calls this once, Kivy's settings made."""
    from kivy import __version__ as kivy_version

    log.setLevel(logging.INFO)
    log.info(
        "Companion: Spicy Companion %s (Python %s, Kivy %s)", __version__, platform.python_version(), kivy_version
    )
    path = path or default_config_path()
    source = f"from {path}" if path.exists() else f"defaults ({path} does not exist)"
    log.info("Settings: %s", source)
    for line in settings_lines(config):
        log.info("Settings: %s", line)
