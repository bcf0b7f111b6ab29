"""Tell systemd the table is up, and keep telling it the screen still draws.

The service is ``Type=notify`` with a watchdog (systemd/spicy-companion.service):
systemd sets ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC`` and restarts the app when
the pings stop. The pings come from the Kivy ``Clock`` that also draws the
screen, so a frozen main loop (not merely a dead process) is noticed and
restarted. Outside systemd the variables are absent and every call here does
nothing. The protocol is one datagram per message, a few lines of stdlib; the
``sdnotify`` package has not been maintained since 2017.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kivy.clock import ClockBase, ClockEvent
    from kivy.core.window import WindowBase

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send one message (``READY=1``, ...) to systemd; False when there is nobody to tell.

    A leading ``@`` in ``$NOTIFY_SOCKET`` names a socket in the abstract
    namespace. Sending never waits (a full socket queue would freeze the
    screen), and a socket that cannot be reached is logged, never raised:
    the game matters more than the report.
    """
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.send(message.encode(), socket.MSG_DONTWAIT)
    except OSError as exc:
        log.warning("cannot tell systemd %r: %s", message, exc)
        return False
    return True


def ready() -> bool:
    """The table is on screen: ``systemctl start`` returns and the start timeout stops counting."""
    return notify("READY=1")


def ready_when_drawn(window: WindowBase) -> None:
    """Say READY as the window's first frame is flipped onto the screen, and only then.

    The first clock tick comes before the first frame is drawn; the flip is
    what the table sees. ``benchmarks/ui.py`` times the app's start by this
    message, as systemd does.
    """

    def flipped(*_args: object) -> None:
        window.unbind(on_flip=flipped)
        ready()

    window.bind(on_flip=flipped)


def stopping() -> bool:
    """Shutting down on purpose: the watchdog stops expecting pings."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds between pings (half the watchdog timeout, as systemd advises), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or not os.environ.get("NOTIFY_SOCKET"):
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None  # meant for the process that started us, not for us
    try:
        timeout = int(usec)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number of microseconds; no watchdog pings", usec)
        return None
    return timeout / 2e6 if timeout > 0 else None


def keep_alive(clock: ClockBase) -> ClockEvent | None:
    """Ping the watchdog from ``clock`` (kivy.clock.Clock) for as long as it ticks.

    Returns the scheduled event (``cancel()`` stops the pings), or None when
    systemd runs no watchdog for us.
    """
    interval = watchdog_interval()
    if interval is None:
        return None
    log.info("watchdog: a ping every %.3g s", interval)
    notify("WATCHDOG=1")  # now, not one interval late: start-up may already have used some of the timeout
    return clock.schedule_interval(lambda _dt: notify("WATCHDOG=1"), interval)
