"""The touchscreen app against a bare Kivy app, measured in the same run: figures for docs/PERFORMANCE.md.

Run: python benchmarks/ui.py [--runs 7]. Needs a display; without one it starts
Xvfb. Each run is a fresh process (Kivy has one window per process), the app
and the bare app taking turns so both see the same machine:

- time to the first frame: from starting the process to the window's first
  flip, interpreter start-up and imports included, as a person waits for it;
- peak memory: the process's maximum resident set, half a second after that.

The bare app is a Kivy ``App`` whose root is one ``Label``: the least any
Kivy app costs. It starts a third time with its label in Japanese, in the
app's Japanese font (companion/ui/fonts): what that font costs a first frame
and memory beside Roboto.

The table's figures come from one more process: the real app at a 3-seat
spicy table on gpiozero's MockFactory, frames paced at 60 a second, played
for 25 rounds (a card by touch, a press on the card's own seat, two
challenges by buzzer each cancelled on the sheet, a pass and two undos by
touch): 100 presses and 100 actions; with ``--speech``, with its spoken calls
on (each challenge called, made ahead while the first rounds are played). Its baseline is the same table redrawn
with nothing arriving, so what drawing alone costs on this machine's
renderer is beside what the updates cost. ``--language ja`` (repeatable) starts the app a third way, with
that language in its config, beside English in the same run (first frame, memory), and plays the table
once more in it (frames, tap to frame). ``--phones N`` plays it with the
phone page on and N phones reading its stream (on loopback, each on a thread
of a process of their own, as a phone's browser is on a device of its own). Each figure function in
``FIGURES`` takes the run count and returns table rows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = tuple[str, str, str, str, str]
SPEECH = "SPICY_BENCHMARK_SPEECH"
"""Set by ``--speech``: the table child turns the spoken calls on."""
LANGUAGE = "SPICY_BENCHMARK_LANGUAGE"
"""The table child's language (``[ui] language``), set for each ``--language``; English without it."""
SIZE = (800, 480)
FRAME = 1 / 60


def size_window() -> None:
    """The window's size, samples and the app's clock, set before Kivy loads them (the bare app too); no input
    device of the host joins in."""
    from kivy.config import Config as KivyConfig

    from companion.pi.display import CLOCK, MULTISAMPLES

    KivyConfig.set("graphics", "width", str(SIZE[0]))
    KivyConfig.set("graphics", "multisamples", MULTISAMPLES)
    KivyConfig.set("graphics", "height", str(SIZE[1]))
    KivyConfig.set("kivy", "kivy_clock", CLOCK)
    for option in KivyConfig.options("input"):
        KivyConfig.remove_option("input", option)


JAPANESE_TITLE = "スパイシー・コンパニオン 佐藤さくら"
"""The bare app's label in Japanese: kana and kanji, in the app's Japanese font."""


def bare_child(settings: str, japanese: bool) -> None:
    """The bare Kivy app: configured as the app configures itself, READY said at its first frame the same way;
    its label in Roboto, or in Japanese in the app's Japanese font."""
    from kivy.config import Config as KivyConfig

    for section, values in json.loads(settings).items():
        if section == "input" and KivyConfig.has_section("input"):
            KivyConfig.remove_section("input")
        if not KivyConfig.has_section(section):
            KivyConfig.add_section(section)
        for key, value in values.items():
            KivyConfig.set(section, key, value)
    from kivy.app import App
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.pi.notify import ready_when_drawn
    from companion.ui import fonts

    class BareApp(App):
        def build(self) -> Label:
            if not japanese:
                return Label(text="Spicy Companion")
            fonts.register()
            return Label(text=JAPANESE_TITLE, font_name=fonts.JAPANESE)

    ready_when_drawn(Window)
    BareApp().run()


