"""``doctor`` on gpiozero's MockFactory, a real pty, real device folders and a real unwritable file.

The buttons and lights need a person: here a thread plays one, watching the
mock LED pins and pressing mock buttons as the doctor asks.
"""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from buzzers_fixtures import PtyPair
from companion import __version__
from companion.buzzers import protocol
from companion.config import BuzzerConfig, Config, StoreConfig
from companion.pi.doctor import Doctor

REPO = Path(__file__).parent.parent
UNPRIVILEGED = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
BUTTONS = (5, 6, 13, 19, 26, 16)
LEDS = (17, 27, 22, 23, 24, 25)


class ShortedPin(MockPin):
    """A button pin touching ground (a stuck button): the pull-up cannot lift it."""

    def drive_high(self) -> None:
        self.drive_low()


class Person(threading.Thread):
    """Presses every button when all lights come on, and a button whenever they see a single light."""

    def __init__(self, factory: MockFactory, *, skips: int, cannot_see: int) -> None:
        super().__init__(daemon=True)
        self.factory, self.skips, self.cannot_see = factory, skips, cannot_see
        self.done = threading.Event()

    def press(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()
        time.sleep(0.03)
        self.factory.pin(pin).drive_high()

    def run(self) -> None:
        answered: set[int] = set()
        pressed_all = False
        while not self.done.wait(0.005):
            lit = [seat for seat, pin in enumerate(LEDS) if self.factory.pin(pin).state]
            if len(lit) == len(LEDS) and not pressed_all:
                for seat, pin in enumerate(BUTTONS):
                    if seat != self.skips and self.factory.pin(pin).state:  # not the one held down
                        self.press(pin)
                pressed_all = True
            elif len(lit) == 1 and lit[0] not in answered and lit[0] != self.cannot_see:
                answered.add(lit[0])
                self.press(BUTTONS[0])


def findings(out: io.StringIO) -> list[str]:
    """The checks' lines, after the facts about the machine."""
    return [line for line in out.getvalue().splitlines() if not line.startswith("about")]


def config(tmp_path: Path, **buzzers: object) -> Config:
    buzzers = {"button_pins": BUTTONS, "led_pins": LEDS, **buzzers}
    return Config(store=StoreConfig(db=tmp_path / "games.db"), buzzers=replace(BuzzerConfig(), **buzzers))


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_a_stuck_button_a_silent_button_and_a_missing_light_each_get_their_line(
    factory: MockFactory, tmp_path: Path
) -> None:
    factory.pin(BUTTONS[2], pin_class=ShortedPin)  # seat 3 is stuck down
    person = Person(factory, skips=5, cannot_see=4)
    person.start()
    out = io.StringIO()
    status = Doctor(config(tmp_path, backend="gpio"), out, seconds=0.5, pin_factory=factory).run()
    person.done.set()
    lines = findings(out)
    assert status == 1
    assert lines[0].startswith("ok       pin factory: mock: each edge carries its own time")
    assert "ok       seat 1 button (BCM 5): pressed" in lines
    assert "ok       seat 2 button (BCM 6): pressed" in lines
    stuck = lines.index("PROBLEM  seat 3 button (BCM 13): held down from the start")
    assert lines[stuck + 1] == "  fix:   free the button, or look for its BCM 13 wire touching ground"
    silent = lines.index("PROBLEM  seat 6 button (BCM 16): no press seen")
    assert lines[silent + 1].startswith("  fix:   check the button's two wires: one to BCM 16")
    assert "ok       seat 4 light (BCM 23): seen" in lines
    dark = lines.index("PROBLEM  seat 5 light (BCM 24): not seen")
    assert lines[dark + 1].startswith("  fix:   check the light's wiring: BCM 24 to its driver's input")
    assert "ok       seat 6 light (BCM 25): seen" in lines


class CallbackTimeFactory(MockFactory):
    """Pins like RPi.GPIO's: gpiozero's mock, under a name that stamps no edges in the kernel."""


def test_a_pin_factory_without_kernel_edge_times_gets_its_line(tmp_path: Path) -> None:
    out = io.StringIO()
    factory = CallbackTimeFactory()
    Doctor(config(tmp_path, backend="gpio"), out, seconds=0, pin_factory=factory).run()
    factory.reset()
    lines = findings(out)
    assert lines[0] == "PROBLEM  pin factory: callbacktime: edge times are taken when Python gets to them, not by the kernel"
    assert lines[1] == (
        "  fix:   install lgpio (sudo apt-get install python3-lgpio; the installer does) "
        "so close presses are ordered by the kernel's time"
    )


def test_no_serial_box_gets_its_line(tmp_path: Path) -> None:
    out = io.StringIO()
    checked = config(tmp_path, backend="serial", serial_ports=(str(tmp_path / "ttyACM9"),))
    assert Doctor(checked, out, seconds=0.2).run() == 1
    lines = findings(out)
    assert lines[0] == f"PROBLEM  buzzer box: nothing on {tmp_path / 'ttyACM9'}"
    assert lines[1].startswith("  fix:   plug the box in (USB), install the udev rule")


@pytest.mark.parametrize(
    ("answer", "line"),
    [
        (protocol.encode_hello(6, held=0, micros=1234), "ok       buzzer box on {port}: protocol 3, 6 seats"),
        (b"HELLO spicy-buzzers 2 6 0 1234\n", "ok       buzzer box on {port}: protocol 2, 6 seats; its firmware cannot "
         "pulse the seat to play's light (flash hardware/firmware again to have it)"),
        (b"HELLO spicy-buzzers 1 6\n", "PROBLEM  buzzer box on {port}: protocol 1, this app 3"),
        (b"", "PROBLEM  buzzer box on {port}: no HELLO in answer to '?'"),
    ],
)
def test_the_box_handshake_on_a_pty(tmp_path: Path, answer: bytes, line: str) -> None:
    pty = PtyPair()

    def box() -> None:
        if os.read(pty.master, 64).startswith(protocol.encode_query()):
            os.write(pty.master, answer)

    threading.Thread(target=box, daemon=True).start()
    out = io.StringIO()
    Doctor(config(tmp_path, backend="serial", serial_ports=(pty.path,)), out, seconds=0.3).run()
    assert findings(out)[0] == line.format(port=pty.path)


def test_display_and_touch_devices_are_found_by_what_the_kernel_says(tmp_path: Path) -> None:
    dev, sys_dir = tmp_path / "dev", tmp_path / "sys"
    (dev / "dri").mkdir(parents=True)
    (dev / "input").mkdir()
    (dev / "dri" / "card1").touch()
    for event, name, properties in (("event2", "USB keyboard", "0"), ("event5", "generic ft5x06 (79)", "2")):
        (sys_dir / "class" / "input" / event / "device").mkdir(parents=True)
        (sys_dir / "class" / "input" / event / "device" / "name").write_text(name + "\n")
        (sys_dir / "class" / "input" / event / "device" / "properties").write_text(properties + "\n")
        (dev / "input" / event).touch()
    out = io.StringIO()
    Doctor(config(tmp_path, backend="keyboard"), out, dev=dev, sys_dir=sys_dir).run()
    lines = findings(out)
    assert f"ok       display: {dev}/dri/card1 opens for this user" in lines
    assert [line for line in lines if line[9:].startswith("touch")] == [
        f"ok       touch (generic ft5x06 (79)): {dev}/input/event5 opens for this user"
    ]


def test_no_display_and_no_touchscreen_each_say_what_to_do(tmp_path: Path) -> None:
    out = io.StringIO()
    Doctor(config(tmp_path, backend="keyboard"), out, dev=tmp_path, sys_dir=tmp_path).run()
    text = out.getvalue()
    assert f"PROBLEM  display: no {tmp_path}/dri/card*\n  fix:   turn KMS on: dtoverlay=vc4-kms-v3d" in text
    assert "PROBLEM  touch: no touchscreen among the input devices\n  fix:   check the display's ribbon cable" in text


def test_an_unwritable_database_gets_its_line() -> None:
    """Run as an unprivileged user (root may write anything), on a saved-games file it may only read."""
    folder = Path(tempfile.mkdtemp(prefix="spicy-doctor-"))
    try:
        folder.chmod(0o755)
        db = folder / "games.db"
        db.write_bytes(b"")
        db.chmod(0o444)
        settings = folder / "config.toml"
        settings.write_text(f"[store]\ndb = '{db}'\n[buzzers]\nbackend = 'gpio'\n")
        settings.chmod(0o644)
        result = subprocess.run(
            [*UNPRIVILEGED, sys.executable, "-m", "companion.cli", "--config", str(settings), "doctor", "--seconds", "0"],
            capture_output=True, text=True, cwd=REPO,
            env={**os.environ, "HOME": str(folder), "GPIOZERO_PIN_FACTORY": "mock"},
        )  # fmt: skip
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    assert result.returncode == 1, result.stderr
    assert f"PROBLEM  database: {db} (0 bytes) cannot be written by this user\n" in result.stdout
    assert f"  fix:   give it to the user that runs the app (sudo chown -R USER {folder})" in result.stdout


def test_the_facts_a_problem_report_needs_come_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi 5 as its kernel shows it: the GPU's card without outputs, the display's card with DSI connected."""
    etc, sys_dir, dev, proc = (tmp_path / name for name in ("etc", "sys", "dev", "proc"))
    etc.mkdir()
    (etc / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n')
    (sys_dir / "firmware/devicetree/base").mkdir(parents=True)
    (sys_dir / "firmware/devicetree/base/model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    drivers = sys_dir / "bus/platform/drivers"
    for card, driver, outputs in (("card0", "v3d", {}), ("card1", "vc4-drm", {"DSI-1": "connected", "HDMI-A-1": "disconnected"})):
        (drivers / driver).mkdir(parents=True)
        (sys_dir / "class/drm" / card / "device").mkdir(parents=True)
        (sys_dir / "class/drm" / card / "device/driver").symlink_to(drivers / driver)
        for output, status in outputs.items():
            (sys_dir / "class/drm" / f"{card}-{output}").mkdir()
            (sys_dir / "class/drm" / f"{card}-{output}/status").write_text(status + "\n")
        (dev / "dri").mkdir(parents=True, exist_ok=True)
        (dev / "dri" / card).touch()
    (sys_dir / "class/input/event4/device").mkdir(parents=True)
    (sys_dir / "class/input/event4/device/name").write_text("10-0038 generic ft5x06 (00)\n")
    (sys_dir / "class/input/event4/device/properties").write_text("2\n")
    (proc / "asound").mkdir(parents=True)
    (proc / "asound/cards").write_text(
        " 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n                      vc4-hdmi-0\n"
    )
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "KIVY_WINDOW", "SDL_KMSDRM_DEVICE_INDEX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    out = io.StringIO()
    factory = MockFactory()
    try:
        Doctor(config(tmp_path, backend="keyboard"), out, pin_factory=factory, dev=dev, sys_dir=sys_dir, etc=etc, proc=proc).run()
    finally:
        factory.reset()
    lines = out.getvalue().splitlines()
    assert lines[0] == "about this machine (send these lines with a problem report):"
    assert lines[1].startswith("about    system: Debian GNU/Linux 13 (trixie); Raspberry Pi 5 Model B Rev 1.0; kernel ")
    assert lines[2].startswith(f"about    versions: spicy-companion {__version__}, Python {sys.version.split()[0]}, Kivy ")
    assert lines[3:8] == [
        "about    pin factory: mock",
        "about    video: SDL_VIDEODRIVER=kmsdrm",
        "about    DRM cards: card0 (v3d; nothing connected), card1 (vc4-drm; DSI-1 connected)",
        "about    touch devices: event4 (10-0038 generic ft5x06 (00))",
        "about    sound cards: vc4-hdmi - vc4-hdmi-0",
    ]


def test_without_a_pin_library_the_facts_say_why_each_one_failed(tmp_path: Path) -> None:
    """gpiozero's own reasons, as a user on a Pi without lgpio would send them."""
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "doctor", "--seconds", "0", "--db", str(tmp_path / "games.db")],
        capture_output=True, text=True, cwd=REPO,
        env={**{k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}, "HOME": str(tmp_path)},
    )  # fmt: skip
    [line] = [line for line in result.stdout.splitlines() if line.startswith("about    pin factory:")]
    if importlib.util.find_spec("lgpio") is None:
        assert "lgpio: No module named 'lgpio'" in line, line
    assert result.stderr == ""  # gpiozero's fallback warnings are in the report line, not sprayed on the terminal
