"""The phone page and its live stream, served from the standard library's ``ThreadingHTTPServer``.

The table publishes, at each change, how to make a full snapshot of what the
page shows (in words, from the frozen table model and game); a thread of the
server makes and serialises it, and every open stream sends it on its own
thread. So the UI thread only hands a function over, and a slow phone delays
nobody but itself. Each snapshot is
complete: a phone that joins late gets the last one at once, and one that
falls more than ``KEPT`` behind skips to the newest.

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
import sys
import threading
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
"""Seconds between comments on a quiet stream, so a phone that left is noticed and its thread ends."""
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


class PhoneServer(ThreadingHTTPServer):
    """Serves ``/<token>/`` (the page), its script and style, and ``/<token>/events`` (the stream)."""

    daemon_threads = True

    def __init__(self, host: str, token: str, port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.host, self.token = host, token
        self._latest: deque[tuple[int, bytes]] = deque(maxlen=KEPT)
        self._now = "null"
        """The newest snapshot's JSON: the page comes with it, so it shows the table before its stream opens."""
        self._changed = threading.Condition()
        self._closing = False
        self._streams = 0
        self._inbox: queue.SimpleQueue[Snapshot | None] = queue.SimpleQueue()
        self._workers = [threading.Thread(target=self.serve_forever, args=(0.1,), name="phones-http", daemon=True),
                         threading.Thread(target=self._serialise, name="phones-feed", daemon=True)]

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
        self._inbox.put(make)

    def stop(self) -> None:
        """Close every stream and the socket; returns once the server's threads are done."""
        self._inbox.put(None)
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self.shutdown()
        self.server_close()
        for thread in self._workers:
            thread.join(timeout=5)

    def _serialise(self) -> None:
        number = 0
        while (make := self._inbox.get()) is not None:
            try:
                data = json.dumps(make(), ensure_ascii=False, separators=(",", ":"))
            except Exception:  # a snapshot that cannot be made must not end the feed: the next one may be
                logging.getLogger(__name__).exception("the phone page's snapshot could not be made")
                continue
            number += 1
            message = f"id: {number}\ndata: {data}\n\n".encode()
            with self._changed:
                self._now = data
                self._latest.append((number, message))
                self._changed.notify_all()

    def page(self) -> bytes:
        """The page with the table as it is now in it, as JSON that no ``</script>`` in a name can end early."""
        with self._changed:
            now = self._now
        inline = now.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        return (PAGE / "page.html").read_text(encoding="utf-8").replace("@NOW@", inline).encode()

    def open_stream(self) -> bool:
        with self._changed:
            if self._closing or self._streams >= MOST_STREAMS:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._changed:
            self._streams -= 1

    def after(self, sent: int) -> list[tuple[int, bytes]] | None:
        """The snapshots after number ``sent`` (the newest alone if it fell too far behind), waiting up to
        ``KEEP_ALIVE`` for one; [] when none came, None once the server closes. A new stream (``sent`` 0)
        starts from the newest: each snapshot is whole."""
        with self._changed:
            self._changed.wait_for(lambda: self._closing or (self._latest and self._latest[-1][0] > sent),
                                   timeout=KEEP_ALIVE)
            if self._closing:
                return None
            newer = [kept for kept in self._latest if kept[0] > sent]
            return newer[-1:] if newer and (sent == 0 or newer[0][0] > sent + 1) else newer


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
        if not self.server.open_stream():
            return self._refuse(HTTPStatus.SERVICE_UNAVAILABLE)
        try:
            self.send_response(HTTPStatus.OK)
            self._headers("text/event-stream; charset=utf-8", None)
            self.wfile.write(f"retry: {RETRY_MS}\n\n".encode())
            self.wfile.flush()
            sent = 0
            while (newer := self.server.after(sent)) is not None:
                self.wfile.write(b"".join(message for _n, message in newer) or b": still here\n\n")
                self.wfile.flush()
                sent = newer[-1][0] if newer else sent
        except OSError:  # the phone went away
            pass
        finally:
            self.server.close_stream()
            self.close_connection = True

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