class TablePlay:
    """The real app at a 3-seat spicy table on gpiozero's MockFactory, driven a frame at a time.

    Frames are paced by the app's own clock (60 a second, ``free_all``: a
    buzzer decision wakes it at once, companion/ui/threads.py). A frame's
    cost is ``EventLoop.idle`` from the end of the clock's sleep to the end
    of the flip: input, clock callbacks, layout and the GL draw.
    """

    def __init__(self, folder: Path) -> None:
        from gpiozero.pins.mock import MockFactory
        from kivy.base import EventLoop
        from kivy.clock import Clock

        from companion.config import Backend, BuzzerConfig, Config, StoreConfig, UiConfig
        from companion.rules import SPICY, new_setup
        from companion.ui.app import SpicyApp

        self.factory = MockFactory()
        config = Config(store=StoreConfig(db=folder / "games.db"), buzzers=BuzzerConfig(backend=Backend.GPIO),
                        ui=UiConfig(speech=os.environ.get(SPEECH) == "1", language=os.environ.get(LANGUAGE, "en")))
        self.pins = config.buzzers.button_pins
        self.app = SpicyApp(config, pin_factory=self.factory)
        self.app._run_prepare()
        while not self.app.warmed:  # the store opens on the frame after the first, then screens are built ahead
            EventLoop.idle()
        self.app.play_sound = lambda name: None  # type: ignore[method-assign]  # the dummy audio driver: sounds cost nothing here
        self.clock = Clock
        self.loop = EventLoop
        self.frames: list[float] = []
        """Seconds each frame took, while recording."""
        self.cpu: list[float] = []
        """CPU seconds of the UI thread in each frame (Python, layout, the GL calls; not llvmpipe's own
        threads filling the pixels): what other work on a busy machine adds nothing to."""
        self.flips: list[float] = []
        """Of each drawn frame, the seconds from its flip's start to its end: rasterizing and showing it."""
        self.recording = False
        self._flipping = 0.0
        from kivy.core.window import Window

        Window.bind(on_flip=self._flip_starts)  # called before the window's own flip
        self.app.start_game(new_setup(SPICY, ["Ana", "Ben", "Cy"], first=0))
        self.screen = self.app.screen("table")
        self.view = self.screen.view
        self.phones = Phones(self.app, int(os.environ.get("BENCH_PHONES", "0")))
        self.step(10)

    def step(self, frames: int = 1) -> float:
        """Run frames as the app's clock paces them; the clock's time the last one ended."""
        end = self.clock.time()
        for _ in range(frames):
            cpu = time.thread_time()
            self.loop.idle()
            end = self.clock.time()
            start = self.clock.get_time()  # this frame's tick: the end of the clock's sleep
            if self.recording:
                self.frames.append(end - start)
                self.cpu.append(time.thread_time() - cpu)  # the clock's sleep costs none
                if self._flipping > start:
                    self.flips.append(end - self._flipping)
        return end

    def _flip_starts(self, *_args: object) -> None:
        self._flipping = self.clock.time()

    def until(self, shown: Callable[[], bool]) -> float:
        """Frames until ``shown()`` holds after one: the time that frame ended (was flipped)."""
        for _ in range(600):
            end = self.step()
            if shown():
                return end
        raise RuntimeError("the table never showed it")

    def tap(self, widget: Any, shown: Callable[[], bool]) -> tuple[float, float]:
        """Seconds from a tap's release to the end of the first frame showing ``shown()``, and the UI
        thread's CPU seconds in those frames."""
        touch = finger(*widget.to_window(*widget.center))
        self.loop.post_dispatch_input("begin", touch)
        self.step()
        released, cpu = self.clock.time(), time.thread_time()
        self.loop.post_dispatch_input("end", touch)
        return self.until(shown) - released, time.thread_time() - cpu

    def press(self, *seats: int) -> float:
        """Buzzers of ``seats`` pressed 1 ms apart and let go; the time of the first press."""
        pressed = self.clock.time()
        for seat in seats:
            self.factory.pin(self.pins[seat]).drive_low()
            time.sleep(0.001)
        time.sleep(0.004)  # held past the confirmation time, as a slap is
        for seat in seats:
            self.factory.pin(self.pins[seat]).drive_high()
        return pressed

    def declare(self) -> tuple[float, float]:
        """The seat to play taps the first legal spice and number: seconds to the frame showing it, and
        the UI thread's CPU seconds."""
        from companion.ui.widgets.claim_pad import NumberButton, SpiceButton

        spice, numbers = next(iter(self.view.legal.items()))
        pad = self.screen.ids.pad
        self.tap(_one(pad, SpiceButton, spice=spice), lambda: True)
        header = self.screen.ids.header
        before = header.text
        return self.tap(_one(pad, NumberButton, number=numbers[0]), lambda: header.text != before)

    def challenge(self, *seats: int) -> tuple[float, float]:
        """Seconds from the first press to the frame with the challenge sheet, settle time included, and the
        UI thread's CPU seconds in those frames; then the table cancels the challenge."""
        pressed = self.press(*seats)
        cpu = time.thread_time()
        shown = self.until(lambda: self.screen.sheet_name == "challenge")
        cpu = time.thread_time() - cpu
        sheet = self.screen._sheets["challenge"]
        self.tap(sheet.ids.cancel, lambda: self.screen.sheet_name == "")
        return shown - pressed, cpu


