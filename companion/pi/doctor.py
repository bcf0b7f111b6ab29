"""``spicy-companion doctor``: what is wrong with this Pi's set-up, and what to do about it.

It starts with the facts a problem report needs (the system, the versions
of Python, Kivy, gpiozero and lgpio, the pin factory, the SDL video driver,
the DRM cards and what is connected to them, the touch devices, the sound
cards), since most of what can go wrong on a Pi depends on them. Then it
checks, in this order: the pin factory (and whether edge times come from
the kernel), each button (the person presses them) and each LED (the person
watches them light), the USB buzzer box and its handshake, the display and
touch devices (and whether this user may open them), and the database. Every
finding is one line; every problem is followed by one line saying what to fix.
The exit status is 1 when there is a problem, so a script can ask too.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import shutil
import sys
import threading
import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from companion import __version__
from companion.buzzers import BuzzerError, GpioBuzzers, open_buzzers, pin_factory_timing, probe_box
from companion.buzzers.protocol import OLDEST, TURN_FROM, VERSION
from companion.config import Backend, Config, load_config
from companion.pi.install import SERVICE, USER
from companion.pi.logs import package_version

LOW_DISK = 200 * 1024 * 1024
"""Below this much free space the saved games and the journal are at risk."""


VIDEO_ENVIRONMENT = ("SDL_VIDEODRIVER", "SDL_KMSDRM_DEVICE_INDEX", "KIVY_WINDOW", "DISPLAY", "WAYLAND_DISPLAY")
"""What decides where SDL draws: KMSDRM on a card, or a desktop session's X11 or Wayland."""


def _text(path: Path) -> str:
    """A small kernel or system file's text, or "" when it is not there (not a Pi, not Linux)."""
    try:
        return path.read_text(errors="replace").strip().strip("\0")
    except OSError:
        return ""


def _read(path: Path, key: str) -> str:
    """One value of an os-release style file (KEY="value" lines)."""
    for line in _text(path).splitlines():
        name, _, value = line.partition("=")
        if name == key:
            return value.strip().strip('"')
    return ""


