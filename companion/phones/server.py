"""The phone page and its live stream, served from the standard library's ``ThreadingHTTPServer``.

The table publishes, at each change, how to make a full snapshot of what the
page shows (in words, from the frozen table model and game); one thread of the
server, the writer, makes and serialises it once, and sends the same bytes to
every open stream. So the UI thread only hands a function over, and one thread
wakes for a change however many phones watch, not one a phone: thirty threads
taking the interpreter's lock in turn at each change held the table's frames
back (docs/PERFORMANCE.md). Its sockets do not block: a slow phone delays
nobody but itself. Each snapshot is complete: a phone that joins late gets the
last one at once, and one that falls more than ``KEPT`` behind skips to the
newest.

Read-only by construction: GET only (any other method is refused with 405),
three paths under the game's token, and nothing else; the token is compared
in constant time, and a peer outside the private ranges is refused.
"""

from __future__ import annotations

import hmac
import logging
import ipaddress
import json
import queue
import selectors
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PAGE = Path(__file__).parent / "page"
FILES = {"": ("page.html", "text/html; charset=utf-8"), "page.js": ("page.js", "text/javascript; charset=utf-8"),
         "page.css": ("page.css", "text/css; charset=utf-8")}
KEPT = 64
"""Snapshots kept for a stream that fell behind; one further behind gets only the newest."""
MOST_STREAMS = 200
"""Open streams at most: a table with onlookers has a few dozen; more is someone exhausting the threads."""
KEEP_ALIVE = 15.0
"""Seconds between comments on a quiet stream, so a phone that left is noticed and its stream closed."""
STILL_HERE = b": still here\n\n"
RETRY_MS = 2000
"""How soon a phone's browser reconnects after the stream breaks (the Pi restarting)."""
Snapshot = Callable[[], dict[str, Any]]
"""What the table publishes: called on the server's thread, it makes the snapshot from frozen values."""
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'",
}


class _Stream:
    """One phone's stream, as the writer holds it: its socket (not blocking) and what it has still to be sent."""

    def __init__(self, connection: socket.socket, now: float) -> None:
        self.connection = connection
        self.unsent: deque[bytes] = deque()
        self.sent = 0
        """Bytes of the first of ``unsent`` already sent: a message half sent is finished before any other."""
        self.quiet_since = now

    def add(self, message: bytes) -> None:
        self.unsent.append(message)
        if len(self.unsent) > KEPT:  # too far behind: the one half sent, if any, then the newest only
            self.unsent = deque([*([self.unsent[0]] if self.sent else []), message])

    def due(self, now: float) -> bool:
        """Nothing sent for ``KEEP_ALIVE`` and nothing waiting: a comment is, so a phone that left is noticed."""
        if self.unsent or now - self.quiet_since < KEEP_ALIVE:
            return False
        self.unsent.append(STILL_HERE)
        return True

    def send(self, now: float) -> bool:
        """Send what the socket takes now; False once the phone is gone."""
        while self.unsent:
            first = self.unsent[0]
            try:
                self.sent += self.connection.send(memoryview(first)[self.sent:])
            except BlockingIOError:
                return True
            except OSError:
                return False
            self.quiet_since = now
            if self.sent < len(first):
                return True
            self.unsent.popleft()
            self.sent = 0
        return True


