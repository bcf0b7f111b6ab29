"""configure_kivy: the Kivy settings a kiosk needs, checked in a fresh Kivy with its own KIVY_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import json, os
from companion.config import DisplayConfig
from companion.pi.display import configure_kivy
configure_kivy(DisplayConfig(**json.loads(os.environ["DISPLAY_SETTINGS"])))
from kivy.config import Config
from kivy.clock import Clock
print(json.dumps({
    "clock_wakes": hasattr(Clock, "schedule_once_free"),
    "config": {s: dict(Config.items(s)) for s in ("graphics", "kivy", "input")},
    "env": {k: os.environ.get(k) for k in ("SDL_TOUCH_MOUSE_EVENTS", "SDL_VIDEO_ALLOW_SCREENSAVER")},
}))
"""


def kivy_after(tmp_path: Path, settings: dict[str, object], *, user_ini: str = "") -> dict:
    """The Kivy config in a new process after configure_kivy, over a user config.ini like a Pi's."""
    home = tmp_path / "kivy"
    home.mkdir()
    if user_ini:
        (home / "config.ini").write_text(user_ini)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_"))}
    env |= {"KIVY_HOME": str(home), "KIVY_NO_ARGS": "1", "DISPLAY_SETTINGS": json.dumps(settings)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_a_kiosk_on_touch_display_2_turned_landscape(tmp_path: Path) -> None:
    got = kivy_after(tmp_path, {"width": 720, "height": 1280, "fullscreen": True, "rotation": 90, "show_cursor": False})
    graphics = got["config"]["graphics"]
    assert (graphics["width"], graphics["height"], graphics["rotation"]) == ("720", "1280", "90")
    assert (graphics["fullscreen"], graphics["show_cursor"], graphics["allow_screensaver"]) == ("auto", "0", "0")
    assert got["config"]["kivy"]["exit_on_escape"] == "0"
    assert got["env"]["SDL_VIDEO_ALLOW_SCREENSAVER"] == "0"


# What Kivy writes into a fresh ~/.kivy/config.ini on a Pi: the mouse and a probesysfs device.
PI_INPUT = "[input]\nmouse = mouse\n%(name)s = probesysfs,provider=hidinput\n"


@pytest.mark.parametrize(
    ("touch", "inputs", "sdl_touch_mouse"),
    [
        ("sdl", {"mouse": "mouse,multitouch_on_demand"}, None),
        ("hidinput", {"mouse": "mouse,multitouch_on_demand", "touchscreen": "probesysfs,provider=hidinput"}, "0"),
    ],
)
def test_exactly_one_touch_source(
    tmp_path: Path, touch: str, inputs: dict[str, str], sdl_touch_mouse: str | None
) -> None:
    """Either SDL's touches (as mouse events) or Kivy's own device reader, never both."""
    got = kivy_after(tmp_path, {"touch": touch}, user_ini=PI_INPUT)
    assert got["config"]["input"] == inputs
    assert got["env"]["SDL_TOUCH_MOUSE_EVENTS"] == sdl_touch_mouse


def test_a_desktop_window_keeps_escape_and_the_cursor(tmp_path: Path) -> None:
    got = kivy_after(tmp_path, {})
    assert got["config"]["graphics"]["fullscreen"] == "0" and got["config"]["graphics"]["show_cursor"] == "1"
    assert got["config"]["kivy"]["exit_on_escape"] == "1"


def test_buzzer_decisions_can_wake_the_clock(tmp_path: Path) -> None:
    """Kivy's free_all clock: frames keep to the frame rate, a free event (a decision) ends the wait."""
    got = kivy_after(tmp_path, {})
    assert got["config"]["kivy"]["kivy_clock"] == "free_all" and got["clock_wakes"]


WINDOW_PROBE = """
import json
from companion.config import DisplayConfig
from companion.pi.display import configure_kivy
configure_kivy(DisplayConfig(fullscreen=True, rotation=90, show_cursor=False))
from kivy.base import EventLoop, _runTouchApp_prepare
from kivy.core.window import Window
from kivy.graphics.opengl import glGetIntegerv
from kivy.uix.widget import Widget
_runTouchApp_prepare(Widget())
EventLoop.idle()
GL_SAMPLES = 0x80A9
print(json.dumps({
    "samples": glGetIntegerv(GL_SAMPLES)[0],
    "size": list(Window.size), "system_size": list(Window.system_size), "rotation": Window.rotation,
    "cursor": Window.show_cursor, "screensaver": Window.allow_screensaver,
    "providers": [type(p).__name__ for p in EventLoop.input_providers],
}))
"""


def test_touch_display_2_turned_landscape_in_a_real_window(tmp_path: Path) -> None:
    """A 720x1280 screen (Xvfb) in full screen, turned 90 degrees: a 1280x720 table, no cursor, no screen saver,
    and one sample a pixel (Kivy's default asks for more, and Mesa then fills every pixel four times)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_", "DISPLAY"))}
    env |= {"KIVY_HOME": str(tmp_path), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 720x1280x24", sys.executable, "-c", WINDOW_PROBE],
        env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    window = json.loads(out.stdout.splitlines()[-1])
    assert (window["system_size"], window["size"], window["rotation"]) == ([720, 1280], [1280, 720], 90)
    assert window["cursor"] is False and window["screensaver"] is False
    assert window["samples"] == 0
    # The mouse provider is the one touch source: SDL turns each touch into a click. The SDL provider
    # is always there but gets nothing on Linux (window_sdl2 passes finger events on only on iOS and Android).
    assert window["providers"] == ["SDL2MotionEventProvider", "MouseMotionEventProvider"]
