"""The rules package stays pure: no screen, pin, file, clock or dice inside it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion.rules

RULES = Path(companion.rules.__file__).parent
FORBIDDEN = {"kivy", "gpiozero", "serial", "sqlite3", "sqlite_utils", "time", "datetime", "random", "os", "io",
             "pathlib", "threading", "companion.store", "companion.buzzers", "companion.table.session", "companion.config"}


def impure(modules: set[str]) -> set[str]:
    return {m for m in modules for f in FORBIDDEN if m == f or m.startswith(f + ".")}


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_module_imports_nothing_impure(path: Path) -> None:
    bad = impure(imported_modules(path))
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_purity_check_catches_impure_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nfrom companion.store.db import Store\nfrom dataclasses import replace\n")
    assert impure(imported_modules(sample)) == {"random", "companion.store.db"}


def test_the_engine_benchmark_gets_its_games_without_the_store() -> None:
    benchmark = RULES.parents[1] / "benchmarks" / "engine.py"
    modules = imported_modules(benchmark)
    assert "companion.random_play" in modules
    assert not {m for m in modules if m.startswith("companion.store")}
