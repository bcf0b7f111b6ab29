"""A USB buzzer box (Pico or Arduino) that stamps presses itself, over pyserial.

The box takes each edge's time in microseconds on its own clock, so USB
latency and our scheduling cannot reorder presses. Protocol:
hardware/PROTOCOL.md. A reader thread keeps the port open: when the box is
unplugged it retries every ``reconnect_ms`` over the candidate paths (the udev
rule's stable ``/dev/spicy-buzzers`` first), and anything on the line that is
not a protocol line is counted and skipped.

After opening a port we send ``?`` and believe nothing until the ``HELLO``
that answers it: while the port was closed, the Pico's USB serial kept the
last lines the box wrote, and sends them the moment the port opens. A press
from seconds ago must not win today's challenge.

A device that does not answer ``ASK_TRIES`` questions is not a buzzer box (a
modem, another board, a box not flashed): the port is closed and left alone,
said once in ``notice``, until that path disappears or names another device
(it was unplugged and plugged in again).

The seat to play's light pulses on the box itself (``N``, protocol 3). A box
with protocol 2 firmware works as before, without the pulse: the host says so
once and sends it no ``N``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Collection, Sequence

import serial

from companion.buzzers import protocol
from companion.buzzers.backend import Buzzers
from companion.errors import Reason, either

BAUD = 115200  # ignored by the Pico's USB serial; an Arduino's UART needs it
ASK_EVERY = 1.0  # seconds between questions to a port that has not answered
ASK_TRIES = 3  # questions before a silent device is left alone until it is plugged in again
ARM_REPLY = 0.25  # seconds to wait for the box's own time of arming
SILENT_AFTER = 4 * protocol.HEARTBEAT_US / 1e6  # no heartbeat for this long: say so
CANNOT_PULSE = Reason(
    "the buzzer box's firmware cannot pulse the seat to play's light: flash hardware/firmware again to have it "
    "(hardware/README.md)"
)

log = logging.getLogger(__name__)


def probe_box(path: str, timeout: float = 1.0) -> tuple | None:
    """The ``HELLO`` the device at ``path`` answers to ``?``, or None.

    Writes nothing but ``?``, so a device that is not a buzzer box (a
    printer, a modem, another board) is left alone. Raises nothing: a port
    that cannot be opened is simply not a box.
    """
    try:
        with serial.Serial(path, BAUD, timeout=0.05) as port:
            port.reset_input_buffer()
            port.write(protocol.encode_query())
            lines = protocol.LineSplitter()
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                for line in lines.feed(port.read(max(1, port.in_waiting))):
                    try:
                        message = protocol.decode(line)
                    except ValueError:
                        continue
                    if message[0] == protocol.HELLO:
                        return message
    except (serial.SerialException, OSError, ValueError):
        pass
    return None


def _device(path: str) -> tuple[int, int, int] | None:
    """Which device node ``path`` leads to now (through udev's link), or None when it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_rdev


class SerialBuzzers(Buzzers):
    """Presses from a buzzer box on the first of ``ports`` that opens and answers.

    ``stats`` counts what was skipped: ``garbage`` (not a protocol line),
    ``overlong`` (longer than a line may be), ``partial`` (a line cut off when
    the port vanished), ``stale`` (lines before the box answered our ``?``),
    ``reconnects``, and ``dropped``: edges the box itself had no room for, as
    its heartbeat reports them.
    """

    kind = "buzzer box"

    def __init__(self, ports: Sequence[str], *, seats: int = 6, reconnect_ms: float = 500.0) -> None:
        super().__init__(seats)
        self.ports = tuple(ports)
        self.stats = {"garbage": 0, "overlong": 0, "partial": 0, "stale": 0, "reconnects": 0, "dropped": 0}
        self.version: int | None = None
        self._retry = reconnect_ms / 1000
        self._waiting = Reason("waiting for the buzzer box on {ports}: plug it in", ports=either([*self.ports]))
        self.notice = self._waiting
        self._lines = protocol.LineSplitter()
        self._clock = protocol.Unwrapper()
        self._held: set[int] = set()
        self._lights = 0
        self._armed = False  # the lights were set by an arm: a box that greets us again is armed again
        self._turn_sent: int | None = None  # the N mask the greeted box has; None: none sent since its HELLO
        self._told_cannot_pulse = False
        self._port: serial.Serial | None = None
        self._path = ""
        self._left_alone: set[tuple[int, int, int]] = set()  # devices that did not answer, while plugged in
        self._greeted = False
        self._heard = 0.0  # time.monotonic() of the last line from a greeted box
        self._opened = threading.Event()
        """Set by the box's ``T``, or at once while closing: an arm waits on it."""
        self._closing = False
        self._opening: tuple[float, frozenset[int]] | None = None  # the last T, and who was down then
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="buzzer-box", daemon=True)
        self._thread.start()

    def wait_connected(self, timeout: float) -> bool:
        """True once a box has answered on an open port (for the console check and tests)."""
        return self._connected.wait(timeout)

    def arm(self, seats: Collection[int], waited: float = 0.0) -> frozenset[int]:
        """Light the seats with ``A``, so the box stamps the opening on its own clock.

        The box's ``T`` stays the opening, as hardware/PROTOCOL.md says;
        ``waited`` is not taken off it. The stuck seats are the ones down
        when the box sent ``T``, by the order of its own lines: a press read
        while we waited for the ``T`` is judged by its stamp. Runs on the
        referee's thread, which may wait here up to ``ARM_REPLY``, unless the
        buzzers are closing.
        """
        with self._lock:
            self._lights = sum(1 << seat for seat in set(seats))
            self._armed = True
            self._deciding = False
            if not self._closing:
                self._opened.clear()
            self._opening = None
            if self._greeted:
                self._send(protocol.encode_arm(self._lights))
                self._send_turn()
        self._opened.wait(ARM_REPLY if self._greeted else 0)
        with self._lock:
            if self._opening is None:
                self.opened_at = None
                return frozenset(self._held)
            self.opened_at, held = self._opening
            return held

    def held(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._held)

    def closing(self) -> None:
        with self._lock:
            self._closing = True
            self._opened.set()

    def close(self) -> None:
        self.closing()
        self._stop.set()
        self._thread.join()

    def _show(self, seats: Collection[int]) -> None:
        with self._lock:
            self._lights = sum(1 << seat for seat in set(seats))
            self._armed = False
            if self._greeted:
                self._send(protocol.encode_lights(self._lights))
                self._send_turn()

    def _show_turn(self) -> None:
        with self._lock:
            if self._greeted:
                self._send_turn()

    def _send_turn(self) -> None:
        """Under ``_lock``, to a greeted box: ``N`` with the seat that pulses now, if the box has another
        and can pulse at all (protocol 3)."""
        if self.version is None or self.version < protocol.TURN_FROM:
            return
        seat = self.pulsing()
        mask = 0 if seat is None or seat >= self.seats else 1 << seat
        if mask != self._turn_sent:
            self._send(protocol.encode_turn(mask))
            self._turn_sent = mask

    def _send(self, line: bytes) -> None:
        """Write under ``_lock``; a failed write is left to the reader to notice."""
        if self._port is not None:
            try:
                self._port.write(line)
            except (serial.SerialException, OSError):
                pass

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._open()
            if port is None:
                self._stop.wait(self._retry)
                continue
            try:
                self._serve(port)
            except (serial.SerialException, OSError):
                self.stats["reconnects"] += 1
                self.notice = self._waiting
            finally:
                with self._lock:
                    self._port = None
                    self._greeted = False
                    self._held.clear()
                self._connected.clear()
                if self._lines.pending:
                    self.stats["partial"] += 1
                self._lines.clear()
                port.close()

    def _open(self) -> serial.Serial | None:
        devices = {path: _device(path) for path in self.ports}
        present = {device for device in devices.values() if device is not None}
        if self._left_alone - present:  # unplugged, or another device there now: ask again
            self._left_alone &= present
            self.notice = self._waiting
        for path in self.ports:
            if devices[path] is None or devices[path] in self._left_alone:
                continue  # udev's link and its ttyACM are one device: left alone under both names
            try:
                port = serial.Serial(path, BAUD, timeout=0.05)
            except (serial.SerialException, OSError, ValueError):
                continue
            with self._lock:
                self._port, self._path = port, path
                self._send(protocol.encode_query())
            return port
        return None

    def _serve(self, port: serial.Serial) -> None:
        asked, tries = time.monotonic(), 1
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            for line in self._lines.feed(data):
                self._line(line)
            self.stats["overlong"] = self._lines.overlong
            now = time.monotonic()
            if not self._greeted and now - asked >= ASK_EVERY:
                if tries >= ASK_TRIES:
                    self._leave_alone(tries)
                    return
                with self._lock:
                    self._send(protocol.encode_query())
                asked, tries = now, tries + 1
            elif self._greeted and now - self._heard >= SILENT_AFTER:
                self.notice = Reason(
                    "the buzzer box on {port} has gone silent for {seconds:.0f} s: check its USB cable",
                    port=self._path, seconds=now - self._heard,
                )

    def _leave_alone(self, tries: int) -> None:
        """Stop asking a device that is no buzzer box, and say so once."""
        device = _device(self._path)
        if device is not None:
            self._left_alone.add(device)
        self.notice = Reason(
            "{port} did not answer as a buzzer box ({tries} questions); left alone until it is plugged in again "
            "(is it flashed? hardware/README.md)",
            port=self._path, tries=tries,
        )  # fmt: skip

    def _line(self, line: bytes) -> None:
        try:
            message = protocol.decode(line)
        except ValueError:
            self.stats["garbage"] += 1
            return
        kind = message[0]
        if kind == protocol.HELLO:
            self._hello(message)
            return
        if kind in (protocol.LIGHTS, protocol.ARM, protocol.QUERY):
            self.stats["garbage"] += 1  # a host-to-box line has no business here
            return
        if not self._greeted:
            self.stats["stale"] += 1  # written before our question: old news
            return
        self._heard = time.monotonic()
        if self.notice.startswith("the buzzer box on"):
            self.notice = ""
        edge_time = self._clock.unwrap(message[1 if kind in (protocol.OPENED, protocol.HEARTBEAT) else 2]) / 1e6
        if kind == protocol.OPENED:
            with self._lock:
                self._opening = edge_time, frozenset(self._held)
            self._opened.set()
            if self.on_opened is not None:
                self.on_opened(edge_time)
        elif kind == protocol.HEARTBEAT:
            self._dropped(message[2])
        else:
            seat = message[1]
            with self._lock:
                (self._held.add if kind == protocol.PRESS else self._held.discard)(seat)
            (self._pressed if kind == protocol.PRESS else self._released)(seat, edge_time)

    def _hello(self, message: tuple) -> None:
        self.version = message[1]
        if not protocol.OLDEST <= self.version <= protocol.VERSION:
            self.notice = Reason(
                "the buzzer box speaks protocol {box}, this app {app}: "
                "flash hardware/firmware again (hardware/README.md)",
                box=self.version, app=protocol.VERSION,
            )
            return
        _, _, self.seats, held, micros = message
        self._clock = protocol.Unwrapper()  # the box may have restarted its clock
        now = self._clock.unwrap(micros) / 1e6
        if self.on_restarted is not None:
            self.on_restarted(now)
        with self._lock:
            self._held = {seat for seat in range(self.seats) if held >> seat & 1}
            self._greeted = True
            # A box that restarted mid-window has lost its arm and its clock: arm it again, and its T
            # opens the window on the new clock.
            self._send((protocol.encode_arm if self._armed else protocol.encode_lights)(self._lights))
            self._turn_sent = None  # a box that greets us may have restarted without its pulse: say it again
            self._send_turn()
        self._heard = time.monotonic()
        self.notice = ""
        if self.version < protocol.TURN_FROM:
            self.notice = CANNOT_PULSE
            if not self._told_cannot_pulse:
                log.warning("%s", CANNOT_PULSE)
                self._told_cannot_pulse = True
                if self.on_notice is not None:
                    self.on_notice(CANNOT_PULSE)
        self._connected.set()

    def _dropped(self, dropped: int) -> None:
        if dropped > self.stats["dropped"]:
            self.notice = Reason("the buzzer box had no room for {count} edges: presses may be missing", count=dropped)
        self.stats["dropped"] = dropped
