"""The repository is self-contained: what the code, the tests and the README cite is in docs/.

The rules and the design notes began in a spec folder beside the repository; a clone, a
package or a Pi has only the repository, so every citation names the copy in docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CITING = ("companion", "tests", "hardware", "scripts", "benchmarks", "systemd", ".ci")
"""Where code, tests and scripts live (docs/ itself may say where its files came from)."""

OUTSIDE = re.compile(r"\.\./shared|/work/shared")
DOCS = {
    "RULES.md": "docs/RULES.md",
    "KIVY-NOTES.md": "docs/design/KIVY-NOTES.md",
    "design/README.md": "docs/design/README.md",
}


def texts() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in CITING:
        files += [p for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    return [p for p in files if p != Path(__file__).resolve() and _is_text(p)]


def _is_text(path: Path) -> bool:
    try:
        path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return False
    return True


def test_no_file_cites_the_spec_folder_outside_the_repository() -> None:
    cited = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in texts()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert not cited, "cite docs/ instead:\n" + "\n".join(cited)


@pytest.mark.parametrize("name", sorted(DOCS))
def test_every_citation_of_a_spec_file_names_its_copy_in_docs(name: str) -> None:
    copy = DOCS[name]
    assert (ROOT / copy).is_file()
    bare = re.compile(r"(?<![\w/-])" + re.escape(name))
    wrong = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in texts()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if bare.search(line.replace(copy, ""))
    ]
    assert not wrong, f"cite {copy}:\n" + "\n".join(wrong)

