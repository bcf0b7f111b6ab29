"""systemd notify over a real unix datagram socket, and watchdog pings from a real Kivy Clock."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from companion.pi import notify

if TYPE_CHECKING:
    from kivy.clock import ClockBase


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A socket where systemd would listen, named in NOTIFY_SOCKET."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        sock.settimeout(0.5)
        monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
        monkeypatch.delenv("WATCHDOG_USEC", raising=False)
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        yield sock


def received(sock: socket.socket) -> list[str]:
    """Every message waiting on the socket now."""
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        return messages
    finally:
        sock.settimeout(0.5)


def test_ready_and_stopping_reach_the_socket(systemd: socket.socket) -> None:
    assert notify.ready() and notify.stopping()
    assert [systemd.recv(4096), systemd.recv(4096)] == [b"READY=1", b"STOPPING=1"]


def test_a_leading_at_means_the_abstract_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"spicy-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(0.5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.ready()
        assert sock.recv(4096) == b"READY=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.clock import ClockBase

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    assert notify.ready() is False and notify.stopping() is False
    assert notify.keep_alive(ClockBase()) is None


def test_a_socket_that_is_gone_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody"))
    assert notify.ready() is False
    assert "cannot tell systemd 'READY=1'" in caplog.text


@pytest.mark.parametrize(
    ("usec", "pid", "interval"),
    [("4000000", None, 2.0), ("4000000", "self", 2.0), ("4000000", "1", None), ("soon", None, None), ("0", None, None)],
)
def test_the_ping_interval_is_half_the_timeout_and_only_for_us(
    systemd: socket.socket, monkeypatch: pytest.MonkeyPatch, usec: str, pid: str | None, interval: float | None
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    if pid:
        monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()) if pid == "self" else pid)
    assert notify.watchdog_interval() == interval


def tick_for(clock: ClockBase, seconds: float, sock: socket.socket) -> list[str]:
    """Run the main loop for a while, reading what reaches systemd as it comes."""
    messages = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        clock.tick()
        messages += received(sock)
        time.sleep(0.002)
    return messages


def test_a_frozen_main_loop_stops_the_pings(systemd: socket.socket, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.clock import ClockBase

    monkeypatch.setenv("WATCHDOG_USEC", "40000")  # a ping every 20 ms
    clock = ClockBase()
    event = notify.keep_alive(clock)
    assert event is not None
    assert received(systemd) == ["WATCHDOG=1"]  # the first ping does not wait for the clock

    running = tick_for(clock, 0.3, systemd)
    assert set(running) == {"WATCHDOG=1"} and 3 <= len(running) <= 16  # 15 when every tick is on time

    time.sleep(0.3)  # the main loop hangs: the clock does not tick
    assert received(systemd) == []

    assert "WATCHDOG=1" in tick_for(clock, 0.1, systemd)  # it comes back
    event.cancel()
    assert tick_for(clock, 0.1, systemd) == []


def test_a_full_socket_queue_never_blocks_the_main_loop(
    systemd: socket.socket, caplog: pytest.LogCaptureFixture
) -> None:
    """systemd busy elsewhere: the pings it cannot take are dropped, the screen goes on."""
    sent = [notify.notify("WATCHDOG=1") for _ in range(300)]
    assert sent[0] is True and sent[-1] is False
    assert "cannot tell systemd 'WATCHDOG=1'" in caplog.text
