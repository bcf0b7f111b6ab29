"""The touchscreen app against a bare Kivy app, measured in the same run: figures for docs/PERFORMANCE.md.

Run: python benchmarks/ui.py [--runs 7]. Needs a display; without one it starts
Xvfb. Each run is a fresh process (Kivy has one window per process), the app
and the bare app taking turns so both see the same machine:

- time to the first frame: from starting the process to the window's first
  flip, interpreter start-up and imports included, as a person waits for it;
- peak memory: the process's maximum resident set, half a second after that.

The bare app is a Kivy ``App`` whose root is one ``Label``: the least any
Kivy app costs. Figures of the table itself (frame times under buzzer
presses and actions, tap to frame, deciding press to sheet) go in ``FIGURES``
beside these, each a function of the run count returning table rows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from companion.store import Store

Row = tuple[str, str, str, str]
SIZE = (800, 480)


def child(kind: str, folder: Path) -> None:
    """One measured start: print the first frame's time (monotonic) and the peak memory, then quit."""
    from kivy.config import Config as KivyConfig

    KivyConfig.set("graphics", "width", str(SIZE[0]))
    KivyConfig.set("graphics", "height", str(SIZE[1]))
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.label import Label

    if kind == "app":
        from companion.config import BuzzerConfig, Config, StoreConfig
        from companion.ui.app import SpicyApp

        app: App = SpicyApp(Config(store=StoreConfig(db=folder / "games.db"), buzzers=BuzzerConfig(backend="keyboard")))
    else:

        class BareApp(App):
            def build(self) -> Label:
                return Label(text="Spicy Companion")

        app = BareApp()
    frames: list[float] = []

    def finish(_dt: float) -> None:
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({"first_frame": frames[0], "peak_kib": peak_kib}), flush=True)
        app.stop()

    def flipped(*_args: object) -> None:
        if not frames:
            frames.append(time.monotonic())
            Clock.schedule_once(finish, 0.5)  # settled: images, fonts and sounds loaded

    Window.bind(on_flip=flipped)
    app.run()


def one_start(kind: str) -> tuple[float, float]:
    """Seconds to the first frame and peak MiB of one fresh process.

    The app opens a database made beforehand, as on every start but the very first.
    """
    with tempfile.TemporaryDirectory() as folder:
        Store.open(Path(folder) / "games.db").close()
        env = {
            **os.environ,
            "KIVY_NO_ARGS": "1",
            "KIVY_USE_DEFAULTCONFIG": "1",
            "KIVY_NO_CONSOLELOG": "1",
            "KIVY_HOME": folder,
            "KIVY_METRICS_DENSITY": "1",
            "SDL_AUDIODRIVER": "dummy",
            "XDG_CONFIG_HOME": f"{folder}/config",
            "XDG_DATA_HOME": f"{folder}/data",
        }
        started = time.monotonic()
        out = subprocess.run(
            [sys.executable, __file__, "--child", kind, "--folder", folder],
            env=env, capture_output=True, text=True, timeout=120, check=True,
        ).stdout
        result = json.loads(out.strip().splitlines()[-1])
    return result["first_frame"] - started, result["peak_kib"] / 1024


def start_up(runs: int) -> list[Row]:
    first: dict[str, list[float]] = {"app": [], "bare": []}
    peak: dict[str, list[float]] = {"app": [], "bare": []}
    for _ in range(runs):
        for kind in ("bare", "app"):
            seconds, mib = one_start(kind)
            first[kind].append(seconds)
            peak[kind].append(mib)
    f_app, f_bare = statistics.median(first["app"]), statistics.median(first["bare"])
    p_app, p_bare = statistics.median(peak["app"]), statistics.median(peak["bare"])
    return [
        ("time to the first frame", f"{f_app * 1000:.0f} ms", f"bare Kivy app {f_bare * 1000:.0f} ms: "
         f"{f_app / f_bare:.2f}x", "at most 1.5x the bare app"),
        ("peak memory", f"{p_app:.1f} MiB", f"bare Kivy app {p_bare:.1f} MiB: {p_app / p_bare:.2f}x",
         "at most 1.3x the bare app"),
    ]


FIGURES: list[Callable[[int], list[Row]]] = [start_up]
"""Each returns rows of (figure, median, baseline in the same run, target)."""


def with_display() -> None:
    """Start Xvfb for the run when there is no screen (as the tests do)."""
    if os.environ.get("DISPLAY"):
        return
    if shutil.which("Xvfb") is None:
        sys.exit("benchmarks/ui.py needs a display or Xvfb (scripts/test installs it)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1920x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        os.environ["DISPLAY"] = f":{pipe.readline().strip()}"
    import atexit

    atexit.register(xvfb.terminate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--child", choices=("app", "bare"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.folder)
        return
    with_display()
    print(f"medians of {args.runs} runs each, the app and a bare Kivy app taking turns, at {SIZE[0]}x{SIZE[1]}")
    print("| figure | median | baseline in the same run | target |")
    print("|---|---|---|---|")
    for figure in FIGURES:
        for row in figure(args.runs):
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
