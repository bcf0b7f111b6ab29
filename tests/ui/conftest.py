"""Drive the real app in a real Kivy window on a virtual screen (Xvfb).

Kivy allows one window per process, so every UI test shares it: each test
gets a new ``SpicyApp`` (``ui.start``) at the size it asks for, driven a frame
at a time with ``EventLoop.idle()`` (docs/design/KIVY-NOTES.md). Touches are real
``MotionEvent``s posted to the event loop, so they go through the same
dispatch (rotation, Scatter transforms) as a finger on the glass.

The layouts and languages the tests take are one list, ``tests/layouts.py``: without Kivy, as
the table layout's own tests (tests/test_table_layout.py) run without this window.
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest


def _start_display() -> None:
    """An Xvfb screen big enough for every size used (1920x1920), unless one is given."""
    if os.environ.get("DISPLAY"):
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise RuntimeError("the UI tests need Xvfb: scripts/test installs it (apt-get install xvfb)")
    read, write = os.pipe()
    process = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1920x1920x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    if not display:
        raise RuntimeError("Xvfb did not start")
    os.environ["DISPLAY"] = f":{display}"
    atexit.register(process.terminate)


_start_display()
KIVY_HOME = tempfile.mkdtemp(prefix="kivy-home-")
os.environ.update(
    KIVY_NO_ARGS="1",
    KIVY_USE_DEFAULTCONFIG="1",
    KIVY_HOME=KIVY_HOME,
    KIVY_METRICS_DENSITY="1",
    KIVY_NO_CONSOLELOG="1",
    SDL_AUDIODRIVER="dummy",
)
atexit.register(shutil.rmtree, KIVY_HOME, True)

from kivy.config import Config as KivyConfig  # noqa: E402  (after the environment above)

from companion.pi.display import MULTISAMPLES  # noqa: E402

for option in KivyConfig.options("input"):
    KivyConfig.remove_option("input", option)  # no device of the host joins in
KivyConfig.set("graphics", "width", "800")
KivyConfig.set("graphics", "height", "480")
KivyConfig.set("graphics", "multisamples", MULTISAMPLES)  # as the app opens its window

from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics import ClearBuffers, ClearColor, Fbo  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from companion.config import BuzzerConfig, Config, LeagueConfig, StoreConfig  # noqa: E402
from companion.ui.app import SpicyApp  # noqa: E402
from companion.ui.i18n import tr  # noqa: E402

W = TypeVar("W", bound=Widget)
T = TypeVar("T")

# The collector's full passes, only when an app's warm-up asks for one: each start collects once as it
# settles (``_settle_memory``), which frees the earlier tests' apps. A full pass walks the whole test
# process (every test module, pytest, hypothesis: some 300,000 objects before any app), and the automatic
# ones came about four times a test while widgets were made, each repeating what the next start frees
# anyway: 182 passes and 56 s of the 104 s of CPU that tests/ui/test_table_names.py and test_review.py took,
# against 51 passes and 44 s so (docs/PERFORMANCE.md, the suite). Young objects are still collected as usual.
gc.set_threshold(*gc.get_threshold()[:2], 1000)



def window_drawn(read: Callable[[Fbo], T]) -> T:
    """``read`` of the window drawn into an Fbo with whatever floats over the root (sheets, toasts), rows
    from the bottom: right at every size and rotation, where ``Window.screenshot`` is not."""
    fbo = Fbo(size=Window.size, with_stencilbuffer=True)
    with fbo:
        ClearColor(*Window.clearcolor)
        ClearBuffers()
    layers = list(reversed(Window.children))
    for layer in layers:
        fbo.add(layer.canvas)
    fbo.draw()
    try:
        return read(fbo)
    finally:
        for layer in layers:
            fbo.remove(layer.canvas)

class Touch(UnitTestTouch):
    """A touch at window coordinates that lands at every ``Window.rotation``.

    UnitTestTouch takes positions relative to the unrotated window; with the
    window rotated, the physical position is the rotated one (docs/design/KIVY-NOTES.md).
    """

    def __init__(self, x: float, y: float) -> None:
        super().__init__(x, y)
        self._place(x, y)

    def _place(self, x: float, y: float) -> None:
        w, h = Window.size  # the size the app sees, rotation applied
        sx, sy = {
            0: (x / w, y / h),
            90: (1 - y / h, x / w),
            180: (1 - x / w, 1 - y / h),
            270: (y / h, 1 - x / w),
        }[Window.rotation]
        self.sx, self.sy = sx, sy
        self.scale_for_screen(*Window._get_effective_size(), rotation=Window.rotation)


class UiDriver:
    """What a test does with the app: start it, step frames, touch, press keys, look."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.app: SpicyApp | None = None

    def config(self, **sections: Any) -> Config:
        """A config for tests: a database in the test's folder, keyboard buzzers, unless given."""
        sections.setdefault("store", StoreConfig(db=self.tmp_path / "games.db"))
        sections.setdefault("buzzers", BuzzerConfig(backend="keyboard"))
        sections.setdefault("league", LeagueConfig(folder=self.tmp_path / "league"))  # never the user's own
        return Config(**sections)

    def start(
        self,
        size: tuple[int, int] = (800, 480),
        rotation: int = 0,
        config: Config | None = None,
        pin_factory: Any = None,
    ) -> SpicyApp:
        Window.rotation = 0
        Window.size = size
        Window.rotation = rotation
        self.app = SpicyApp(config or self.config(), pin_factory=pin_factory)
        self.app._run_prepare()
        self.step(3)
        # as a table finds it once up; a loaded 2-core machine has taken more than 5 s to warm it
        self.until(lambda: self.app.warmed or self.app.root.current == "problem", seconds=30)
        return self.app

    def stop(self) -> None:
        if self.app is not None:
            self.app.stop()
            self.app = None
        Window.rotation = 0
        tr.switch("en")  # the language is the process's: the next test starts in English

    def step(self, frames: int = 1) -> None:
        for _ in range(frames):
            EventLoop.idle()

    def until(self, predicate: Callable[[], object], seconds: float = 5.0,
              state: Callable[[], str] | None = None) -> None:
        """Run frames until ``predicate()`` is true; fail after ``seconds``, saying ``state()`` if given (what a
        flake's log needs to be read)."""
        deadline = time.monotonic() + seconds
        while not predicate():
            if time.monotonic() > deadline:
                said = f"; {state()}" if state is not None else ""
                raise AssertionError(f"still not true after {seconds} s: {predicate}{said}")
            self.step()

    def tap_at(self, x: float, y: float) -> None:
        """A finger taps what it sees: a screen still sliding in is not there yet, and Kivy's screen manager
        drops every touch while its transition runs (a loaded machine's lost taps)."""
        self._screen_still()
        self._tap(Touch(x, y))

    def tap(self, widget: Widget) -> None:
        self._tap(self._finger_on(widget))

    def _tap(self, touch: Touch) -> None:
        EventLoop.post_dispatch_input("begin", touch)
        self.step()
        EventLoop.post_dispatch_input("end", touch)
        self.step(2)

    def _screen_still(self) -> None:
        if self.app is not None and self.app.root is not None:
            pages = self.app.root
            self.until(lambda: not pages.transition.is_active)

    def _finger_on(self, widget: Widget) -> Touch:
        """A finger on ``widget``, aimed once the screen is still: its place during the slide is not where the
        finger lands."""
        self._screen_still()
        return Touch(*widget.to_window(*widget.center))

    def hold(self, widget: Widget, seconds: float) -> None:
        """A long press: down, frames for ``seconds`` of the app's clock, up."""
        touch = self._finger_on(widget)
        EventLoop.post_dispatch_input("begin", touch)
        end = Clock.get_time() + seconds
        while Clock.get_time() < end:
            self.step()
        EventLoop.post_dispatch_input("end", touch)
        self.step(2)

    def hold_while(self, widget: Widget, during: Callable[[], object]) -> None:
        """One finger down on ``widget`` while ``during`` does what another does, then up."""
        touch = self._finger_on(widget)
        EventLoop.post_dispatch_input("begin", touch)
        self.step()
        during()
        EventLoop.post_dispatch_input("end", touch)
        self.step(2)

    def key(self, text: str) -> None:
        """Press and release a key, as the keyboard would."""
        keycode = Window._system_keyboard.string_to_keycode(text)
        Window.dispatch("on_key_down", keycode, 0, text, [])
        self.step()
        Window.dispatch("on_key_up", keycode, 0)
        self.step()

    def find_all(self, cls: type[W], **props: Any) -> list[W]:
        assert self.app is not None and self.app.root is not None
        found = [
            widget
            for widget in self.app.root.walk(restrict=True)
            if isinstance(widget, cls) and all(getattr(widget, k, None) == v for k, v in props.items())
        ]
        found += [
            widget
            for child in Window.children
            if child is not self.app.root
            for widget in child.walk(restrict=True)
            if isinstance(widget, cls) and all(getattr(widget, k, None) == v for k, v in props.items())
        ]
        return found

    def find(self, cls: type[W], **props: Any) -> W:
        found = self.find_all(cls, **props)
        if len(found) != 1:
            raise AssertionError(f"{len(found)} {cls.__name__} with {props} on screen, not 1")
        return found[0]

    def screenshot(self, path: Path) -> Path:
        """The window as a PNG, with whatever floats over the root (sheets, toasts).

        Drawn into an Fbo from the widgets' canvases, which is right at every
        size and rotation, where ``Window.screenshot`` is not (docs/design/KIVY-NOTES.md).
        """
        self.step(2)
        path.parent.mkdir(parents=True, exist_ok=True)
        window_drawn(lambda fbo: fbo.texture.save(str(path), flipped=True))
        return path


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[UiDriver]:
    driver = UiDriver(tmp_path)
    yield driver
    driver.stop()
