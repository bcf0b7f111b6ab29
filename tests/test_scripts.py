"""scripts/run as a new user meets it: a failed first install says what is missing and leaves nothing half-built."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from companion.pi.install import BUILD_LEFTOVERS

REPO = Path(__file__).parent.parent


def test_a_failed_install_says_so_in_one_line_and_leaves_no_venv_without_kivy(tmp_path: Path) -> None:
    clone = tmp_path / "spicy-companion"
    shutil.copytree(REPO, clone, ignore=shutil.ignore_patterns(*BUILD_LEFTOVERS))
    subprocess.run(["python3", "-m", "venv", clone / ".venv"], check=True)  # what an interrupted first run leaves
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path / "no-wheels")}
    result = subprocess.run(["scripts/run", "--version"], capture_output=True, text=True, env=offline, cwd=clone)
    assert (result.returncode, result.stdout) == (1, "")
    [line] = result.stderr.splitlines()
    assert line.startswith(
        "run: pip could not install the app into .venv (ERROR: No matching distribution found for setuptools>=68); "
        "the whole log is in "
    ), line
    assert line.endswith(": fix that, then run scripts/run again")
    log = Path(line.split("the whole log is in ")[1].split(":")[0])
    assert "setuptools" in log.read_text()
    log.unlink()
    assert not (clone / ".venv").exists()
