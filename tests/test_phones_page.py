"""The phone page in a real browser: Debian's Chromium, headless, loads it from loopback and shows the table.

The test command installs ``chromium``; the page is served by the app's server with the app's snapshot of a
real game, and the browser's DOM and screenshot are read back: the scores and hands as the rules count them,
in the table's language, in the seats' colours, on a phone's width.
"""

from __future__ import annotations

import http.client
import re
import struct
import subprocess
import zlib
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from companion.phones.server import PhoneServer
from companion.table.model import table_model
from companion.ui.phone_page import phone_snapshot
from rules_helpers import game

CHROMIUM = "/usr/bin/chromium"
PHONE = (390, 844)
COLOURS = ("#FF8A5C", "#5B9BF0", "#B68AF0", "#F472B6")
LINES = ("play Ana chili 2", "challenge Ben number", "resolve challenger", "play Ana wasabi 3", "play Ben wasabi 5")
HEADER = "rules spicy\nseats Ana Ben Cy Dee\nend-card 9"


def browse(url: str, folder: Path, *what: str) -> str:
    """Chromium, headless and cut off from everything but the page: its output (the DOM), or its screenshot."""
    folder.mkdir(exist_ok=True)
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         f"--user-data-dir={folder / 'profile'}", f"--window-size={PHONE[0]},{PHONE[1]}", *what, url],
        capture_output=True, text=True, timeout=120, cwd=folder,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def pixels(png: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA PNG, as Chromium writes them."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    idat = b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        idat += body if kind == b"IDAT" else b""
        chunks.setdefault(kind, body)
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and colour in (2, 6)
    step = 3 if colour == 2 else 4
    raw, rows, previous = zlib.decompress(idat), [], bytes(width * step)
    for y in range(height):
        kind, line = raw[y * (width * step + 1)], bytearray(raw[y * (width * step + 1) + 1:(y + 1) * (width * step + 1)])
        for i in range(len(line)):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            guess = left + up - corner
            near = min((abs(guess - left), left), (abs(guess - up), up), (abs(guess - corner), corner),
                       key=lambda pair: pair[0])[1]
            line[i] = (line[i] + (0, left, up, (left + up) // 2, near)[kind]) & 0xFF
        previous = bytes(line)
        rows.append(b"".join(previous[x:x + 3] for x in range(0, len(previous), step)))
    return width, height, rows


def made(server: PhoneServer) -> None:
    """Once the server's thread has made the snapshot (a stream's first event): the page comes with it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    connection.request("GET", f"/{server.token}/events")
    assert any(line.startswith(b"data: ") for line in connection.getresponse())
    connection.close()


@pytest.fixture
def page() -> Iterator[tuple[str, object]]:
    played = game(*LINES, header=HEADER)
    server = PhoneServer("127.0.0.1", "page-test-token").start()
    server.publish(partial(phone_snapshot, table_model(played), played, tuple(played.setup.names), COLOURS))
    made(server)
    yield server.url, played
    server.stop()


def test_chromium_shows_every_seat_with_its_score_and_hand_as_the_rules_count_them(page, tmp_path: Path) -> None:
    url, played = page
    dom = browse(url, tmp_path, "--dump-dom")
    state = played.state
    rows = re.findall(r"<tr[^>]*><td[^>]*>([^<]*)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td[^>]*>([^<]*)</td>", dom)
    assert rows == [(seat.name, str(seat.hand), str(seat.won), str(seat.trophies), str(state.score(i)))
                    for i, seat in enumerate(state.seats)]
    assert state.score(1) != state.score(0)  # Ben won the challenge: the scores differ, and each is in its row
    assert '<p id="turn" class="turn">Cy to play</p>' in dom
    assert "Chili 2: the challenger was right." in dom and '<span id="claim" class="claim">Wasabi 5</span>' in dom
    assert '<html lang="en" dir="ltr">' in dom


def test_chromium_shows_the_page_in_the_tables_language(french: None, page, tmp_path: Path) -> None:
    url, _played = page
    dom = browse(url, tmp_path, "--dump-dom")
    assert '<html lang="fr" dir="ltr">' in dom
    assert '<p id="turn" class="turn">À Cy de jouer</p>' in dom and '<h2 id="log-label">Défis</h2>' in dom


def test_chromium_draws_it_on_a_phone_held_upright_in_the_seats_colours(page, tmp_path: Path) -> None:
    url, _played = page
    browse(url, tmp_path, "--screenshot=" + str(tmp_path / "phone.png"))
    width, height, rows = pixels(tmp_path / "phone.png")
    assert (width, height) == PHONE
    found = {bytes.fromhex(colour[1:]) for colour in COLOURS if any(bytes.fromhex(colour[1:]) in row for row in rows)}
    assert len(found) == len(COLOURS), found  # each seat's stripe is drawn
    text = {row[x:x + 3] for row in rows for x in range(0, len(row), 3)}
    assert bytes.fromhex("FFF4E6") in text  # the table's text colour: words were drawn, not an empty page
