"""The real ``spicy-companion`` draws its first frame with what the home screen needs, and the rest after it.

A fresh interpreter runs the command as the console script does, on the
test's virtual display, and prints the modules it has imported when its first
frame flips (the moment it says READY, ``notify.ready``) and again once its
start-up work is done (``SpicyApp.warmed``). No timing is asserted: the
figures are ``benchmarks/ui.py``'s.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import companion.ui.screens

CHILD = """
import json, os, sys
from kivy.app import App
import companion.pi.notify as notify

def modules(moment):
    print(moment, json.dumps(sorted(sys.modules)), flush=True)

def ready():
    modules("drawn")
    App.get_running_app().bind(warmed=lambda *_: (modules("warmed"), os._exit(0)))

notify.ready = ready
from companion.cli import main
main(sys.argv[1:])
"""

AFTER_THE_FIRST_FRAME = [
    "companion.ui.widgets.keyboard", "companion.ui.keyboard", "companion.ui.widgets.toast",
    "companion.store", "companion.buzzers", "companion.table.session", "companion.rules", "sqlite_utils", "gpiozero",
    "companion.ui.screens.table", "companion.ui.screens.end", "companion.ui.screens.setup", "kivy.uix.textinput",
    "importlib.metadata", "kivy.core.audio", "companion.phones.address", "companion.pi.takehome",
    "kivy.uix.scrollview", "kivy.uix.recycleview", "companion.ui.widgets.left_game",
]  # fmt: skip
"""Modules the home screen does not need to draw: the on-screen keyboard, the toast, the store, the buzzers,
the other screens, importlib.metadata (the GPIO libraries' versions, logged as the buzzers open), Kivy's
audio (the sounds load on the frame after: the nine WAVs and SDL's mixer), and the phone page's address and
requests (with its setting on only), Kivy's scroll views (home has no list), and the question home asks over an unfinished game."""


BUILD_ONE = """
import os, sys
from kivy.app import App
import companion.pi.notify as notify

def ready():
    App.get_running_app().screen(os.environ["SCREEN"])
    print("built", flush=True)
    os._exit(0)

notify.ready = ready
from companion.cli import main
main(sys.argv[1:])
"""
MEASURED = """
import json, os, sys
from kivy.app import App
from kivy.core.text.text_sdl2 import LabelSDL2
import companion.pi.notify as notify

measured = set()
get_extents = LabelSDL2.get_extents

def measuring(label, text):
    measured.add((label.options["font_name_r"], label.options["font_size"]))
    return get_extents(label, text)

def ready():
    labels = [w._label for w in App.get_running_app().root.walk() if hasattr(w, "_label") and w.text]
    drawn = {(label.options["font_name_r"], label.options["font_size"]) for label in labels}
    print("fonts", json.dumps({"measured": sorted(measured), "drawn": sorted(drawn)}), flush=True)
    os._exit(0)

LabelSDL2.get_extents = measuring
notify.ready = ready
from companion.cli import main
main(sys.argv[1:])
"""
SCREENS = Path(companion.ui.screens.__file__).parent
TYPED_IN = sorted(kv.stem for kv in SCREENS.glob("*.kv") if re.search(r"^\s*(TextField|FieldButton):", kv.read_text(), re.M))
"""Screens with a text field: the widgets package no longer loads the keyboard's widgets, so each of these
modules imports them for its kv."""


def run_app(tmp_path: Path, code: str, language: str = "en", **env: str) -> str:
    """``spicy-companion`` in a fresh interpreter, ``code`` patched in before it starts; its stdout."""
    config = tmp_path / "config.toml"
    config.write_text(f"[store]\ndb = '{tmp_path / 'games.db'}'\n[buzzers]\nbackend = 'keyboard'\n"
                      f"[display]\nwidth = 800\nheight = 480\n[ui]\nlanguage = '{language}'\n")  # fmt: skip
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "KIVY_HOME": str(tmp_path / "kivy"), **env}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-c", code, "--config", str(config)],
        capture_output=True, text=True, check=True, timeout=120, env=env,
    ).stdout  # fmt: skip


def imported_at_start(tmp_path: Path) -> dict[str, set[str]]:
    """The modules loaded when the first frame is drawn, and once start-up's work after it is done."""
    out = run_app(tmp_path, CHILD)
    moments = dict(line.split(" ", 1) for line in out.splitlines() if line.startswith(("drawn ", "warmed ")))
    return {moment: set(json.loads(names)) for moment, names in moments.items()}


def loaded(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_the_first_frame_is_drawn_before_the_keyboard_the_toast_the_store_and_other_screens_load(
    tmp_path: Path,
) -> None:
    modules = imported_at_start(tmp_path)
    drawn = {package: loaded(modules["drawn"], package) for package in AFTER_THE_FIRST_FRAME}
    assert {package: names for package, names in drawn.items() if names} == {}
    assert "companion.ui.screens.home" in modules["drawn"]
    warmed = modules["warmed"]  # the check sees them once they are loaded: made ahead, before any tap
    assert {"companion.ui.widgets.keyboard", "companion.ui.widgets.toast", "companion.store", "kivy.core.audio"} <= warmed
    assert {"companion.ui.screens.table", "companion.ui.screens.end", "companion.ui.widgets.left_game"} <= warmed


def test_the_first_frame_in_japanese_opens_its_font_only_at_the_sizes_it_draws(tmp_path: Path) -> None:
    """Each size of a face is opened once and kept (a Japanese one costs 2.5 ms and 0.6 MiB): a button measured
    at Kivy's first 100 px, or a label drawn while its layout was still giving out sizes, opened sizes no frame
    shows."""
    out = run_app(tmp_path, MEASURED, language="ja")
    fonts = json.loads(next(line for line in out.splitlines() if line.startswith("fonts ")).split(" ", 1)[1])
    measured, drawn = ({tuple(font) for font in fonts[kind]} for kind in ("measured", "drawn"))
    assert any("NotoSansJP" in name for name, _size in drawn)
    assert measured - drawn == set()


@pytest.mark.parametrize("name", TYPED_IN)
def test_a_screen_with_a_text_field_builds_before_the_keyboard_is_made(tmp_path: Path, name: str) -> None:
    """Built alone as the first frame flips, before start-up has imported the keyboard's widgets."""
    assert run_app(tmp_path, BUILD_ONE, SCREEN=name).splitlines()[-1] == "built"


def test_the_screens_with_a_text_field_are_found() -> None:
    assert {"setup", "players"} <= set(TYPED_IN)
