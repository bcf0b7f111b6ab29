"""The root helper behind "Show the game on phones": a request of on or off, and nothing else, moves the drop-in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.phones import switch


@pytest.mark.parametrize(("written", "meant"), [("on\n", True), ("off\n", False), ("on", True), ("ON\n", None),
                                                ("on off\n", None), ("/etc/shadow\n", None), ("", None),
                                                ("on" * 40, None)])
def test_only_on_or_off_is_taken_and_the_request_is_used_up(tmp_path: Path, written: str, meant: bool | None) -> None:
    request = tmp_path / "phones"
    request.write_text(written)
    assert switch.requested(request) is meant
    assert not request.exists()


@pytest.mark.parametrize("kind", ["fifo", "link", "folder", "missing"])
def test_a_request_that_is_not_a_plain_file_is_refused_without_waiting(tmp_path: Path, kind: str) -> None:
    request = tmp_path / "phones"
    if kind == "fifo":
        os.mkfifo(request)
    elif kind == "link":
        (tmp_path / "target").write_text("on\n")
        request.symlink_to(tmp_path / "target")
    elif kind == "folder":
        request.mkdir()
    assert switch.requested(request) is None
    assert kind == "folder" or not request.is_symlink() and not request.exists()


def test_the_drop_in_is_the_packages_own_and_moves_only_when_asked(tmp_path: Path) -> None:
    drop_in = tmp_path / "spicy-companion.service.d" / "phones.conf"
    assert not switch.put(False, drop_in)
    assert switch.put(True, drop_in) and drop_in.read_bytes() == switch.NETWORK.read_bytes()
    assert oct(drop_in.stat().st_mode & 0o777) == "0o644"
    assert not switch.put(True, drop_in)  # already on: no reload, no restart
    drop_in.write_text("[Service]\nPrivateNetwork=no\n")  # changed by hand: put back as it should be
    assert switch.put(True, drop_in) and drop_in.read_bytes() == switch.NETWORK.read_bytes()
    assert switch.put(False, drop_in) and not drop_in.exists()
