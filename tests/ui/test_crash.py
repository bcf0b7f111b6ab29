"""Crash safety: the real command, set up by real clicks and keys on the X display, killed with -9, reopens its table.

The app runs as its own process on the test's virtual display; ``xdotool``
moves the X pointer, clicks and types, as a mouse and keyboard would, on the
set-up and then on the table's claim pad. Where to click comes from the same
app laid out in this process at the same size.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


from companion.config import StoreConfig
from companion.rules import SPICY, Action, Pass, Play, new_setup
from companion.table.session import Session
from companion.store import Store
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from table_helpers import within

HERE = Path(__file__).resolve().parent
SIZE = (800, 480)


def own_display() -> tuple[str, subprocess.Popen[bytes]]:
    """A second virtual screen, so the app's window is the only one there, at the top left."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        return f":{pipe.readline().strip()}", xvfb


class AppProcess:
    """``spicy-companion --config FILE`` under the launcher, its stdout read line by line."""

    def __init__(self, config: Path, home: Path, display: str) -> None:
        env = {
            **os.environ,
            "DISPLAY": display,
            "KCFG_GRAPHICS_WIDTH": str(SIZE[0]),
            "KCFG_GRAPHICS_HEIGHT": str(SIZE[1]),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "KIVY_HOME": str(home / "kivy"),
            "KCFG_GRAPHICS_POSITION": "custom",
            "KCFG_GRAPHICS_LEFT": "0",
            "KCFG_GRAPHICS_TOP": "0",
        }
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "app_process.py"), "--config", str(config)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.display = display
        self.lines: queue.Queue[str] = queue.Queue()
        self.focused = threading.Event()
        """The set-up's name field has the focus (its ``focus`` lines, read as they come)."""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("focus "):
                (self.focused.set if line.strip() == "focus True" else self.focused.clear)()
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, prefix: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the app never printed {prefix!r}") from None
            if line.startswith(prefix):
                return line[len(prefix) :].strip()

    def click(self, at: tuple[float, float], shows: str = "") -> None:
        """Click at ``at``; with ``shows``, wait for the line that says the app took the click in."""
        self.xdotool("mousemove", str(round(at[0])), str(round(at[1])))
        time.sleep(0.15)
        self.xdotool("click", "1")
        if shows:
            self.wait_for(shows)
        else:
            time.sleep(0.4)

    def first_click(self, at: tuple[float, float], shows: str) -> None:
        """Click until the app shows ``shows``: a freshly mapped window may miss the first pointer events."""
        for _ in range(10):
            self.click(at)
            try:
                self.wait_for(f"screen {shows}", seconds=1)
                return
            except AssertionError:
                continue
        raise AssertionError(f"clicks never reached the app's {shows} button")

    def type(self, text: str, shows: str) -> None:
        """Type ``text`` and Return, and wait for the line that says the app took it in."""
        self.xdotool("type", "--delay", "30", text)
        self.xdotool("key", "Return")
        self.wait_for(shows)

    def xdotool(self, *args: str) -> None:
        result = subprocess.run(
            ["xdotool", *args], capture_output=True, text=True, timeout=20, env={**os.environ, "DISPLAY": self.display}
        )
        assert result.returncode == 0, f"xdotool {' '.join(args)}: {result.stderr.strip()}"

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def where(widget: Any) -> tuple[float, float]:
    """A widget's centre in X coordinates (from the window's top left)."""
    x, y = widget.to_window(*widget.center)
    return x, SIZE[1] - y


def click_map(ui: Any, names: list[str]) -> dict[str, tuple[float, float]]:
    """Where each button of the set-up is at 800x480, from the same app laid out here."""
    app = ui.start(size=SIZE, config=ui.config(store=StoreConfig(db=ui.tmp_path / "layout.db")))  # not the game's file
    home = app.screen("home")
    setup = app.screen("setup")
    spots = {"new game": where(home.ids.new_game)}
    app.show("setup")
    ui.step(2)
    spots["next"] = where(setup.ids.next)
    setup.go("seats")
    ui.step(2)
    spots["name"] = where(setup.ids.new_name)
    for name in names:
        setup.draft.add_seat(name)
    setup.go("first")
    ui.step(3)
    choices = {choice.seat: choice for choice in setup.ids.first_seats.children}
    spots["second seat"] = where(choices[1])
    setup.go("table")
    ui.step(2)
    spots["more"] = where(setup.ids.more)
    app.start_game(new_setup(SPICY, names, first=1))
    ui.step(3)
    table = app.screen("table")
    pad = table.ids.pad
    spots["wasabi"] = where(within(pad, SpiceButton, spice="wasabi"))
    ui.tap(within(pad, SpiceButton, spice="wasabi"))
    for number in (2, 4):
        spots[str(number)] = where(within(pad, NumberButton, number=number))
    spots["pass"] = where(table.ids.pass_button)
    ui.stop()
    return spots


def saved_actions(db: Path, count: int, seconds: float = 10) -> list[Action]:
    """The last game's log once it holds ``count`` actions: the app saves each one as it is played."""
    deadline = time.monotonic() + seconds
    with Store.open(db) as store:
        while True:
            log = [logged.action for logged in store.load(store.list_games()[0].id).log]
            if len(log) >= count or time.monotonic() > deadline:
                return log
            time.sleep(0.1)


def test_killed_with_minus_9_the_app_reopens_on_the_same_table(ui: Any, tmp_path: Path) -> None:
    names = ["Ana", "Ben", "Cy"]
    spots = click_map(ui, names)
    db = tmp_path / "games.db"
    config = tmp_path / "config.toml"
    config.write_text(
        f'[store]\ndb = "{db}"\n[buzzers]\nbackend = "keyboard"\n[display]\nwidth = {SIZE[0]}\nheight = {SIZE[1]}\n'
        '[ui]\nkeyboard = "physical"\n'  # names are typed on the X server's keyboard
    )

    display, xvfb = own_display()
    app = AppProcess(config, tmp_path, display)
    try:
        app.wait_for("started")
        app.first_click(spots["new game"], shows="setup")
        app.click(spots["next"], shows="setup seats")  # the rules as they are: Spicy, no variant cards
        for typed, name in enumerate(names, 1):
            app.click(spots["name"])
            assert app.focused.wait(30), "the name field never took the focus"
            app.type(name, shows="seats " + json.dumps(names[:typed]))
        app.click(spots["next"], shows="setup buzzers")
        app.click(spots["next"], shows="setup first")  # no buzzers pressed: wiring order
        app.click(spots["second seat"], shows="seats")
        app.click(spots["next"], shows="setup table")
        app.click(spots["more"])
        app.click(spots["next"])  # start the game
        opened = json.loads(app.wait_for("table"))
        assert [seat["name"] for seat in opened["seats"]] == names
        assert opened["turn"] == "Ben" and opened["deck"] == 100 - 18 - 28

        for spot in ("wasabi", "2", "wasabi", "4", "pass"):  # Ben and Cy declare on the pad; Ana passes
            app.click(spots[spot])
        played = [Play(1, "wasabi", 2), Play(2, "wasabi", 4), Pass(0)]
        assert saved_actions(db, len(played)) == played
        app.kill()
        with Store.open(db) as store:
            session = Session.resume(store)
            assert session is not None
            expected = session.state.to_json()
        again = AppProcess(config, tmp_path, display)
        try:
            reopened = json.loads(again.wait_for("table"))
            again.wait_for("started")
        finally:
            again.close()
    finally:
        app.close()
        xvfb.terminate()
        xvfb.wait(timeout=10)
    assert reopened == expected
    assert reopened["stack"] == 2 and reopened["turn"] == "Ben"
