"""A USB buzzer box (Pico or Arduino) that stamps presses itself, over pyserial.

The box takes each edge's time in microseconds on its own clock, so USB
latency and our scheduling cannot reorder presses. Protocol:
hardware/PROTOCOL.md. A reader thread keeps the port open: when the box is
unplugged it retries every ``reconnect_ms`` over the candidate paths (the udev
rule's stable ``/dev/spicy-buzzers`` first), and anything on the line that is
not a protocol line is counted and skipped.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence

import serial

from companion.buzzers import protocol
from companion.buzzers.backend import Buzzers

BAUD = 115200  # ignored by the Pico's USB serial; an Arduino's UART needs it


class SerialBuzzers(Buzzers):
    """Presses from a buzzer box on the first of ``ports`` that opens.

    ``stats`` counts what was skipped: ``garbage`` (not a protocol line),
    ``overlong`` (longer than a line may be), ``partial`` (a line cut off when
    the port vanished) and ``reconnects``.
    """

    kind = "buzzer box"

    def __init__(self, ports: Sequence[str], *, seats: int = 6, reconnect_ms: float = 500.0) -> None:
        super().__init__(seats)
        self.ports = tuple(ports)
        self.stats = {"garbage": 0, "overlong": 0, "partial": 0, "reconnects": 0}
        self.version: int | None = None
        self._retry = reconnect_ms / 1000
        self._waiting = f"waiting for the buzzer box on {' or '.join(self.ports)}: plug it in"
        self.notice = self._waiting
        self._lines = protocol.LineSplitter()
        self._clock = protocol.Unwrapper()
        self._held: set[int] = set()
        self._lights = 0
        self._port: serial.Serial | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="buzzer-box", daemon=True)
        self._thread.start()

    def wait_connected(self, timeout: float) -> bool:
        """True once a port is open (for the console check and tests)."""
        return self._connected.wait(timeout)

    def held(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._held)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()

    def _show(self, seats: Collection[int]) -> None:
        with self._lock:
            self._lights = sum(1 << seat for seat in set(seats))
            self._send(protocol.encode_lights(self._lights))

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
                    self._held.clear()
                self._connected.clear()
                if self._lines.pending:
                    self.stats["partial"] += 1
                self._lines.clear()
                port.close()

    def _open(self) -> serial.Serial | None:
        for path in self.ports:
            try:
                port = serial.Serial(path, BAUD, timeout=0.05)
            except (serial.SerialException, OSError, ValueError):
                continue
            with self._lock:
                self._port = port
                self._clock = protocol.Unwrapper()  # the box may have restarted its clock
                self._send(protocol.encode_query())
                self._send(protocol.encode_lights(self._lights))
            self.notice = ""
            self._connected.set()
            return port
        return None

    def _serve(self, port: serial.Serial) -> None:
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            for line in self._lines.feed(data):
                self._line(line)
            self.stats["overlong"] = self._lines.overlong

    def _line(self, line: bytes) -> None:
        try:
            message = protocol.decode(line)
        except ValueError:
            self.stats["garbage"] += 1
            return
        kind = message[0]
        if kind == protocol.HELLO:
            self._hello(message[1], message[2])
        elif kind in (protocol.PRESS, protocol.RELEASE):
            seat, edge_time = message[1], self._clock.unwrap(message[2]) / 1e6
            with self._lock:
                (self._held.add if kind == protocol.PRESS else self._held.discard)(seat)
            (self._pressed if kind == protocol.PRESS else self._released)(seat, edge_time)
        else:
            self.stats["garbage"] += 1  # a host-to-box line has no business here

    def _hello(self, version: int, seats: int) -> None:
        self.version, self.seats = version, seats
        if version != protocol.VERSION:
            self.notice = (
                f"the buzzer box speaks protocol {version}, this app {protocol.VERSION}: "
                "flash hardware/firmware again (hardware/README.md)"
            )