class Phones:
    """``count`` phones on the page's stream, the page turned on (loopback) for them: in a process of their own,
    as phones are devices of their own. On threads of the app's process, their reading took the interpreter's
    lock from the UI thread at each change, which no phone does."""

    def __init__(self, app: Any, count: int) -> None:
        self.process: subprocess.Popen[str] | None = None
        if not count:
            return
        from companion.phones import address

        address.lan_address, address.PORT = lambda: "127.0.0.1", 0
        app.change_settings(phones=True)
        self.process = subprocess.Popen([sys.executable, __file__, "--child", "phones", "--settings",
                                         json.dumps({"url": app.phones.url, "count": count})],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":  # every phone has read the table as it is
            sys.exit("the phones never read the page's stream")

    def events(self) -> list[int]:
        """How many events each phone read; the phones leave."""
        if self.process is None:
            return []
        read, _ = self.process.communicate("", timeout=60)
        return list(json.loads(read))


def phones_child(settings: str) -> None:
    """The phones: each on a thread, reading the stream and counting its events until told to stop (standard
    input closed); then the counts, on standard output."""
    import http.client
    import threading

    wanted = json.loads(settings)
    host_port, token = wanted["url"].removeprefix("http://").rstrip("/").split("/")
    events = [0] * wanted["count"]
    started = threading.Semaphore(0)

    def read(phone: int) -> None:
        connection = http.client.HTTPConnection(host_port, timeout=60)
        connection.request("GET", f"/{token}/events")
        for line in connection.getresponse():
            if line.startswith(b"id: "):
                events[phone] += 1
                if events[phone] == 1:
                    started.release()

    for phone in range(len(events)):
        threading.Thread(target=read, args=(phone,), daemon=True).start()
    for _ in events:
        if not started.acquire(timeout=60):
            sys.exit("a phone never read the page's stream")
    print("ready", flush=True)
    sys.stdin.read()
    try:
        print(json.dumps(events), flush=True)
    except BrokenPipeError:  # the table ended without asking
        pass


def _finger_class() -> type:
    from kivy.input.motionevent import MotionEvent

    class Finger(MotionEvent):
        """A touch as Kivy's input providers make one: where it is, as a share of the window."""

        def depack(self, args: dict[str, float]) -> None:
            self.sx, self.sy = args["sx"], args["sy"]
            super().depack(args)

    return Finger


def finger(x: float, y: float) -> Any:
    """A touch at window coordinates (no rotation here), for ``post_dispatch_input``; Kivy's own test touch
    needs pytest, which a plain install has not."""
    from kivy.core.window import Window

    touch = _finger_class()("benchmark", 1, {"sx": x / Window.width, "sy": y / Window.height},
                            is_touch=True, type_id="touch")
    touch.profile = ["pos"]
    return touch


def _one(parent: Any, cls: type, **props: Any) -> Any:
    return next(w for w in parent.walk(restrict=True)
                if isinstance(w, cls) and all(getattr(w, k) == v for k, v in props.items()))


def table_child(folder: Path) -> None:
    """One table run: 25 rounds of a card, 4 presses and 3 more actions; print what was measured."""
    size_window()
    play = TablePlay(folder)
    view, ids = play.view, play.screen.ids
    play.recording = True
    taps: list[tuple[float, float]] = []
    sheets: list[float] = []
    sheets_cpu: list[float] = []
    for _ in range(25):
        taps.append(play.declare())
        top = view.top_player
        others = [seat for seat in range(3) if seat != top]
        play.press(top)  # its own card: answered with a notice
        play.step(4)
        for challengers in ((others[0], others[1]), (others[1],)):
            shown, cpu = play.challenge(*challengers)
            sheets.append(shown)
            sheets_cpu.append(cpu)
        for button in (ids.pass_button, ids.undo, ids.undo):  # each moves the turn: the header says who
            header: str = ids.header.text

            def changed(before: str = header) -> bool:
                return bool(ids.header.text != before)

            taps.append(play.tap(button, changed))
    play.recording = False
    busy, busy_flips, busy_cpu = play.frames, play.flips, play.cpu
    play.frames, play.flips, play.cpu = [], [], []
    play.recording = True
    for _ in range(120):  # the same table, redrawn with nothing arriving: what drawing alone costs
        play.app.root_window.canvas.ask_update()
        play.step()
    phones = play.phones.events()
    print(json.dumps({"phones": phones, "busy": busy, "busy_flips": busy_flips, "busy_cpu": busy_cpu, "redraw": play.frames,
                      "redraw_flips": play.flips, "redraw_cpu": play.cpu,
                      "taps": [wall for wall, _ in taps], "taps_cpu": [cpu for _, cpu in taps],
                      "sheets": sheets, "sheets_cpu": sheets_cpu,
                      "settle_ms": play.app.config_.buzzers.settle_ms}), flush=True)
    play.app.stop()


def child_env(folder: str) -> dict[str, str]:
    """A child's environment: ``folder`` is its Kivy home, its settings and its data, no console log.

    Byte code is cached as on a user's machine (``PYTHONDONTWRITEBYTECODE``
    would have every start compile the app's modules again, and not Kivy's,
    which come compiled).
    """
    return {
        **{key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"},
        "KIVY_NO_ARGS": "1",
        "KIVY_USE_DEFAULTCONFIG": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_HOME": folder,
        "KIVY_METRICS_DENSITY": "1",
        "SDL_AUDIODRIVER": "dummy",
        "XDG_CONFIG_HOME": f"{folder}/config",
        "XDG_DATA_HOME": f"{folder}/data",
        "XDG_STATE_HOME": f"{folder}/state",
    }


def moments_child(folder: Path) -> None:
    """One app: "Start the game" tapped on set-up, then the last action of a game; each timed (wall and
    UI-thread CPU) from the tap's release or the action to the end of the frame that shows its result,
    beside a tap on set-up's Next and an ordinary action, measured the same way in the same process. Start
    is tapped a second (60 frames) after set-up's last step shows, as a table deals meanwhile: the CPU of
    those frames, where the table is built ahead, is measured beside 60 frames of the step before."""
    size_window()
    import random

    from kivy.base import EventLoop

    from companion.config import Backend, BuzzerConfig, Config, StoreConfig
    from companion.random_play import random_game
    from companion.rules import SPICY, new_setup
    from companion.table.session import Session
    from companion.ui.app import SpicyApp

    app = SpicyApp(Config(store=StoreConfig(db=folder / "games.db"), buzzers=BuzzerConfig(backend=Backend.KEYBOARD)))
    app._run_prepare()
    app.play_sound = lambda name: None  # type: ignore[method-assign]

    def frames(count: int) -> None:
        for _ in range(count):
            EventLoop.idle()

    def timed(act: Callable[[], None], shown: Callable[[], bool]) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.thread_time()
        act()
        for _ in range(600):
            EventLoop.idle()
            if shown():
                return time.perf_counter() - wall, time.thread_time() - cpu
        raise RuntimeError("it never showed")

    def release(widget: Any) -> Callable[[], None]:
        touch = finger(*widget.to_window(*widget.center))
        EventLoop.post_dispatch_input("begin", touch)
        EventLoop.idle()
        return lambda: EventLoop.post_dispatch_input("end", touch)

    frames(90)  # the store opens, the screens are built ahead
    app.show("setup")
    setup = app.root.get_screen("setup")
    for name in ("Ana", "Ben", "Cy", "Dee"):
        setup.draft.add_seat(name)
    setup.draft.first = 0
    setup.go("first")
    frames(5)
    idle = time.thread_time()
    frames(60)
    idle = time.thread_time() - idle
    next_step = timed(release(setup.ids.next), lambda: setup.step == "table")
    dealing = time.thread_time()
    frames(60)  # a second on set-up's last step, while the table deals: the table is built ahead
    dealing = time.thread_time() - dealing
    start = timed(release(setup.ids.next), lambda: app.root.current == "table")
    frames(60)
    game = next(game for seed in range(100)
                if (game := random_game(random.Random(seed), new_setup(SPICY, ["Ana", "Ben", "Cy", "Dee"], first=0)))
                .state.ended and game.state.window is None)
    assert app.store is not None
    session = Session.new(app.store, game.state.setup)
    for played in game.log[:-2]:
        session.apply(played)
    app.resume_game(session.game_id)
    frames(180)  # the end screen makes its rows while the table plays
    view = app.root.get_screen("table").view
    before_last = timed(lambda: view._apply(game.log[-2]), lambda: True)
    frames(5)
    end = timed(lambda: view._apply(game.log[-1]), lambda: app.root.current == "end")
    after_end = timed(lambda: None, lambda: True)  # the table under the end screen follows the game's end
    print(json.dumps({"next": next_step, "start": start, "action": before_last, "end": end, "after_end": after_end,
                      "dealing": (dealing, dealing), "idle": (idle, idle)}), flush=True)
    app.stop()


PHONES = 0
"""Phones reading the page's stream while the table plays (``--phones``)."""


LANGUAGES: list[str] = []
"""The languages measured beside English (``--language``)."""


def run_child(kind: str, folder: str, language: str = "en") -> dict[str, Any]:
    """Run one measured child process in ``folder``, the table in ``language``; what it printed."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--folder", folder],
        env={**child_env(folder), "BENCH_PHONES": str(PHONES), LANGUAGE: language}, capture_output=True, text=True,
        timeout=300, check=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


class Load:
    """The machine's load average (1 minute, ``os.getloadavg``) over a figure's runs, printed beside it:
    on a shared machine it says how much of a figure is the machine."""

    def __init__(self) -> None:
        self.samples = [os.getloadavg()[0]]

    def sample(self) -> None:
        self.samples.append(os.getloadavg()[0])

    def __str__(self) -> str:
        low, high = min(self.samples), max(self.samples)
        return f"{low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}–{high:.1f}"


def entry_command() -> list[str]:
    """The installed ``spicy-companion`` beside this interpreter: the app started as a user starts it."""
    script = Path(sys.executable).parent / "spicy-companion"
    if not script.exists():
        sys.exit(f"benchmarks/ui.py needs the installed entry point ({script}): pip install -e .")
    return [str(script)]


def one_start(kind: str, language: str = "en") -> tuple[float, float, float]:
    """Seconds from starting the process to its first frame (its READY, as systemd hears it), the CPU
    seconds it had used by then (what a busy machine's other work does not add to), and its peak MiB.

    ``app`` is the ``spicy-companion`` command with no command (the table app,
    keyboard buzzers, a database made beforehand, as on every start but the
    very first); ``bare`` a Kivy app of one ``Label`` given the same Kivy
    settings. Both say READY from the same call at their first flip. The app speaks ``language``.
    """
    from companion.config import DisplayConfig
    from companion.pi.display import kivy_settings
    from companion.store import Store

    with tempfile.TemporaryDirectory() as folder, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        notify = f"{folder}/notify"
        systemd.bind(notify)
        systemd.settimeout(0.2)
        if kind == "app":
            Store.open(Path(folder) / "games.db").close()
            config = Path(folder) / "config.toml"
            config.write_text(f"[store]\ndb = '{folder}/games.db'\n[buzzers]\nbackend = 'keyboard'\n"
                              f"[display]\nwidth = {SIZE[0]}\nheight = {SIZE[1]}\n[ui]\nlanguage = '{language}'\n")
            command = [*entry_command(), "--config", str(config)]
        else:
            settings = kivy_settings(DisplayConfig(width=SIZE[0], height=SIZE[1]))
            command = [sys.executable, __file__, "--child", kind, "--settings", json.dumps(settings)]
        env = {**child_env(folder), "NOTIFY_SOCKET": notify}
        started = time.monotonic()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak_kib = None
        try:
            while process.poll() is None and not _heard(systemd, b"READY=1"):
                pass
            ready = time.monotonic()
            cpu = _cpu_seconds(process.pid)
            time.sleep(0.5)  # settled: images, fonts and sounds loaded
            if process.poll() is None:
                peak_kib = _peak_kib(process.pid)
        finally:
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=60)
        if peak_kib is None:
            sys.exit(f"the {kind} start ended before its first frame:\n{stderr.decode(errors='replace')[-2000:]}")
    return ready - started, cpu, peak_kib / 1024


def _cpu_seconds(pid: int) -> float:
    """User and system time of the process so far, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _heard(systemd: socket.socket, message: bytes) -> bool:
    try:
        return systemd.recv(64) == message
    except TimeoutError:
        return False


def _peak_kib(pid: int) -> int:
    """The process's peak resident set (``VmHWM``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))


def start_up(runs: int) -> list[Row]:
    kinds = ("bare", "app", "bare-japanese", *(f"app-{language}" for language in LANGUAGES))
    first: dict[str, list[float]] = {kind: [] for kind in kinds}
    cpu: dict[str, list[float]] = {kind: [] for kind in kinds}
    peak: dict[str, list[float]] = {kind: [] for kind in kinds}
    load = Load()
    for _ in range(runs):
        for kind in kinds:
            seconds, cpu_seconds, mib = one_start(*kind.split("-")) if kind.startswith("app") else one_start(kind)
            first[kind].append(seconds)
            cpu[kind].append(cpu_seconds)
            peak[kind].append(mib)
        load.sample()
    f_app, f_bare = statistics.median(first["app"]), statistics.median(first["bare"])
    c_app, c_bare = statistics.median(cpu["app"]), statistics.median(cpu["bare"])
    p_app, p_bare = statistics.median(peak["app"]), statistics.median(peak["bare"])
    f_ja, p_ja = statistics.median(first["bare-japanese"]), statistics.median(peak["bare-japanese"])
    return [
        ("time to the first frame, through `spicy-companion`", f"{f_app * 1000:.0f} ms",
         f"bare Kivy app {f_bare * 1000:.0f} ms: {f_app / f_bare:.2f}x", "at most 1.2x the bare app", str(load)),
        ("CPU time to the first frame (all threads)", f"{c_app * 1000:.0f} ms",
         f"bare Kivy app {c_bare * 1000:.0f} ms: {c_app / c_bare:.2f}x", "at most 1.2x the bare app", str(load)),
        ("peak memory", f"{p_app:.1f} MiB", f"bare Kivy app {p_bare:.1f} MiB: {p_app / p_bare:.2f}x",
         "at most 1.3x the bare app", str(load)),
        ("time to the first frame, the bare app in Japanese (the app's Japanese font)", f"{f_ja * 1000:.0f} ms",
         f"in Roboto {f_bare * 1000:.0f} ms: {f_ja / f_bare:.2f}x", "what the font adds to a first frame", str(load)),
        ("peak memory, the bare app in Japanese", f"{p_ja:.1f} MiB", f"in Roboto {p_bare:.1f} MiB: +{p_ja - p_bare:.1f} MiB",
         "what the font adds to memory", str(load)),
        *(row for language in LANGUAGES for row in language_start(language, first, cpu, peak, str(load))),
    ]


def language_start(language: str, first: dict[str, list[float]], cpu: dict[str, list[float]],
                   peak: dict[str, list[float]], load: str) -> list[Row]:
    """The app started in ``language``, against the bare app (the same targets as English) and English."""
    kind, bare = f"app-{language}", statistics.median(first["bare"])
    f_in, f_en = statistics.median(first[kind]), statistics.median(first["app"])
    c_in, c_bare = statistics.median(cpu[kind]), statistics.median(cpu["bare"])
    p_in, p_en, p_bare = statistics.median(peak[kind]), statistics.median(peak["app"]), statistics.median(peak["bare"])
    return [
        (f"time to the first frame, through `spicy-companion`, in `{language}`", f"{f_in * 1000:.0f} ms",
         f"bare Kivy app {bare * 1000:.0f} ms: {f_in / bare:.2f}x; in English {f_en * 1000:.0f} ms",
         within("first frame", f_in / bare, 1.2), load),
        (f"CPU time to the first frame, in `{language}`", f"{c_in * 1000:.0f} ms",
         f"bare Kivy app {c_bare * 1000:.0f} ms; in English {statistics.median(cpu['app']) * 1000:.0f} ms",
         within("CPU", c_in / c_bare, 1.2), load),
        (f"peak memory, in `{language}`", f"{p_in:.1f} MiB",
         f"bare Kivy app {p_bare:.1f} MiB; in English {p_en:.1f} MiB (+{p_in - p_en:.1f} MiB)",
         within("memory", p_in / p_bare, 1.3), load),
    ]


def percentile(values: list[float], share: float) -> float:
    """The value that ``share`` of ``values`` stay at or under (nearest rank)."""
    ranked = sorted(values)
    return ranked[min(len(ranked) - 1, max(0, round(share * len(ranked)) - 1))]


def table(_runs: int) -> list[Row]:
    """One table run (its 600-odd frames, 100 taps and 50 challenges are samples enough), in English and then
    in each ``--language``, each of its rows saying which."""
    rows = table_rows("en")
    for language in LANGUAGES:
        rows += [(f"{row[0]}, in `{language}`", *row[1:]) for row in table_rows(language)]
    return rows


def table_rows(language: str) -> list[Row]:
    load = Load()
    with tempfile.TemporaryDirectory() as folder:
        result = run_child("table", folder, language)
    load.sample()
    ms = {key: [value * 1000 for value in values] for key, values in result.items() if isinstance(values, list)}
    beyond = [value - result["settle_ms"] for value in ms["sheets"]]
    redraw = statistics.median(ms["redraw"])
    busy_p99, redraw_p99 = percentile(ms["busy"], 0.99), percentile(ms["redraw"], 0.99)
    phones = f", {PHONES} phones each read {min(result['phones'])} to {max(result['phones'])} events" if PHONES else ""
    return [
        ("frames while 100 buzzer presses and 100 actions arrive" + phones,
         f"{statistics.median(ms['busy']):.1f} ms, p99 {busy_p99:.1f} ms ({len(ms['busy'])} frames)",
         f"the same table redrawn with nothing arriving: {redraw:.1f} ms, p99 {redraw_p99:.1f} ms",
         within("p99", busy_p99 / redraw_p99, 1.5), str(load)),
        ("of those frames, the UI thread's CPU time",
         f"{statistics.median(ms['busy_cpu']):.1f} ms, p99 {percentile(ms['busy_cpu'], 0.99):.1f} ms",
         f"redrawn with nothing arriving: {statistics.median(ms['redraw_cpu']):.1f} ms, "
         f"p99 {percentile(ms['redraw_cpu'], 0.99):.1f} ms", "—", str(load)),
        ("of a drawn frame, the flip (GL rasterizing and showing it)",
         f"{statistics.median(ms['busy_flips']):.1f} ms, p99 {percentile(ms['busy_flips'], 0.99):.1f} ms "
         f"({len(ms['busy_flips'])} frames)",
         f"redrawn with nothing arriving: {statistics.median(ms['redraw_flips']):.1f} ms", "—", str(load)),
        ("a tap to the end of the frame showing its result, save included",
         f"{statistics.median(ms['taps']):.1f} ms, p99 {percentile(ms['taps'], 0.99):.1f} ms ({len(ms['taps'])} taps); "
         f"UI thread CPU {statistics.median(ms['taps_cpu']):.1f} ms, p99 {percentile(ms['taps_cpu'], 0.99):.1f} ms",
         f"one redraw: {redraw:.1f} ms ({statistics.median(ms['taps']) / redraw:.2f}x)", "median under 30 ms",
         str(load)),
        ("the deciding press to the challenge sheet drawn, beyond the settle time",
         f"{statistics.median(beyond):.1f} ms, p99 {percentile(beyond, 0.99):.1f} ms ({len(beyond)} presses)",
         f"settle time {result['settle_ms']:.0f} ms; one redraw {redraw:.1f} ms", f"under one frame ({FRAME * 1000:.1f} ms)",
         str(load)),
        first_sheet_row(beyond, ms["sheets_cpu"], str(load)),
    ]


def first_sheet_row(beyond: list[float], cpu: list[float], load: str) -> Row:
    """The game's first challenge sheet against the later ones: the first once cost twice the rest (its
    textures and layout made on its frame). The CPU of the UI thread in those frames is beside the wall
    time: a busy machine adds nothing to it, and one first sheet a run is a single sample."""
    first, rest = beyond[0], statistics.median(beyond[1:])
    first_cpu, rest_cpu = cpu[0], statistics.median(cpu[1:])
    return ("the first challenge sheet against the median of the rest, beyond the settle time",
            f"{first:.1f} ms, UI thread CPU {first_cpu:.1f} ms",
            f"the other {len(beyond) - 1}: {rest:.1f} ms, CPU {rest_cpu:.1f} ms "
            f"({first / rest:.2f}x; CPU {first_cpu / rest_cpu:.2f}x)", "the same (1x)", load)


def moments(runs: int) -> list[Row]:
    """``runs`` fresh apps, each starting one game from set-up and ending another: the first of each
    in the app's life, as at a table. Each run starts a bare Kivy app too, whose CPU time to its first
    frame is what "Start the game" is held to: the least a Kivy window costs this machine."""
    found: dict[str, list[tuple[float, float]]] = {}
    bare: list[float] = []
    load = Load()
    for _ in range(runs):
        bare.append(one_start("bare")[1])
        with tempfile.TemporaryDirectory() as folder:
            for key, value in run_child("moments", folder).items():
                found.setdefault(key, []).append(value)
        load.sample()

    def cpu(key: str) -> float:
        return statistics.median(value[1] for value in found[key])

    def ms(key: str) -> str:
        wall = statistics.median(value[0] for value in found[key]) * 1000
        return f"{wall:.0f} ms, UI thread CPU {cpu(key) * 1000:.0f} ms"

    first_frame = statistics.median(bare)
    return [
        ("\"Start the game\": the tap's release to the table drawn", ms("start"),
         f"the bare Kivy app's CPU to its first frame: {first_frame * 1000:.0f} ms; set-up's Next: {ms('next')}",
         within("UI thread CPU", cpu("start") / first_frame, 0.25), str(load)),
        ("set-up's last step, its first 60 frames (the table built ahead while the table deals)",
         f"UI thread CPU {cpu('dealing') * 1000:.0f} ms",
         f"60 frames of the step before: {cpu('idle') * 1000:.0f} ms", "—", str(load)),
        ("the end of a game: its last action to the end screen drawn", ms("end"),
         f"the action before it: {ms('action')}", within("UI thread CPU", cpu("end") / cpu("action"), 1), str(load)),
        ("the frame after the end screen (the table under it catches up)", ms("after_end"),
         f"the action before the end: UI thread CPU {cpu('action') * 1000:.0f} ms", "—", str(load)),
    ]


def within(what: str, ratio: float, most: float) -> str:
    """A budget held to a baseline of the same run: the ratio, the most it may be, and whether it was met."""
    return f"{what} at most {most:g}x the baseline: {ratio:.2f}x, **{'met' if ratio <= most else 'not met'}**"


FIGURES: list[Callable[[int], list[Row]]] = [start_up, moments, table]
"""Each returns rows of (figure, median, baseline in the same run, target, load while measuring)."""


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


def confined() -> str:
    """The CPU the run was held to (benchmarks/quarter_core.py), for the figures' header; "" when none."""
    held = os.environ.get("SPICY_BENCH_CONFINED")
    return f"; every process of the run held to {held}" if held else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", choices=[figure.__name__ for figure in FIGURES], action="append",
                        help="measure only these figures")
    parser.add_argument("--child", choices=("bare", "bare-japanese", "table", "moments", "phones"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--settings", help=argparse.SUPPRESS)
    parser.add_argument("--speech", action="store_true",
                        help="the table with its spoken calls on (espeak-ng, as Settings turns them on)")
    parser.add_argument("--phones", type=int, default=0, help="phones reading the page while the table plays")
    parser.add_argument("--language", action="append", default=[],
                        help="a code of companion/languages.py measured beside English in the same run (repeatable)")
    args = parser.parse_args()
    LANGUAGES[:] = [language for language in args.language if language != "en"]
    if args.speech:
        os.environ[SPEECH] = "1"  # the children's environment is this one's
    global PHONES
    PHONES = args.phones
    if args.child == "table":
        table_child(args.folder)
        return
    if args.child == "moments":
        moments_child(args.folder)
        return
    if args.child == "phones":
        phones_child(args.settings)
        return
    if args.child in ("bare", "bare-japanese"):
        bare_child(args.settings, japanese=args.child == "bare-japanese")
        return
    with_display()
    # Each start is ended by SIGINT: a run started in the background (``&`` in a script) inherits it ignored,
    # and so would every app it starts; a handler of our own is reset to the default in each of them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print(f"medians of {args.runs} starts each, the app and a bare Kivy app taking turns, at {SIZE[0]}x{SIZE[1]}; "
          f"load: the 1-minute load average over the figure's runs ({os.cpu_count()} cores){confined()}")
    print("| figure | median | baseline in the same run | target | load |")
    print("|---|---|---|---|---|")
    for figure in FIGURES:
        if args.only and figure.__name__ not in args.only:
            continue
        for row in figure(args.runs):
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