def _size(count: float) -> str:
    """
    >>> _size(1536), _size(3 * 1024**3)
    ('1.5 KB', '3.0 GB')
    """
    for unit in ("bytes", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


class Doctor:
    """Runs the checks, printing each finding as it comes (the person may be asked to act)."""

    def __init__(
        self,
        config: Config,
        out: TextIO,
        *,
        seconds: float = 10.0,
        pin_factory: Any = None,
        dev: Path = Path("/dev"),
        sys_dir: Path = Path("/sys"),
        etc: Path = Path("/etc"),
        proc: Path = Path("/proc"),
    ) -> None:
        self.config = config
        self.out = out
        self.seconds = seconds
        self.pin_factory = pin_factory
        self.dev = dev
        self.sys_dir = sys_dir
        self.etc = etc
        self.proc = proc
        self.problems = 0

    def ok(self, finding: str) -> None:
        print(f"ok       {finding}", file=self.out)

    def problem(self, finding: str, fix: str) -> None:
        self.problems += 1
        print(f"PROBLEM  {finding}\n  fix:   {fix}", file=self.out)

    def say(self, line: str) -> None:
        print(f"         {line}", file=self.out, flush=True)

    def fact(self, what: str, value: str) -> None:
        print(f"about    {what}: {value}", file=self.out)

    def run(self) -> int:
        self.facts()
        buzzers = self.config.buzzers
        box_present = any(os.path.exists(port) for port in buzzers.serial_ports)
        if buzzers.backend == "serial" or (buzzers.backend == "auto" and box_present):
            self.check_box()
        elif buzzers.backend == "keyboard":
            self.ok(f"buzzers: the keys {' '.join(buzzers.keys)} (backend = \"keyboard\"); no pins to check")
        else:
            self.check_pins()
        self.check_display()
        self.check_touch()
        self.check_database()
        print("all good" if not self.problems else f"{self.problems} problem(s)", file=self.out)
        return 1 if self.problems else 0

    # what a problem report needs

    def facts(self) -> None:
        print("about this machine (send these lines with a problem report):", file=self.out)
        system = _read(self.etc / "os-release", "PRETTY_NAME") or "unknown system"
        model = _text(self.sys_dir / "firmware" / "devicetree" / "base" / "model") or "not a Raspberry Pi"
        self.fact("system", f"{system}; {model}; kernel {platform.release()} {platform.machine()}")
        lgpio = importlib.util.find_spec("lgpio")
        self.fact(
            "versions",
            f"spicy-companion {__version__}, Python {platform.python_version()}, Kivy {package_version('kivy')}, "
            f"gpiozero {package_version('gpiozero')}, lgpio {package_version('lgpio')}"
            + (f" ({lgpio.origin})" if lgpio and lgpio.origin else ""),
        )
        self.fact("pin factory", self.factory_name())
        environment = [f"{name}={os.environ[name]}" for name in VIDEO_ENVIRONMENT if name in os.environ]
        self.fact("video", ", ".join(environment) or "SDL chooses (no SDL_VIDEODRIVER, no DISPLAY)")
        self.fact("DRM cards", ", ".join(self.drm_card(card) for card in self.cards()) or "none")
        touch = [f"{event} ({name})" for event, name in self.touchscreens()]
        self.fact("touch devices", ", ".join(touch) or "none")
        cards = _text(self.proc / "asound" / "cards")
        sound = [found[1] for line in cards.splitlines() if (found := re.match(r"\s*\d+ \[.*\]: (.*)", line))]
        self.fact("sound cards", ", ".join(sound) or "none")

    def factory_name(self) -> str:
        """The pin factory gpiozero picks here (or was given), opened only to be named, then closed."""
        if self.pin_factory is not None:
            return pin_factory_timing(self.pin_factory)[0]
        from gpiozero import Device
        from gpiozero.exc import PinFactoryFallback

        with warnings.catch_warnings(record=True) as fallbacks:  # why each library before it did not load
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                factory = Device._default_pin_factory()
            except Exception:  # noqa: BLE001 - each pin library fails its own way; its words are the report
                factory = None
        why = "; ".join(str(warning.message).removeprefix("Falling back from ") for warning in fallbacks)
        if factory is None:
            return f"none ({why})"
        try:
            return pin_factory_timing(factory)[0] + (f" (after {why})" if why else "")
        finally:
            factory.close()

    def cards(self) -> list[Path]:
        return sorted((self.dev / "dri").glob("card*"))

    def drm_card(self, card: Path) -> str:
        """A card, its driver, and its connected outputs: which card drives the display (a Pi 5 has two)."""
        drm = self.sys_dir / "class" / "drm"
        driver = drm / card.name / "device" / "driver"
        outputs = sorted(
            connector.name.removeprefix(card.name + "-")
            for connector in drm.glob(f"{card.name}-*")
            if _text(connector / "status") == "connected"
        )
        name = os.path.basename(os.readlink(driver)) if driver.is_symlink() else "driver unknown"
        return f"{card.name} ({name}; {', '.join(outputs) + ' connected' if outputs else 'nothing connected'})"

    def touchscreens(self) -> list[tuple[str, str]]:
        """The input devices that are touchscreens (INPUT_PROP_DIRECT, so not a touchpad), by event name."""
        found = []
        for event in sorted((self.sys_dir / "class" / "input").glob("event*")):
            try:
                properties = int((event / "device" / "properties").read_text().split()[0], 16)
                name = (event / "device" / "name").read_text().strip()
            except (OSError, ValueError, IndexError):
                continue
            if properties & 0b10:
                found.append((event.name, name))
        return found

    # buttons and lights on the Pi's header

    def check_pins(self) -> None:
        config = self.config.buzzers
        try:
            buzzers = open_buzzers(replace(config, backend=Backend.GPIO), pin_factory=self.pin_factory)
        except BuzzerError as exc:
            self.problem(f"pins: {exc}", f"if the kiosk is running, stop it first: sudo systemctl stop {SERVICE}")
            return
        if not isinstance(buzzers, GpioBuzzers):  # no GPIO: the keyboard stood in
            buzzers.close()
            fix = (
                "on a Pi: sudo apt-get install python3-lgpio (the installer does), in a venv that sees it (README)"
                if importlib.util.find_spec("lgpio") is None
                else "the buttons need a Raspberry Pi's GPIO header; in a container, pass /dev/gpiochip* through"
            )
            self.problem(f"pin factory: {buzzers.notice}", fix)
            return
        with buzzers:
            self.check_factory()
            if self.seconds > 0:
                self.check_buttons(buzzers)
                if config.led_pins:
                    self.check_leds(buzzers)

    def check_factory(self) -> None:
        name, stamped = pin_factory_timing(self.pin_factory)
        if stamped:
            self.ok(f"pin factory: {name}: each edge carries its own time (the kernel's, under lgpio)")
        else:
            self.problem(
                f"pin factory: {name}: edge times are taken when Python gets to them, not by the kernel",
                "install lgpio (sudo apt-get install python3-lgpio; the installer does) so close presses are ordered by the kernel's time",
            )

    def check_buttons(self, buzzers: GpioBuzzers) -> None:
        pins = self.config.buzzers.button_pins
        pressed: set[int] = set()
        all_pressed = threading.Event()

        def on_press(seat: int, _time: float) -> None:
            pressed.add(seat)
            if len(pressed) == buzzers.seats:
                all_pressed.set()

        buzzers.on_press = on_press
        stuck = buzzers.arm(range(buzzers.seats))
        self.say(f"press each seat's button once ({self.seconds:g} s)")
        all_pressed.wait(self.seconds)
        still_held = buzzers.held()
        buzzers.disarm()
        buzzers.on_press = None
        for seat, pin in enumerate(pins):
            what = f"seat {seat + 1} button (BCM {pin})"
            if seat in stuck and seat in still_held:
                self.problem(
                    f"{what}: held down from the start",
                    f"free the button, or look for its BCM {pin} wire touching ground",
                )
            elif seat in pressed:
                self.ok(f"{what}: pressed")
            else:
                self.problem(
                    f"{what}: no press seen",
                    f"check the button's two wires: one to BCM {pin} (header pin, hardware/README.md), one to ground",
                )

    def check_leds(self, buzzers: GpioBuzzers) -> None:
        seen = threading.Event()
        buzzers.on_press = lambda _seat, _time: seen.set()
        for seat, pin in enumerate(self.config.buzzers.led_pins):
            seen.clear()
            buzzers.arm({seat})
            self.say(f"seat {seat + 1}'s light is on: press any button if you see it ({self.seconds:g} s)")
            what = f"seat {seat + 1} light (BCM {pin})"
            if seen.wait(self.seconds):
                self.ok(f"{what}: seen")
            else:
                self.problem(
                    f"{what}: not seen",
                    f"check the light's wiring: BCM {pin} to its driver's input, the LED from 5 V to that output (hardware/README.md)",
                )
            buzzers.disarm()
            time.sleep(0.05)  # one press is one answer, not the next light's too
        buzzers.on_press = None

    # the USB buzzer box

    def check_box(self) -> None:
        ports = [port for port in self.config.buzzers.serial_ports if os.path.exists(port)]
        if not ports:
            names = " or ".join(self.config.buzzers.serial_ports) or "no port"
            self.problem(
                f"buzzer box: nothing on {names}",
                "plug the box in (USB), install the udev rule (README: Buzzers), or set [buzzers] backend",
            )
            return
        for port in ports:
            hello = probe_box(port, timeout=max(self.seconds, 1.0))
            if hello is None:
                self.problem(
                    f"buzzer box on {port}: no HELLO in answer to '?'",
                    "flash the box's firmware again (hardware/README.md), then unplug and replug it",
                )
            elif not OLDEST <= hello[1] <= VERSION:
                self.problem(
                    f"buzzer box on {port}: protocol {hello[1]}, this app {VERSION}",
                    "flash hardware/firmware from this version of the app (hardware/README.md)",
                )
            else:
                old = "" if hello[1] >= TURN_FROM else (
                    "; its firmware cannot pulse the seat to play's light (flash hardware/firmware again to have it)")
                self.ok(f"buzzer box on {port}: protocol {hello[1]}, {hello[2]} seats{old}")
                return

    # screen and touch

    def check_display(self) -> None:
        cards = self.cards()
        if not cards:
            self.problem(
                f"display: no {self.dev}/dri/card*",
                "turn KMS on: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot",
            )
            return
        for card in cards:
            self.device("display", card, os.R_OK | os.W_OK, "add the user to the video group (sudo usermod -aG video USER) and log in again")

    def check_touch(self) -> None:
        found = self.touchscreens()
        for event, name in found:
            self.device(
                f"touch ({name})", self.dev / "input" / event, os.R_OK,
                f"the installer's udev rule gives it to {USER} (sudo udevadm trigger --subsystem-match=input); "
                "for another user: sudo usermod -aG input USER, and log in again",
            )  # fmt: skip
        if not found:
            self.problem(
                "touch: no touchscreen among the input devices",
                "check the display's ribbon cable and its overlay in /boot/firmware/config.txt, then reboot",
            )

    def device(self, what: str, path: Path, mode: int, fix: str) -> None:
        if os.access(path, mode):
            self.ok(f"{what}: {path} opens for this user")
        else:
            self.problem(f"{what}: {path} cannot be opened by this user", fix)

    # saved games

    def check_database(self) -> None:
        path = self.config.store.db
        folder = path.parent
        existing = next(p for p in (path, *path.parents) if p.exists())
        free = shutil.disk_usage(existing if existing.is_dir() else existing.parent).free
        if path.exists():
            writable = os.access(path, os.R_OK | os.W_OK) and os.access(folder, os.W_OK | os.X_OK)
            state = f"{_size(path.stat().st_size)}"
        else:
            writable = os.access(existing, os.W_OK | os.X_OK) and existing.is_dir()
            state = "not created yet"
        if writable:
            self.ok(f"database: {path}, {state}")
        else:
            self.problem(
                f"database: {path} ({state}) cannot be written by this user",
                f"give it to the user that runs the app (sudo chown -R USER {folder}) or set [store] db",
            )
        if free < LOW_DISK:
            self.problem(f"disk: {_size(free)} free", "free some space: a full disk cannot save the games")
        else:
            self.ok(f"disk: {_size(free)} free")


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check the pins, buttons, lights, buzzer box, screen, touch and database",
        description="Check this Pi's set-up and say what to fix, one line a problem. "
        "Exit status 1 when something needs fixing.",
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0,
        help="how long to wait for each press (default 10); 0 skips the buttons and lights",
    )  # fmt: skip
    parser.add_argument("--db", type=Path, help="check this database instead of the config's")
    parser.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    if args.db:
        config = replace(config, store=replace(config.store, db=args.db))
    return Doctor(config, sys.stdout, seconds=max(0.0, args.seconds)).run()
