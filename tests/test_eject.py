"""Eject's privileged half takes only a plain name, and only a mount point under the sticks' folder."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.pi import eject, takehome
from companion.pi.eject import requested_stick

REPO = Path(__file__).parent.parent


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


ASK = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 28, 1 << 28))  # reading /dev/zero to the end fails here, not the machine
from companion.pi.eject import requested_stick
print(requested_stick(Path(sys.argv[1]), Path(sys.argv[2])))
"""


def plant(kind: str, request: Path, elsewhere: Path) -> None:
    """What the kiosk's side could leave at the request's name instead of a file holding a stick's name."""
    if kind == "a link to /dev/zero":
        request.symlink_to("/dev/zero")
    elif kind == "a link to a file naming a stick":
        elsewhere.write_text("sda1\n")
        request.symlink_to(elsewhere)
    elif kind == "a FIFO no one writes":
        os.mkfifo(request)
    else:
        request.write_text("sda1" + "\n" * 100_000)  # a plain name, then more than a name could ever be


@pytest.mark.parametrize("kind", ["a link to /dev/zero", "a link to a file naming a stick", "a FIFO no one writes",
                                  "a file longer than a name"])
def test_a_request_that_is_not_a_short_plain_file_is_refused_used_up_and_never_hangs(tmp_path: Path, kind: str) -> None:
    media, request = tmp_path / "media", tmp_path / "eject"
    (media / "sda1").mkdir(parents=True)
    plant(kind, request, tmp_path / "elsewhere")
    mounted = os.geteuid() == 0 and kind != "a link to /dev/zero"
    if mounted:  # a real stick under that name, so that only the request's kind can refuse it
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", media / "sda1"], check=True)
    try:
        result = subprocess.run([sys.executable, "-c", ASK, request, media], capture_output=True, text=True,
                                timeout=60)  # a hang guard, far beyond the instant this takes
    finally:
        if mounted:
            subprocess.run(["umount", media / "sda1"], check=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, "None\n", "")
    assert not os.path.lexists(request)


KIOSK = 4321
"""The service user's and group's number here: no such user is needed, only the number on the files."""

WRITE = """
import os, sys
from pathlib import Path
os.umask(int(sys.argv[3], 8))
from companion.pi.takehome import request_eject
request_eject(Path(sys.argv[1]), Path(sys.argv[2]))
"""


def unit(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.read_string((REPO / "systemd" / name).read_text())
    return parser["Service"]


def test_the_helper_confined_as_its_unit_reads_and_uses_up_what_the_kiosk_wrote(tmp_path: Path) -> None:
    """Root without the capability to override permissions: the eject unit's groups and the kiosk's modes must meet."""
    kiosk, helper = unit("spicy-companion.service"), unit("spicy-companion-eject.service")
    assert helper["supplementarygroups"] == kiosk["group"]
    top = Path(tempfile.mkdtemp())  # outside pytest's folders, which only root may enter
    try:
        top.chmod(0o711)
        run, media = top / "run", top / "media"
        run.mkdir()
        os.chown(run, KIOSK, KIOSK)
        run.chmod(int(kiosk["runtimedirectorymode"], 8))
        (media / "sda1").mkdir(parents=True)
        subprocess.run(["setpriv", f"--reuid={KIOSK}", f"--regid={KIOSK}", "--clear-groups", sys.executable, "-c",
                        WRITE, media / "sda1", run / "eject", kiosk["umask"]], check=True, cwd=REPO)  # fmt: skip
        caps = ",".join("+" + cap.removeprefix("CAP_").lower() for cap in helper["capabilityboundingset"].split())
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", media / "sda1"], check=True)
        try:
            result = subprocess.run(["setpriv", f"--bounding-set=-all,{caps}", "--inh-caps=-all", f"--groups={KIOSK}",
                                     sys.executable, "-c", ASK, run / "eject", media],
                                    capture_output=True, text=True, cwd=REPO, timeout=60)  # fmt: skip
        finally:
            subprocess.run(["umount", media / "sda1"], check=True)
        assert (result.returncode, result.stdout, result.stderr) == (0, f"{media / 'sda1'}\n", "")
        assert list(run.iterdir()) == []
    finally:
        shutil.rmtree(top)


def test_a_test_looks_for_sticks_in_its_own_folder_never_the_machines(own_user_folders: Path) -> None:
    """A stick mounted under /media/spicy-companion on the machine running the suite became the take-home
    screen's place in its tests; the sticks, their labels and the eject request are each test's own."""
    for place in (eject.MEDIA, eject.REQUEST, takehome.BY_LABEL):
        assert place.is_relative_to(own_user_folders)
