"""How fast a spoken call starts, and what it costs the UI thread: figures for docs/PERFORMANCE.md.

Run: .venv/bin/python benchmarks/speech.py [--runs 15]   (about half a minute; needs espeak-ng)

Machines here are noisy: every figure is a median (and the worst) of several, each beside a baseline
measured in the same run.
- a result's call, from ``say`` to the sound playing, the speech thread idle (target 300 ms), beside
  espeak-ng alone writing the same sentence as a WAV (what any offline voice costs here);
- a call made ahead, ``say`` on the UI thread (target: a call starts at most 150 ms after its event, and
  this is all the event's frame pays), beside the app's buzz sound played by ``Sounds.play``;
- the UI thread's longest stall while the speech thread makes sentences, measured as the lateness of a
  16 ms sleep (a frame's wait), beside the same with the speech thread idle, and beside Kivy loading
  espeak-ng's own 22 kHz mono WAV (which SDL converts under the GIL: why the WAV is written in the
  mixer's format).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.ui.speech import Speech

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLOCK", "free_all")  # the app's (companion.pi.display.CLOCK)

FRAME = 1 / 60
RESULTS = (
    "Chili 4: the number was a lie. Ben wins 4 cards; Ana draws 2 and starts the next stack.",
    "Wasabi 7: the spice was true. Dee wins 9 cards and starts the next stack; Cy draws 2.",
    "Pepper 10: the claim was a lie. Ana wins 3 cards; Ana takes a trophy; Ben draws 2.",
)


def figures(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.1f} ms   worst {max(values) * 1000:7.1f} ms"


def playing(speech: Speech, text: str) -> bool:
    return speech.playing == text


def clock_until(done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Run Kivy's clock (as the app's loop does between frames) until ``done()``."""
    from kivy.clock import Clock

    end = time.perf_counter() + seconds
    while not done():
        if time.perf_counter() > end:
            raise SystemExit("speech: a call did not start within 5 s")
        Clock.tick()


def result_latency(runs: int, folder: Path) -> None:
    from companion.ui.speech import Speech

    speech = Speech(True, 100, "en")
    started, alone = [], []
    for run in range(runs):
        text = f"{RESULTS[run % len(RESULTS)]} ({run})"  # never made before
        asked = time.perf_counter()
        speech.say(text)
        clock_until(partial(playing, speech, text))
        started.append(time.perf_counter() - asked)
        begin = time.perf_counter()
        subprocess.run(["espeak-ng", "-v", "en", "-w", str(folder / "alone.wav"), text], check=True)
        alone.append(time.perf_counter() - begin)
    speech.close()
    print(f"a result's call, say to playing       {figures(started)}   (target < 300 ms)")
    print(f"  baseline: espeak-ng alone to a WAV   {figures(alone)}   "
          f"ratio {statistics.median(started) / statistics.median(alone):.1f}x")


def ahead_cost(runs: int) -> None:
    from companion.ui import calls
    from companion.ui.sounds import Sounds
    from companion.ui.speech import Speech

    speech = Speech(True, 100, "en")
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
    wanted = calls.ahead(names, end_card=True)
    made = time.perf_counter()
    speech.prepare(wanted)
    clock_until(lambda: all(("en", text) in speech.files for text in wanted), 60)
    made = time.perf_counter() - made
    sounds = Sounds()
    said, played = [], []
    for run in range(runs):
        begin = time.perf_counter()
        speech.say(wanted[run % len(wanted)])
        said.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        sounds.play("buzz")
        played.append(time.perf_counter() - begin)
    speech.close()
    print(f"a call made ahead: say, on the UI thread median {statistics.median(said) * 1e6:6.0f} µs   "
          f"worst {max(said) * 1e6:6.0f} µs   (starts in its event's frame: target < 150 ms)")
    print(f"  baseline: Sounds.play('buzz')       median {statistics.median(played) * 1e6:6.0f} µs   "
          f"worst {max(played) * 1e6:6.0f} µs")
    print(f"  the {len(wanted)} calls of a six-seat game made ahead in {made:.2f} s (on the speech thread)")


def stall(background: Callable[[], None] | None, seconds: float) -> list[float]:
    """The lateness of each 16 ms sleep on this thread while ``background`` runs over and over on another."""
    stop = threading.Event()

    def work() -> None:
        while background is not None and not stop.is_set():
            background()

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    late = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        begin = time.perf_counter()
        time.sleep(FRAME)
        late.append(time.perf_counter() - begin - FRAME)
    stop.set()
    thread.join()
    return late


def ui_thread_stalls(seconds: float, folder: Path) -> None:
    from kivy.core.audio import SoundLoader

    from companion.ui.speech import Speech

    speech = Speech(True, 100, "en")
    count = iter(range(1_000_000))

    def make() -> None:
        speech._folder = folder
        speech._make(("en", f"{RESULTS[0]} {next(count)}"), next(count), niced=True)

    own = folder / "own.wav"
    subprocess.run(["espeak-ng", "-v", "en", "-w", str(own), RESULTS[0]], check=True)
    rows = [("idle speech thread", stall(None, seconds)), ("making sentences ahead", stall(make, seconds)),
            ("Kivy loading espeak-ng's own WAV", stall(lambda: SoundLoader.load(str(own)).unload(), seconds))]
    for label, late in rows:
        late.sort()
        print(f"UI thread, a frame's sleep late by: {label:32} median {statistics.median(late) * 1000:5.1f} ms   "
              f"p99 {late[int(len(late) * 0.99)] * 1000:5.1f} ms   worst {late[-1] * 1000:5.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        sys.exit("speech: espeak-ng is not installed (scripts/test installs it)")
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    folder = Path(tempfile.mkdtemp(prefix="speech-bench-"))
    try:
        result_latency(args.runs, folder)
        ahead_cost(args.runs * 10)
        ui_thread_stalls(3.0, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
