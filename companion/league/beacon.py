"""A table's name said on the club's network, so that Join a league lists the tables by their names.

Syncthing's local discovery announces a device's ID and addresses alone, and
the one place Syncthing says a device's name is the hello of a connection,
which the other table answers by listing this one as asking to join
(tests/test_syncthing.py shows both). So beside Syncthing, a table in a league
says ``{"device": ..., "name": ...}`` to a multicast group of the local network
every few seconds, and every table looking hears them and keeps what it heard
in the league folder (``heard.json``), which ``nearby`` reads beside
Syncthing's discovery.

A name heard here is a label and nothing more: anyone on the network could say
one. Joining still goes through the ask and the other table's accept, by the
device ID Syncthing authenticates, and Join a league shows the short code
beside the name. A datagram that is too long, not JSON, not ours, or names a
device Syncthing would not take, is dropped; so is anything past ``KEPT``
tables.

The beacon runs where Syncthing runs: a thread beside the Syncthing the app or
a ``league`` command starts, and on a Pi its own service
(systemd/spicy-companion-beacon.service, ``spicy-companion league beacon``)
beside Syncthing's, since the kiosk has no network.
"""

from __future__ import annotations

import errno
import json
import logging
import re
import select
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

from companion.files import LEAGUE, FileRefused, read_file, write_whole

log = logging.getLogger(__name__)

GROUP = "239.255.76.67"
"""An organisation-local multicast group (RFC 2365): routers keep it inside the club's network."""
PORT = 21031
"""Beside Syncthing's local discovery (21027)."""
EVERY = 5.0
"""Seconds between two sayings: a table appears in Join a league's list within its next step or two."""
FORGET = 60.0
"""A table not heard for this long is no longer listed by its name (it left the network)."""
LONGEST = 512
"""Bytes of the longest datagram taken: a name is at most 40 characters (``[league] table_name``)."""
KEPT = 64
"""Tables kept at once: more than a club has, and a flood of made-up devices fills nothing."""
KIND = "spicy-companion-table"
ME = "me.json"
"""In the league folder: this table's device and name while it is in a league (none: it says nothing)."""
HEARD = "heard.json"
"""In the league folder: the tables heard, ``{device: {"name": ..., "at": seconds since the epoch}}``."""
DEVICE = re.compile(r"[A-Z2-7]{7}(-[A-Z2-7]{7}){7}")
"""A Syncthing device ID as Syncthing writes it."""


def saying(device: str, name: str) -> bytes:
    return json.dumps({"kind": KIND, "device": device, "name": name}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def heard_in(data: bytes) -> tuple[str, str] | None:
    """The device and name a datagram says, or None for one that is not a table's saying."""
    if len(data) > LONGEST:
        return None
    try:
        said = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(said, dict) or said.get("kind") != KIND:
        return None
    device, name = said.get("device"), said.get("name")
    if not isinstance(device, str) or not DEVICE.fullmatch(device) or not isinstance(name, str):
        return None
    name = name.strip()
    if not name or len(name) > 40 or not name.isprintable():
        return None
    return device, name


def say_me(root: Path, device: str | None, name: str = "") -> None:
    """What the beacon says for this table: its device and name, or nothing (``device`` None: not in a league)."""
    path = root / ME
    if device is None:
        path.unlink(missing_ok=True)
        return
    data = {"device": device, "name": name}
    if _read(path) != data:
        _write(path, data)


def heard(root: Path, now: float | None = None) -> dict[str, str]:
    """The tables heard lately, by device: what Join a league names them by."""
    now = time.time() if now is None else now
    found = _read(root / HEARD)
    if not isinstance(found, dict):
        return {}
    return {device: str(seen["name"]) for device, seen in found.items()
            if isinstance(seen, dict) and isinstance(seen.get("at"), (int, float))
            and now - seen["at"] < FORGET and isinstance(seen.get("name"), str)}


def _read(path: Path) -> Any:
    """The JSON of a file of ours in the league folder, or None: never through a link or a FIFO, never huge."""
    try:
        return json.loads(read_file(path, LEAGUE, follow=False))
    except (FileRefused, OSError, ValueError, RecursionError):
        return None


def _write(path: Path, data: object) -> None:
    write_whole(path, json.dumps(data, ensure_ascii=False).encode(), 0o600)


class Beacon:
    """Says this table (``me.json``) to the group every ``EVERY`` seconds and keeps the others it hears."""

    def __init__(self, root: Path, port: int = PORT, group: str = GROUP, every: float = EVERY) -> None:
        self.root = root
        self.port = port
        self.group = group
        self.every = every
        self.heard: dict[str, dict[str, Any]] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._said_trouble: set[int] = set()
        self._me: Any = None
        """``me.json`` as read at the last saying: a table's own saying is not kept as heard."""

    def start(self) -> None:
        """On a thread of its own, until ``stop``."""
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self.run, name="league-beacon", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def run(self) -> None:
        """Until ``stop``: a socket that cannot be opened yet (no network) is tried again at each saying."""
        sock: socket.socket | None = None
        try:
            while not self._stopping.is_set():
                sock = sock or self._open()
                if sock is not None:
                    self._say(sock)
                    self._listen(sock, time.monotonic() + self.every)
                else:
                    self._stopping.wait(self.every)
        finally:
            if sock is not None:
                sock.close()

    def _open(self) -> socket.socket | None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("", self.port))
            membership = struct.pack("4s4s", socket.inet_aton(self.group), socket.inet_aton("0.0.0.0"))
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        except OSError as exc:
            sock.close()
            self._trouble(exc, "the table cannot hear the others' names yet (%s): it tries again")
            return None
        return sock

    def _say(self, sock: socket.socket) -> None:
        me = self._me = _read(self.root / ME)
        if not isinstance(me, dict) or not isinstance(me.get("device"), str):
            return
        try:
            sock.sendto(saying(me["device"], str(me.get("name", ""))), (self.group, self.port))
        except OSError as exc:  # the network is down: said again at the next turn
            self._trouble(exc, "the table cannot say its name on the network (%s): it tries again")

    def _listen(self, sock: socket.socket, until: float) -> None:
        while not self._stopping.is_set() and (left := until - time.monotonic()) > 0:
            ready, _, _ = select.select([sock], [], [], min(left, 0.25))
            if not ready:
                continue
            try:
                data, _sender = sock.recvfrom(LONGEST + 1)
            except OSError:
                continue
            found = heard_in(data)
            if found is not None:
                self._keep(*found)

    def _keep(self, device: str, name: str) -> None:
        if isinstance(self._me, dict) and self._me.get("device") == device:
            return
        now = time.time()
        old = self.heard.get(device)
        self.heard[device] = {"name": name, "at": now}
        if old is None and len(self.heard) > KEPT:
            del self.heard[min(self.heard, key=lambda d: self.heard[d]["at"])]
        if old is None or old["name"] != name or now - old["at"] > FORGET / 4:
            _write(self.root / HEARD, self.heard)
        else:
            self.heard[device]["at"] = old["at"]  # the file's time stays what the file says

    def _trouble(self, exc: OSError, what: str) -> None:
        """Logged once for each kind of error, not at every turn."""
        kind = exc.errno or errno.EIO
        if kind not in self._said_trouble:
            self._said_trouble.add(kind)
            log.warning(what, exc.strerror or exc)
