"""Eject's privileged half takes only a plain name, and only a mount point under the sticks' folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from companion import eject, takehome
from companion.eject import requested_stick


@pytest.mark.parametrize("name", ["../etc", "sda1/../../x", ".hidden", "", "a" * 80])
def test_a_name_that_is_not_plain_is_refused_and_the_request_used_up(tmp_path: Path, name: str) -> None:
    request = tmp_path / "eject"
    request.write_text(name)
    (tmp_path / "media").mkdir()
    assert requested_stick(request, tmp_path / "media") is None
    assert not request.exists()


def test_only_a_mount_point_is_ejected(tmp_path: Path) -> None:
    media, request = tmp_path / "media", tmp_path / "eject"
    (media / "sda1").mkdir(parents=True)
    request.write_text("sda1\n")
    assert requested_stick(request, media) is None  # a plain folder: nothing to unmount
    if os.geteuid() != 0:
        pytest.skip("mounting a stand-in stick needs root (CI runs as root)")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", media / "sda1"], check=True)
    try:
        request.write_text("sda1\n")
        assert requested_stick(request, media) == media / "sda1"
    finally:
        subprocess.run(["umount", media / "sda1"], check=True)


def test_a_test_looks_for_sticks_in_its_own_folder_never_the_machines(own_user_folders: Path) -> None:
    """A stick mounted under /media/spicy-companion on the machine running the suite became the take-home
    screen's place in its tests; the sticks, their labels and the eject request are each test's own."""
    for place in (eject.MEDIA, eject.REQUEST, takehome.BY_LABEL):
        assert place.is_relative_to(own_user_folders)