class PhoneServer(ThreadingHTTPServer):
    """Serves ``/<token>/`` (the page), its script and style, and ``/<token>/events`` (the stream)."""

    daemon_threads = True

    def __init__(self, host: str, token: str, port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.host, self.token = host, token
        self._now = "null"
        """The newest snapshot's JSON: the page comes with it, so it shows the table before its stream opens."""
        self._lock = threading.Lock()
        self._closing = False
        self._open = 0
        """Streams open, from their request to the writer closing them."""
        self._number = 0
        """The newest snapshot's number (its event's id); the writer's own."""
        self._handed: set[socket.socket] = set()
        """Streams handed over whose request has not ended yet: the writer closes them, not the request."""
        self._inbox: queue.SimpleQueue[Snapshot | socket.socket | None] = queue.SimpleQueue()
        self._wake, self._woken = socket.socketpair()
        """A byte on ``_wake`` wakes the writer from waiting on its sockets: something is in the inbox."""
        self._wake.setblocking(False)
        self._woken.setblocking(False)
        self._workers = [threading.Thread(target=self.serve_forever, args=(0.1,), name="phones-http", daemon=True),
                         threading.Thread(target=self._write, name="phones-feed", daemon=True)]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A phone that goes away in the middle of a request (out of the Wi-Fi's reach, its screen locked) is no
        fault of the table's: socketserver would print a traceback for it. Anything else is logged."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        logging.getLogger(__name__).exception("a phone's request failed")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server_address[1]}/{self.token}/"

    def start(self) -> PhoneServer:
        for thread in self._workers:
            thread.start()
        return self

    def publish(self, make: Snapshot) -> None:
        """Hand a snapshot over: returns at once, whatever the phones are doing."""
        self._post(make)

    def stop(self) -> None:
        """Close every stream and the socket; returns once the server's threads are done."""
        with self._lock:
            self._closing = True
        self._post(None)
        self.shutdown()
        self.server_close()
        for thread in self._workers:
            thread.join(timeout=5)
        self._wake.close()
        self._woken.close()

    def page(self) -> bytes:
        """The page with the table as it is now in it, as JSON that no ``</script>`` in a name can end early."""
        with self._lock:
            now = self._now
        inline = now.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return (PAGE / "page.html").read_text(encoding="utf-8").replace("@NOW@", inline).encode()

    def open_stream(self) -> bool:
        """A place for one more stream; False when the server takes no more (closing, or ``MOST_STREAMS``)."""
        with self._lock:
            if self._closing or self._open >= MOST_STREAMS:
                return False
            self._open += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._open -= 1

    def hand_over(self, connection: socket.socket) -> None:
        """A stream whose headers are sent, for the writer to send every snapshot on until the phone leaves."""
        with self._lock:
            self._handed.add(connection)
        self._post(connection)

    def shutdown_request(self, request: Any) -> None:
        """A stream's request ends once its headers are sent: its socket is the writer's, left open."""
        with self._lock:
            if request in self._handed:
                self._handed.discard(request)
                return
        super().shutdown_request(request)

    def _post(self, item: Snapshot | socket.socket | None) -> None:
        self._inbox.put(item)
        try:
            self._wake.send(b"!")
        except OSError:  # its buffer is full of wake-ups already: the writer is awake
            pass

    def _write(self) -> None:
        """The writer: each snapshot made and serialised once, sent to every stream as its socket takes it."""
        streams: dict[socket.socket, _Stream] = {}
        latest: list[bytes] = []
        with selectors.DefaultSelector() as selector:
            selector.register(self._woken, selectors.EVENT_READ)
            while self._take(streams, latest):
                now = time.monotonic()
                for stream in list(streams.values()):
                    if stream.unsent or stream.due(now):
                        self._send(stream, now, streams, selector)
                quiet = min((stream.quiet_since for stream in streams.values() if not stream.unsent), default=now)
                selector.select(max(0.0, quiet + KEEP_ALIVE - time.monotonic()))
            while not self._inbox.empty():  # a stream handed over as the server stopped
                if isinstance(item := self._inbox.get(), socket.socket):
                    streams[item] = _Stream(item, 0.0)
            for connection in list(streams):
                self._close(streams.pop(connection), selector)

    def _take(self, streams: dict[socket.socket, _Stream], latest: list[bytes]) -> bool:
        """What was posted since the writer last looked: snapshots (each queued on every stream) and new
        streams (each given the newest snapshot); False once the server stops."""
        try:
            while self._woken.recv(4096):
                pass
        except BlockingIOError:
            pass
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return True
            if item is None:
                return False
            if isinstance(item, socket.socket):
                item.setblocking(False)
                streams[item] = stream = _Stream(item, time.monotonic())
                stream.unsent.extend(latest)
                continue
            message = self._serialise(item)
            if message is not None:
                latest[:] = [message]
                for stream in streams.values():
                    stream.add(message)

    def _serialise(self, make: Snapshot) -> bytes | None:
        """The next snapshot as the streams' event, in bytes; None, logged, when it cannot be made (the feed
        goes on: the next one may be)."""
        try:
            data = json.dumps(make(), ensure_ascii=False, separators=(",", ":"))
        except Exception:
            logging.getLogger(__name__).exception("the phone page's snapshot could not be made")
            return None
        with self._lock:
            self._now = data
        self._number += 1
        return f"id: {self._number}\ndata: {data}\n\n".encode()

    def _send(self, stream: _Stream, now: float, streams: dict[socket.socket, _Stream],
              selector: selectors.BaseSelector) -> None:
        """Send what the stream's socket takes now; the rest waits for it to be writable. A phone gone is closed."""
        if not stream.send(now):
            self._close(streams.pop(stream.connection), selector)
            return
        waiting = stream.connection in selector.get_map()
        if stream.unsent and not waiting:
            selector.register(stream.connection, selectors.EVENT_WRITE)
        elif waiting and not stream.unsent:
            selector.unregister(stream.connection)

    def _close(self, stream: _Stream, selector: selectors.BaseSelector) -> None:
        if stream.connection in selector.get_map():
            selector.unregister(stream.connection)
        try:
            stream.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        stream.connection.close()
        self.close_stream()


class _Handler(BaseHTTPRequestHandler):
    server: PhoneServer
    protocol_version = "HTTP/1.1"
    server_version = "SpicyCompanion"
    sys_version = ""

    def do_GET(self) -> None:
        if not _private(self.client_address[0]):
            return self._refuse(HTTPStatus.FORBIDDEN)
        token, _slash, name = self.path.lstrip("/").partition("/")
        if not hmac.compare_digest(token.encode(), self.server.token.encode()) or not _slash:
            return self._refuse(HTTPStatus.NOT_FOUND)
        if name == "events":
            return self._stream()
        if name not in FILES:
            return self._refuse(HTTPStatus.NOT_FOUND)
        file, kind = FILES[name]
        body = self.server.page() if name == "" else (PAGE / file).read_bytes()
        self.send_response(HTTPStatus.OK)
        self._headers(kind, len(body))
        self.wfile.write(body)

    def _refused_method(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET")
        self._headers("text/plain; charset=utf-8", 0)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _refused_method

    def _stream(self) -> None:
        """The stream's headers, sent here; then its socket is the writer's, and this request ends."""
        if not self.server.open_stream():
            return self._refuse(HTTPStatus.SERVICE_UNAVAILABLE)
        self.close_connection = True
        try:
            self.send_response(HTTPStatus.OK)
            self._headers("text/event-stream; charset=utf-8", None)
            self.wfile.write(f"retry: {RETRY_MS}\n\n".encode())
            self.wfile.flush()
        except OSError:  # the phone went away
            self.server.close_stream()
            return
        self.server.hand_over(self.connection)

    def _refuse(self, status: HTTPStatus) -> None:
        body = f"{status.value} {status.phrase}\n".encode()
        self.send_response(status)
        self._headers("text/plain; charset=utf-8", len(body))
        self.wfile.write(body)

    def _headers(self, kind: str, length: int | None) -> None:
        self.send_header("Content-Type", kind)
        for name, value in HEADERS.items():
            self.send_header(name, value)
        if length is None:
            self.send_header("Connection", "close")
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a phone's requests are not the table's log (and their addresses are the players')."""


def _private(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local
