"""What the table changes on screen, kept across restarts in a small JSON file.

The config file is the owner's (written by hand, maybe read-only on a kiosk), so
a tap on the settings screen never rewrites it: the choices made on screen go to
``ui.json`` in the user data folder and are layered over the config's ``[ui]``.
A game's seating is saved with the game itself (``companion.table.seating``).
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
from companion.files import SETTINGS, read_file


MAX_DEPTH = 32
"""Settings are a few levels deep; anything deeper is not a file this app wrote."""


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
            data = json.loads(read_file(self.path, SETTINGS).decode("utf-8"))
            if _depth(data) > MAX_DEPTH:
                raise RecursionError  # Python 3.13's parser reads 1,000 levels that 3.11's refuses: one rule
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        except FileNotFoundError:
            return {}
        except RecursionError:
            return self._move_aside("it is nested too deeply")
        except (OSError, ValueError) as exc:
            return self._move_aside(str(exc))

    def _move_aside(self, problem: str) -> dict[str, Any]:
        """Keep the unreadable file beside, under another name, and start again from the config's settings."""
        moved = self.path.with_name(self.path.name + ".damaged")
        try:
            self.path.replace(moved)
        except OSError:
            moved = self.path
        self.notice = Reason(
            "the saved settings could not be read ({problem}); they were kept in {file}",
            problem=problem, file=moved.name,
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
        """Write a new file, flush it to the disk and rename it over the old one, so a power cut leaves one
        or the other; a full disk leaves the old one and no half-written new one, and raises OSError."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            with temporary.open("w", encoding="utf-8") as file:
                file.write(json.dumps(self._data, indent=1))
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError:
            temporary.unlink(missing_ok=True)
            raise
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself reaches the disk
        finally:
            os.close(folder)


def _depth(data: object) -> int:
    """How deeply lists and objects nest, walked without recursion (a deep file must not exhaust the stack)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, dict):
            stack.extend((value, depth + 1) for value in node.values())
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
    return deepest
