"""What the table changes on screen, kept across restarts in a small JSON file.

The config file is the owner's (written by hand, maybe read-only on a kiosk), so
a tap on the settings screen never rewrites it: the choices made on screen go to
``ui.json`` in the user data folder and are layered over the config's ``[ui]``.
A game's seating is saved with the game itself (``companion.seating``).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import platformdirs

from companion.config import APP_NAME, ConfigError, UiConfig
from companion.errors import Reason


def default_prefs_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "ui.json"


class Prefs:
    """The settings in force: the config's ``[ui]`` overlaid with the file."""

    def __init__(self, path: Path, base: UiConfig) -> None:
        self.path = path
        self.notice: str = ""
        """A line for the screen when the file could not be used (it is moved aside, nothing is lost)."""
        self._data = self._read()
        self.ui = self._overlay(base)

    def change(self, **changes: Any) -> UiConfig:
        """Apply and keep a change made on screen; a bad value raises ConfigError and changes nothing.

        Only the keys changed on screen are kept, so the config still rules the rest.
        """
        ui = replace(self.ui, **changes)
        saved = self._data.get("ui")
        self._data["ui"] = {**(saved if isinstance(saved, dict) else {}), **changes}
        self._write()
        self.ui = ui
        return ui

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            moved = self.path.with_name(self.path.name + ".damaged")
            try:
                self.path.replace(moved)
            except OSError:
                moved = self.path
            self.notice = Reason(
                "the saved settings could not be read ({problem}); they were kept in {file}",
                problem=str(exc), file=moved.name,
            )
            return {}

    def _overlay(self, base: UiConfig) -> UiConfig:
        ui = base
        saved = self._data.get("ui")
        for key, value in (saved.items() if isinstance(saved, dict) else ()):
            default = getattr(base, key, None)
            if default is None or type(value) is not type(default):
                continue
            try:
                ui = replace(ui, **{key: value})
            except ConfigError:
                continue
        return ui

    def _write(self) -> None:
        """Write a new file and rename it over the old one, so a power cut leaves one or the other."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        temporary.write_text(json.dumps(self._data, indent=1), encoding="utf-8")
        os.replace(temporary, self.path)
