"""The installer, run into a temporary root that stands for a fresh Raspberry Pi OS.

Users and groups are made with ``useradd --root``, which writes the root's own
etc/passwd and etc/group, never the host's; owners are checked against the
numbers in those files. The root gets the host's systemd units (a Pi has them),
so ``systemd-analyze verify --root`` checks the installed service as the Pi would
see it, down to its ExecStart in the new venv.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion import __version__
from companion.cli import main
from companion.phones import switch
from companion.pi.install import BUILD_LEFTOVERS, GROUPS, STATE, UDEV_RULES, USER, Installer

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="setting owners needs root (scripts/test runs as root in CI)")

REPO = Path(__file__).parent.parent


def fresh_root(root: Path) -> Path:
    """A Pi's /etc as far as the installer reads it: root, and some of the groups Raspberry Pi OS has."""
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:\naudio:x:29:\nvideo:x:44:\n")
    for name in ("shadow", "gshadow"):
        (root / "etc" / name).touch(mode=0o640)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    return root


def install(root: Path, *more: str) -> int:
    return main(["install", "--root", str(root), "--pip-option=--no-deps", *more])


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = fresh_root(tmp_path_factory.mktemp("pi"))
    assert install(root) == 0
    return root


def ids(root: Path, table: str, name: str) -> list[str]:
    return next(line.split(":") for line in (root / "etc" / table).read_text().splitlines() if line.startswith(name + ":"))


def owner_and_mode(path: Path) -> tuple[int, int, str]:
    info = path.stat()
    return info.st_uid, info.st_gid, oct(stat.S_IMODE(info.st_mode))


def test_files_land_where_they_belong_with_their_owners_and_modes(installed: Path) -> None:
    uid, gid = int(ids(installed, "passwd", USER)[2]), int(ids(installed, "group", USER)[2])
    assert uid != 0 and ids(installed, "passwd", USER)[5:] == ["/var/lib/spicy-companion", "/usr/sbin/nologin"]
    for group in GROUPS:
        assert USER in ids(installed, "group", group)[3].split(","), group

    unit = installed / "etc/systemd/system/spicy-companion.service"
    assert unit.read_bytes() == (REPO / "systemd/spicy-companion.service").read_bytes()
    assert owner_and_mode(unit) == (0, 0, "0o644")
    for rule in UDEV_RULES:
        assert owner_and_mode(installed / "etc/udev/rules.d" / rule) == (0, 0, "0o644")
    # The app reads its config but cannot change it.
    assert owner_and_mode(installed / "etc/spicy-companion") == (0, gid, "0o750")
    config = installed / "etc/spicy-companion/config.toml"
    assert owner_and_mode(config) == (0, gid, "0o640")
    assert config.read_bytes() == (REPO / "companion/config.example.toml").read_bytes()
    assert owner_and_mode(installed / "var/lib/spicy-companion") == (uid, gid, "0o750")
    wants = installed / "etc/systemd/system/multi-user.target.wants/spicy-companion.service"
    assert wants.is_symlink() and os.readlink(wants) == "/etc/systemd/system/spicy-companion.service"


def test_the_venv_holds_this_version_of_the_app(installed: Path) -> None:
    python = installed / "opt/spicy-companion/venv/bin/python"
    version = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('spicy-companion'))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert version == __version__
    assert (installed / "opt/spicy-companion/venv/bin/spicy-companion").exists()


def test_systemd_accepts_the_installed_service(installed: Path) -> None:
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={installed}", "spicy-companion.service"], capture_output=True, text=True
    )
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def snapshot(root: Path) -> dict[str, tuple[int, int, int, int]]:
    return {
        str(path.relative_to(root)): (info.st_mode, info.st_uid, info.st_gid, info.st_mtime_ns)
        for path in sorted(root.rglob("*"))
        for info in [path.lstat()]
    }


