"""``spicy-companion`` with no command starts the app without importing what only the other commands use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

ONLY_FOR_COMMANDS = [
    "companion.rules", "companion.store", "companion.buzzers", "companion.pi.doctor", "companion.pi.install",
    "companion.report", "companion.table.session", "companion.random_play", "sqlite_utils", "gpiozero", "serial", "kivy",
]  # fmt: skip


def imported_after(code: str) -> set[str]:
    """The modules loaded by ``code`` run in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    return set(json.loads(out.splitlines()[-1]))


def loaded(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_importing_the_entry_point_imports_no_command_and_no_rules_store_or_buzzers() -> None:
    modules = imported_after("import companion.cli")
    assert {package: loaded(modules, package) for package in ONLY_FOR_COMMANDS if loaded(modules, package)} == {}


def test_reading_a_line_that_only_opens_the_app_imports_no_command() -> None:
    modules = imported_after("from companion.cli import app_arguments\nassert app_arguments(['--config', 'x.toml'])")
    assert not [m for package in ONLY_FOR_COMMANDS for m in loaded(modules, package)]


@pytest.mark.parametrize("argv", [["--help"], ["games"], ["--config", "x.toml", "stats"], ["--bogus"]])
def test_a_command_or_help_needs_the_full_parser(argv: list[str]) -> None:
    from companion.cli import app_arguments

    assert app_arguments(argv) is None


def test_the_check_sees_a_command_module_when_it_is_imported() -> None:
    modules = imported_after("import companion.cli\nfrom companion.cli import build_parser\nbuild_parser()")
    assert loaded(modules, "companion.store") and loaded(modules, "companion.pi.doctor")
