"""The phone page's server on loopback, read with a real HTTP client: live, in order, read-only, for a crowd."""

from __future__ import annotations

import http.client
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

from companion.phones.address import game_token
from companion.phones.server import PhoneServer
from companion.rules import Challenge, Game, Play, Resolve, Undo
from companion.table.model import table_model
from companion.ui.phone_page import phone_snapshot
from rules_helpers import game as transcript_game

NAMES = ("Ana", "Ben", "Cy")
COLOURS = ("#FF8A5C", "#5B9BF0", "#B68AF0")
BOUND = 0.1
"""The issue's bound for an action to reach a phone; measured figures are in benchmarks/phones.py."""


def snapshot_of(game: Game) -> partial[dict[str, Any]]:
    return partial(phone_snapshot, table_model(game), game, NAMES, COLOURS)


class Stream:
    """One phone: the events of ``/<token>/events``, read line by line on its own thread."""

    def __init__(self, server: PhoneServer, path: str | None = None) -> None:
        host, port = server.server_address[:2]
        self.connection = http.client.HTTPConnection(str(host), port, timeout=10)
        self.connection.request("GET", path or f"/{server.token}/events")
        self.response = self.connection.getresponse()
        self.events: list[tuple[float, dict[str, Any]]] = []
        self.retry = b""
        self.arrived = threading.Condition()
        self.ended = threading.Event()
        if self.response.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    with self.arrived:
                        self.events.append((time.perf_counter(), json.loads(line[6:])))
                        self.arrived.notify_all()
                elif line.startswith(b"retry: "):
                    self.retry = line
        except (OSError, ValueError):
            pass
        finally:
            self.ended.set()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[tuple[float, dict[str, Any]]]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.events) >= count, timeout), self.events
            return list(self.events)

    def close(self) -> None:
        self.connection.close()


@pytest.fixture
def server() -> Iterator[PhoneServer]:
    running = PhoneServer("127.0.0.1", "k" * 22).start()
    yield running
    running.stop()


