"""The real app under systemd's notify protocol: READY after the first frame, watchdog pings from the drawing loop.

The app runs in its own process on a virtual screen (Xvfb), as the service
starts it, with NOTIFY_SOCKET and WATCHDOG_USEC pointing at a real unix
datagram socket the test reads. Xvfb gets no NOTIFY_SOCKET: it would say
READY=1 itself.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent


@pytest.fixture
def screen() -> Iterator[str]:
    """A display of its own, 800x480 like Touch Display 1."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"},
    )  # fmt: skip
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait()


def pings_after_ready(messages: list[str]) -> int:
    return messages[messages.index("READY=1") :].count("WATCHDOG=1") if "READY=1" in messages else 0


def test_the_app_says_ready_feeds_the_watchdog_logs_its_settings_and_says_stopping(
    tmp_path: Path, screen: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[store]\ndb = '{tmp_path / 'games.db'}'\n[buzzers]\nbackend = 'keyboard'\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "SDL_", "NOTIFY_", "WATCHDOG_"))}
    env |= {
        "DISPLAY": screen, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1", "KIVY_NO_FILELOG": "1",
        "SDL_AUDIODRIVER": "dummy", "NOTIFY_SOCKET": str(tmp_path / "notify"),
        "WATCHDOG_USEC": "200000",  # a ping every 0.1 s
    }  # fmt: skip
    log = tmp_path / "stderr.log"
    messages: list[str] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd, log.open("wb") as stderr:
        systemd.bind(env["NOTIFY_SOCKET"])
        systemd.settimeout(1.0)
        # A suite started in the background (``&``) has SIGINT ignored, which a child inherits: the app would
        # never hear the Ctrl-C below. Handled here while the app starts, it reaches the app as the default.
        ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            app = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "--config", str(config)],
                cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
            )  # fmt: skip
        finally:
            signal.signal(signal.SIGINT, ignored)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and pings_after_ready(messages) < 3:
                try:
                    messages.append(systemd.recv(64).decode())
                except TimeoutError:
                    assert app.poll() is None, log.read_text(errors="replace")[-2000:]
            app.send_signal(signal.SIGINT)  # Ctrl-C: the app shuts down on purpose
            try:
                app.wait(timeout=30)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"no stop 30 s after Ctrl-C; systemd heard {messages}; the app said: "
                                     + log.read_text(errors="replace")[-2000:]) from None
            while True:
                messages.append(systemd.recv(64).decode())
        except TimeoutError:
            pass
        finally:
            if app.poll() is None:
                app.kill()
    assert messages[0] == "WATCHDOG=1", messages  # the first ping goes as the watchdog starts
    assert messages.count("READY=1") == 1 and pings_after_ready(messages) >= 3, messages
    assert messages[-1] == "STOPPING=1", messages
    text = log.read_text(errors="replace")
    assert "Spicy Companion 0.1.0 (Python" in text
    assert f"from {config}" in text and "backend = 'keyboard'" in text
