"""Running the command line from tests: in this process through ``main``, or as the installed script."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.cli import main

COMMAND = str(Path(sys.executable).with_name("spicy-companion"))
"""The console script of this virtualenv, for tests that need a process of their own."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one command."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
