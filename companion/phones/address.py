"""Where phones find the page: the table's address on the local network, and each game's token.

The token is an HMAC of the game's number under a random key kept in the user
data folder (readable by the app alone): random to a neighbour, different for
every game, and the same after the Pi restarts, so a page left open on a
phone reconnects to the game it was shown and to no other.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import os
import secrets
import socket
import stat
from pathlib import Path

from companion.files import write_whole

PORT = 8137
"""A fixed port, so the address a phone holds is the same after the Pi restarts and its page reconnects."""
KEY_BYTES = 32
PROBE = ("192.0.2.1", 9)
"""A documentation address (RFC 5737): connecting a UDP socket to it sends nothing, but picks the interface
the default route would use."""


def lan_address() -> str | None:
    """The table's own IPv4 address on a private network, or None (no network, or only a public one)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            host = str(probe.getsockname()[0])
    except OSError:
        return None
    address = ipaddress.ip_address(host)
    return host if address.is_private and not address.is_loopback and not address.is_unspecified else None


def game_token(key_file: Path, game_id: int) -> str:
    """The game's token: 128 bits, URL-safe."""
    digest = hmac.new(_key(key_file), f"game {game_id}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _key(key_file: Path) -> bytes:
    """The key, made on first use; one that is not ours (too short, not a regular file) is replaced."""
    try:
        descriptor = os.open(key_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            key = os.read(descriptor, KEY_BYTES + 1) if stat.S_ISREG(os.fstat(descriptor).st_mode) else b""
        finally:
            os.close(descriptor)
        if len(key) == KEY_BYTES:
            return key
    except OSError:
        pass
    key = secrets.token_bytes(KEY_BYTES)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    write_whole(key_file, key, 0o600)
    return key