def test_a_second_run_changes_nothing(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(installed)
    capsys.readouterr()
    assert install(installed) == 0
    assert capsys.readouterr().out == "nothing to change: everything is installed\n"
    assert snapshot(installed) == before


def copy(installed: Path, root: Path) -> None:
    """Another Pi with the same installation, owners and modes included."""
    subprocess.run(["cp", "-a", installed, root], check=True)


def test_a_changed_mode_or_a_lost_file_is_put_right(installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pi"
    copy(installed, root)
    (root / "etc/spicy-companion/config.toml").write_text("[ui]\nlanguage = 'fr'\n")  # the owner's edit
    (root / "var/lib/spicy-companion").chmod(0o777)
    (root / "var/lib/spicy-companion/games.db").write_bytes(b"")  # left by an earlier install, another uid
    os.chown(root / "var/lib/spicy-companion/games.db", 4321, 4321)
    (root / "etc/udev/rules.d/99-spicy-buzzers.rules").unlink()
    groups = (root / "etc/group").read_text().splitlines()
    left_render = [line.rsplit(":", 1)[0] + ":" if line.startswith("render:") else line for line in groups]
    (root / "etc/group").write_text("\n".join(left_render) + "\n")
    capsys.readouterr()
    assert main(["install", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"added {USER} to group render",
        "wrote /etc/udev/rules.d/99-spicy-buzzers.rules",
        "mode of /var/lib/spicy-companion set to 0750",
        f"gave var/lib/spicy-companion/games.db to {USER}",
    ]
    assert (root / "etc/spicy-companion/config.toml").read_text() == "[ui]\nlanguage = 'fr'\n"


def test_a_pulled_change_is_installed_even_at_the_same_version(installed: Path, tmp_path: Path) -> None:
    root, source = tmp_path / "pi", tmp_path / "clone"
    copy(installed, root)
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*BUILD_LEFTOVERS))
    (source / "companion" / "pulled.py").write_text('"""What a git pull brought."""\n')
    out = io.StringIO()
    Installer(root, source, out, ["--no-deps"]).install()
    assert out.getvalue().splitlines() == [
        f"installed spicy-companion {__version__} from {source} into /opt/spicy-companion/venv"
    ]
    assert list((root / "opt/spicy-companion/venv/lib").glob("python3*/site-packages/companion/pulled.py"))


def test_uninstall_removes_everything_but_the_saved_games(
    installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "pi"
    copy(installed, root)
    switch.put(True, root / "etc/systemd/system/spicy-companion.service.d/phones.conf")  # the setting was on
    games = root / "var/lib/spicy-companion/games.db"
    games.write_bytes(b"SQLite format 3\0 the saved games")
    assert install(root, "--uninstall") == 0
    assert "kept /var/lib/spicy-companion: the saved games" in capsys.readouterr().out
    for gone in (
        "opt/spicy-companion",
        "etc/spicy-companion",
        "etc/systemd/system/spicy-companion.service",
        "etc/systemd/system/multi-user.target.wants/spicy-companion.service",
        "etc/udev/rules.d/99-spicy-buzzers.rules",
        "etc/udev/rules.d/99-spicy-touch.rules",
        "etc/udev/rules.d/99-spicy-usb-sticks.rules",
        "etc/systemd/system/spicy-companion-eject.path",
        "etc/systemd/system/multi-user.target.wants/spicy-companion-eject.path",
        "etc/systemd/system/spicy-companion-syncthing.service",
        "etc/systemd/system/spicy-companion-syncthing.path",
        "etc/systemd/system/multi-user.target.wants/spicy-companion-syncthing.path",
        "etc/systemd/system/spicy-companion-beacon.service",
        "etc/systemd/system/spicy-companion-phones.path",
        "etc/systemd/system/spicy-companion-phones.service",
        "etc/systemd/system/multi-user.target.wants/spicy-companion-phones.path",
        "etc/systemd/system/spicy-companion.service.d",
        "media/spicy-companion",
    ):
        assert not (root / gone).exists(), gone
    assert f"\n{USER}:" not in "\n" + (root / "etc/passwd").read_text()
    assert games.read_bytes() == b"SQLite format 3\0 the saved games"


def test_the_installer_needs_root_for_the_running_system(tmp_path: Path) -> None:
    """As any other user it refuses in one line, before touching anything."""
    result = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-m", "companion.cli", "install"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        2,
        "spicy-companion: the installer sets owners and users: run it as root (sudo)\n",
    )


def test_the_venv_sees_the_system_packages_for_python3_lgpio(installed: Path) -> None:
    """Raspberry Pi OS's python3-lgpio is a system package: a plain venv would not see it."""
    config = (installed / "opt/spicy-companion/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in config


def test_a_link_planted_in_the_state_folder_is_never_followed(
    installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whoever runs as the service user can write there; root's next install must not hand it /etc/shadow."""
    root = tmp_path / "pi"
    copy(installed, root)
    state, shadow, gshadow = root / "var/lib/spicy-companion", root / "etc/shadow", root / "etc/gshadow"
    (state / "games.db-x").symlink_to(shadow)
    (state / "kivy").mkdir()
    (state / "kivy" / "config.ini").symlink_to(root / "etc")  # a link to a folder, one level down
    os.link(gshadow, state / "games.db-y")  # a second name for the file itself
    capsys.readouterr()
    assert install(root) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"left var/lib/spicy-companion/games.db-x alone: a link is never given to {USER}" in out
    assert f"left var/lib/spicy-companion/games.db-y alone: a link is never given to {USER}" in out
    assert f"left var/lib/spicy-companion/kivy/config.ini alone: a link is never given to {USER}" in out
    for target in (shadow, gshadow, root / "etc"):
        assert target.stat().st_uid == 0 and target.stat().st_gid == 0, target
    assert (state / "games.db-x").lstat().st_uid == 0


SWAPPER = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
folder, link = (os.fsencode(p) for p in sys.argv[1:])
print("swapping", flush=True)
while True:
    libc.renameat2(-100, folder, -100, link, 2)  # AT_FDCWD, RENAME_EXCHANGE: the name is a folder, then a link
"""


def test_a_folder_swapped_for_a_link_during_the_walk_is_never_followed(installed: Path, tmp_path: Path) -> None:
    """The service user swaps a folder it owns for a link to /etc between the walk listing it and descending."""
    root = tmp_path / "pi"
    copy(installed, root)
    state = root / "var/lib/spicy-companion"
    (state / "kivy").mkdir()
    for name in ("config.ini", "icon.png"):
        (state / "kivy" / name).write_bytes(b"")
    (state / "kivy-next").symlink_to(root / "etc")
    before = {path: path.lstat() for path in (root / "etc").rglob("*")}
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, state / "kivy", state / "kivy-next"],
                               stdout=subprocess.PIPE, text=True)  # fmt: skip
    seen = {name: 0 for name in ("kivy", "kivy-next")}  # walks that found each name a link: swaps did happen
    try:
        assert swapper.stdout is not None and swapper.stdout.readline() == "swapping\n"
        for _ in range(2000):
            out = io.StringIO()
            Installer(root, REPO, out).directory(STATE, 0o750, owner=USER, group=USER, deep=True)
            for name in seen:
                seen[name] += f"var/lib/spicy-companion/{name} alone" in out.getvalue()
            if min(seen.values()) >= 50:
                break
    finally:
        swapper.kill()
        swapper.wait()
    taken = [str(path.relative_to(root)) for path, info in before.items()
             if (path.lstat().st_uid, path.lstat().st_gid) != (info.st_uid, info.st_gid)]  # fmt: skip
    assert min(seen.values()) >= 50 and taken == []


def test_a_state_folder_that_is_itself_a_link_is_refused(
    installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "pi"
    copy(installed, root)
    shutil.rmtree(root / "var/lib/spicy-companion")
    (root / "var/lib/spicy-companion").symlink_to(root / "etc")
    capsys.readouterr()
    assert install(root) == 2
    assert capsys.readouterr().err == (
        "spicy-companion: /var/lib/spicy-companion is a symbolic link: "
        "remove it (sudo rm /var/lib/spicy-companion), then install again\n"
    )
    assert (root / "etc").stat().st_uid == 0 and oct(stat.S_IMODE((root / "etc").stat().st_mode)) != "0o750"


def test_a_failed_pip_says_so_in_one_line_and_leaves_no_venv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Here pip cannot reach a package index (as on a Pi without network): the next run starts clean."""
    root = fresh_root(tmp_path / "pi")
    assert main(["install", "--root", str(root), "--pip-option=--no-index", "--pip-option=--find-links=/nowhere"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spicy-companion: pip could not install the app into /opt/spicy-companion/venv (")
    assert "setuptools" in err and err.endswith("fix that, then run sudo .venv/bin/spicy-companion install again\n")
    assert err.count("\n") == 1
    assert not (root / "opt/spicy-companion/venv").exists()


def test_a_venv_an_interrupted_install_left_is_made_again(installed: Path, tmp_path: Path) -> None:
    root = tmp_path / "pi"
    copy(installed, root)
    (root / "opt/spicy-companion/venv/spicy-companion-source.sha256").unlink()  # pip never finished
    out = io.StringIO()
    Installer(root, REPO, out, ["--no-deps"]).install()
    assert out.getvalue().splitlines() == [
        "removed /opt/spicy-companion/venv: an earlier install did not finish",
        "created the venv /opt/spicy-companion/venv",
        f"installed spicy-companion {__version__} from {REPO} into /opt/spicy-companion/venv",
    ]


def test_an_earlier_install_s_input_group_is_taken_away(installed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The service gets every group its user is in: left in ``input``, it would still read every keyboard."""
    root = tmp_path / "pi"
    copy(installed, root)
    subprocess.run(["groupadd", "--root", str(root), "--system", "input"], check=True)
    subprocess.run(["usermod", "--root", str(root), "--append", "--groups", "input", USER], check=True)
    capsys.readouterr()
    assert install(root) == 0
    assert capsys.readouterr().out.splitlines() == [f"removed {USER} from group input"]
    assert USER not in ids(root, "group", "input")[3].split(",")
    assert "input" not in GROUPS


def test_a_venv_an_older_install_made_is_let_see_the_system_packages(installed: Path, tmp_path: Path) -> None:
    """Older installs took lgpio from pip; python3-lgpio is invisible to a venv without system site packages."""
    root = tmp_path / "pi"
    copy(installed, root)
    config = root / "opt/spicy-companion/venv/pyvenv.cfg"
    config.write_text(config.read_text().replace("include-system-site-packages = true", "include-system-site-packages = false"))
    out = io.StringIO()
    Installer(root, REPO, out, ["--no-deps"]).install()
    assert out.getvalue().splitlines() == [
        "the venv /opt/spicy-companion/venv now sees the system's packages (python3-lgpio)"
    ]
    assert "include-system-site-packages = true" in config.read_text()
def test_usb_sticks_mount_under_the_one_folder_the_service_may_write(installed: Path) -> None:
    uid, gid = ids(installed, "passwd", USER)[2], ids(installed, "group", USER)[2]
    rule = (installed / "etc/udev/rules.d/99-spicy-usb-sticks.rules").read_text()
    mounts = [line for line in rule.splitlines() if "systemd-mount" in line and not line.startswith("#")]
    assert len(mounts) == 2 and all("--options=nosuid,nodev,noexec" in line for line in mounts)
    assert all(" $devnode /media/spicy-companion/%k" in line for line in mounts)
    assert f"uid={uid},gid={gid}," in mounts[0] and 'ENV{ID_FS_TYPE}=="vfat|exfat"' in mounts[0]
    assert 'ENV{ID_FS_TYPE}=="ext4"' in mounts[1] and "@" not in rule
    assert owner_and_mode(installed / "media/spicy-companion") == (0, int(gid), "0o750")
    service = (installed / "etc/systemd/system/spicy-companion.service").read_text().splitlines()
    writable = [line for line in service if line.startswith(("ReadWritePaths=", "ReadWriteDirectories="))]
    assert writable == ["ReadWritePaths=-/media/spicy-companion"]
    wants = installed / "etc/systemd/system/multi-user.target.wants/spicy-companion-eject.path"
    assert wants.is_symlink()
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={installed}", "spicy-companion-eject.path",
         "spicy-companion-eject.service"], capture_output=True, text=True,
    )  # fmt: skip
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def test_syncthing_is_installed_to_start_while_the_league_is_on(installed: Path, tmp_path: Path) -> None:
    """And the beacon beside it, which only Syncthing's service starts."""
    wants = installed / "etc/systemd/system/multi-user.target.wants/spicy-companion-syncthing.path"
    assert wants.is_symlink()
    assert (installed / "etc/systemd/system/spicy-companion-beacon.service").is_file()
    assert not list(installed.glob("etc/systemd/system/*.wants/spicy-companion-beacon.service"))
    assert not (installed / "etc/systemd/system/multi-user.target.wants/spicy-companion-syncthing.service").exists()
    root = tmp_path / "pi"
    copy(installed, root)
    (root / "usr/bin").mkdir(parents=True, exist_ok=True)
    shutil.copy(shutil.which("syncthing") or "syncthing", root / "usr/bin/syncthing")  # what apt installs on a Pi
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "spicy-companion-syncthing.path",
         "spicy-companion-syncthing.service", "spicy-companion-beacon.service"], capture_output=True, text=True,
    )  # fmt: skip
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def test_with_the_phone_page_on_systemd_accepts_the_service_its_drop_in_and_the_helper(
    installed: Path, tmp_path: Path
) -> None:
    """The drop-in goes where the installer made room for it, and the helper's unit may write only there."""
    root = tmp_path / "pi"
    copy(installed, root)
    drop_ins = root / "etc/systemd/system/spicy-companion.service.d"
    assert owner_and_mode(drop_ins) == (0, 0, "0o755") and list(drop_ins.iterdir()) == []
    assert switch.put(True, drop_ins / "phones.conf") and not switch.put(True, drop_ins / "phones.conf")
    assert owner_and_mode(drop_ins / "phones.conf") == (0, 0, "0o644")
    assert (root / "etc/systemd/system/multi-user.target.wants/spicy-companion-phones.path").is_symlink()
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "spicy-companion.service", "spicy-companion-phones.path",
         "spicy-companion-phones.service"], capture_output=True, text=True,
    )  # fmt: skip
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")
    helper = (root / "etc/systemd/system/spicy-companion-phones.service").read_text()
    assert "ReadWritePaths=/etc/systemd/system/spicy-companion.service.d -/run/spicy-companion\n" in helper
    assert switch.put(False, drop_ins / "phones.conf") and list(drop_ins.iterdir()) == []