def request(server: PhoneServer, method: str, path: str) -> http.client.HTTPResponse:
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), port, timeout=10)
    connection.request(method, path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_a_play_a_challenge_and_an_undo_reach_a_phone_in_order_and_at_once(server: PhoneServer) -> None:
    game = transcript_game()
    server.publish(snapshot_of(game))
    phone = Stream(server)
    first = phone.wait_for(1)[0][1]
    assert first["turn"] == "Ana to play" and first["stack"]["count"] == 0 and first["challenges"] == []
    steps = [Play(0, "chili", 2), Challenge(1, "number"), Resolve(challenger_right=True), Undo()]
    delays = []
    for count, action in enumerate(steps, start=2):
        game = game.apply(action)
        sent = time.perf_counter()
        server.publish(snapshot_of(game))
        arrived, state = phone.wait_for(count)[-1]
        delays.append(arrived - sent)
        if isinstance(action, Play):
            assert (state["stack"], state["turn"]) == ({"count": 1, "claim": "Chili 2"}, "Ben to play")
        elif isinstance(action, Resolve):
            assert [entry["title"] for entry in state["challenges"]] == ["Chili 2: the challenger was right."]
            assert state["seats"][1]["won"] == 1 and state["stack"]["count"] == 0
        elif isinstance(action, Undo):
            assert state["challenges"] == [] and state["stack"]["count"] == 1
    assert max(delays) < BOUND, delays
    phone.close()


def test_a_phone_that_joins_late_gets_the_table_as_it_is_now(server: PhoneServer) -> None:
    game = transcript_game("play Ana chili 2", "play Ben chili 4")
    early = Stream(server)
    for upto in (transcript_game(), transcript_game("play Ana chili 2"), game):
        server.publish(snapshot_of(upto))
    with early.arrived:  # the server has made all three (a stream that opened first may skip to the newest)
        assert early.arrived.wait_for(lambda: early.events and early.events[-1][1]["stack"]["count"] == 2, 10)
    late = Stream(server)
    events = late.wait_for(1)
    time.sleep(0.2)
    assert len(late.events) == 1 and events[0][1]["stack"] == {"count": 2, "claim": "Chili 4"}
    late.close()
    early.close()



def test_a_phone_that_resets_its_connection_mid_request_is_no_traceback_and_the_page_goes_on(
        server: PhoneServer, capfd: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        with socket.create_connection(server.server_address[:2]) as phone:
            phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close: a reset
            phone.sendall(b"GET /")
    time.sleep(0.5)  # the server's threads have read the resets
    assert request(server, "GET", f"/{server.token}/").status == 200
    assert "Traceback" not in capfd.readouterr().err

@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
def test_nothing_but_get_is_answered(server: PhoneServer, method: str) -> None:
    response = request(server, method, f"/{server.token}/events")
    assert response.status == 405 and response.getheader("Allow") == "GET"


@pytest.mark.parametrize("path", ["/", "/events", "/page.js", "/wrong-token/", "/wrong-token/events",
                                  "/kkkkkkkkkkkkkkkkkkkkkk", "/kkkkkkkkkkkkkkkkkkkkkj/events",
                                  "/kkkkkkkkkkkkkkkkkkkkkk/../page.py", "/kkkkkkkkkkkkkkkkkkkkkk/server.py"])
def test_without_the_games_token_nothing_is_served(server: PhoneServer, path: str) -> None:
    server.publish(snapshot_of(transcript_game()))
    response = request(server, "GET", path)
    assert response.status == 404
    phone = Stream(server, path)
    assert phone.response.status == 404 and phone.events == []
    phone.close()


def test_the_page_its_script_and_style_are_served_under_the_token(server: PhoneServer) -> None:
    for name, kind in [("", "text/html"), ("page.js", "text/javascript"), ("page.css", "text/css")]:
        response = request(server, "GET", f"/{server.token}/{name}")
        assert response.status == 200 and response.getheader("Content-Type", "").startswith(kind)
        assert response.getheader("Cache-Control") == "no-store"
        assert "default-src 'none'" in response.getheader("Content-Security-Policy", "")


def test_thirty_phones_at_once_all_get_every_update(server: PhoneServer) -> None:
    """A bounded load on loopback: 30 streams, 40 updates as fast as the table can make them, then closed."""
    server.publish(partial(dict, n=0))
    phones = [Stream(server) for _ in range(30)]
    for phone in phones:
        phone.wait_for(1)
    for n in range(1, 41):
        server.publish(partial(dict, n=n))
    for phone in phones:
        numbers = [state["n"] for _at, state in phone.wait_for(41)]
        assert numbers == list(range(41)), numbers
        phone.close()


def test_thirty_phones_keep_no_thread_each(server: PhoneServer) -> None:
    """One thread of the server writes every stream: thirty threads waking at each change, each taking the
    interpreter's lock in turn, held back the table's frames. A phone's request thread ends with its headers."""
    server.publish(partial(dict, n=0))
    threads = threading.active_count()
    phones = [Stream(server) for _ in range(30)]
    for phone in phones:
        phone.wait_for(1)
    deadline = time.monotonic() + 5
    while threading.active_count() > threads + 30 and time.monotonic() < deadline:  # each phone's own reader
        time.sleep(0.01)
    assert threading.active_count() == threads + 30
    server.publish(partial(dict, n=1))
    assert all(phone.wait_for(2)[-1][1] == {"n": 1} for phone in phones)
    for phone in phones:
        phone.close()


def test_a_phone_that_stops_reading_delays_nobody_and_later_skips_to_the_newest(server: PhoneServer) -> None:
    """Its socket full, the writer keeps what it has yet to send and goes on with the others; once it reads
    again it finishes the event it was in, then gets the newest, not every one it missed."""
    host, port = server.server_address[:2]
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.connect((str(host), port))
    slow.sendall(f"GET /{server.token}/events HTTP/1.1\r\nHost: phone\r\n\r\n".encode())
    server.publish(partial(dict, n=0, pad="x" * 50_000))
    phone = Stream(server)
    phone.wait_for(1)
    for n in range(1, 201):  # 10 MB: more than the sockets hold
        server.publish(partial(dict, n=n, pad="x" * 50_000))
        assert phone.wait_for(n + 1)[-1][1]["n"] == n  # at once, while the slow one reads nothing
    slow.settimeout(10)
    read = b""
    while b'"n":200,' not in read or not read.endswith(b"\n\n"):
        chunk = slow.recv(65536)
        assert chunk, read[-200:]
        read += chunk
    numbers = [json.loads(line[6:])["n"] for line in read.split(b"\n") if line.startswith(b"data: ")]
    assert numbers == sorted(numbers) and numbers[-1] == 200 and len(numbers) < 201 - 64, numbers
    slow.close()
    phone.close()


def test_stopping_closes_every_stream(server: PhoneServer) -> None:
    server.publish(snapshot_of(transcript_game()))
    phone = Stream(server)
    phone.wait_for(1)
    started = time.perf_counter()
    server.stop()
    assert time.perf_counter() - started < 5
    assert phone.ended.wait(5)  # the stream ended, rather than hanging


def test_each_game_has_its_own_token_and_keeps_it_across_restarts(tmp_path: Any) -> None:
    key = tmp_path / "phones.key"
    first, second = game_token(key, 1), game_token(key, 2)
    assert first != second and len(first) == 22 and first.replace("-", "").replace("_", "").isalnum()
    assert game_token(key, 1) == first  # the same key file: a page left open finds its game again
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    other = tmp_path / "other" / "phones.key"
    assert game_token(other, 1) != first  # another table's key: nobody can work the token out


def test_a_page_left_open_finds_the_same_game_again_after_the_pi_restarts(tmp_path: Any) -> None:
    """The stream tells the browser to come back in 2 s; the restarted table serves the same address (the same
    port, and the token from the same key and game), so the page's own retry lands on the game as it is now."""
    key = tmp_path / "phones.key"
    before = PhoneServer("127.0.0.1", game_token(key, 7)).start()
    port = before.server_address[1]
    before.publish(snapshot_of(transcript_game()))
    phone = Stream(before)
    phone.wait_for(1)
    before.stop()  # the power goes
    assert phone.ended.wait(5) and phone.retry == b"retry: 2000\n"
    after = PhoneServer("127.0.0.1", game_token(key, 7), port).start()  # the table is back, with its game
    try:
        after.publish(snapshot_of(transcript_game("play Ana chili 2")))
        again = Stream(after, before.url.split(str(port), 1)[1] + "events")
        assert again.wait_for(1)[0][1]["stack"]["count"] == 1
        again.close()
    finally:
        after.stop()


def test_the_table_in_the_page_cannot_end_its_script_early_whatever_a_name_holds(server: PhoneServer) -> None:
    name = "</script><script>alert(1)</script>&<!--"
    server.publish(partial(dict, seats=[{"name": name}]))
    phone = Stream(server)
    phone.wait_for(1)  # the snapshot is made
    phone.close()
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), port, timeout=10)
    connection.request("GET", f"/{server.token}/")
    page = connection.getresponse().read().decode()
    connection.close()
    inline = page.split('<script type="application/json" id="now">', 1)[1].split("</script>", 1)[0]
    assert "<" not in inline and ">" not in inline and "&" not in inline
    assert json.loads(inline) == {"seats": [{"name": name}]}


@pytest.mark.parametrize(("pile", "level", "words"), [(20, "calm", "before World's End"),
                                                      (8, "warning", "World's End is near"),
                                                      (2, "danger", "World's End next!")])
def test_the_page_warns_of_the_worlds_end_as_the_table_does(pile: int, level: str, words: str) -> None:
    """Three seats: within three rounds a warning, within one a danger, as ``table_model.end_level`` says."""
    snapshot = snapshot_of(transcript_game(f"adjust draw-pile {pile}"))()
    assert snapshot["draw_pile"] == {"count": pile, "level": level, "warning": words}
