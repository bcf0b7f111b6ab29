"""The catalogues' upkeep, one per language of ``companion.languages``: which texts the code and kv files
show, each language's ``.po`` (made when it has none) and its compiled ``.mo``.

Texts are found where they are written, in every ``.py`` and ``.kv`` under
``companion/``: ``tr._`` called on a literal, and the English templates of the
messages that come from outside the screens (``Reason("...")``, and the rules',
the store's, the buzzers' and the config's errors built as one), which the screen translates
through the same catalogue. The tests fail when one has no translation in a language the table offers,
and when the committed ``.mo`` is not what the ``.po`` compiles to. Needs babel
(a test extra), so nothing at run time imports this.
"""

from __future__ import annotations

import ast
import re
from io import BytesIO
from pathlib import Path

from companion import languages

PACKAGE = Path(__file__).resolve().parent.parent
LOCALE = Path(__file__).resolve().parent / "locale"
TEXT = re.compile(r"""tr\._\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\)""")


TEMPLATES = frozenset({"Reason", "IllegalAction", "StoreError", "BuzzerError", "NoGpio", "ConfigError", "TakeHomeError",
                       "FileRefused"})
"""Calls whose first literal is an English template the screen translates: a ``Reason``, or an error built as one."""


def texts(root: Path = PACKAGE) -> dict[str, list[str]]:
    """Every literal shown on screen, with the places it is written (``file:line``)."""
    found: dict[str, list[str]] = {}
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.kv")]):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(root.parent))
        for text, line in _python_texts(source) if path.suffix == ".py" else _kv_texts(source):
            found.setdefault(text, []).append(f"{where}:{line}")
    return found


def _python_texts(source: str) -> list[tuple[str, int]]:
    """Literals in ``tr._(...)`` and template calls; the parser joins a literal written over several lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
            continue
        func = node.func
        shown = (isinstance(func, ast.Attribute) and func.attr == "_" and isinstance(func.value, ast.Name)
                 and func.value.id == "tr") or (isinstance(func, ast.Name) and func.id in TEMPLATES)
        if shown and isinstance(node.args[0].value, str):
            found.append((node.args[0].value, node.lineno))
    found += _variant_card_texts(source)
    return sorted(found, key=lambda item: item[1])


def _variant_card_texts(source: str) -> list[tuple[str, int]]:
    """A variant card's row (``VariantCard(Variant.X, reading, name, line, ...)``) holds three texts on
    screen: the card's word in the rules' reasons, its name and its line on set-up."""
    from companion.rules.profiles import Variant

    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "VariantCard"):
            continue
        card, _reading, *words = node.args
        if isinstance(card, ast.Attribute):
            found.append((Variant[card.attr].value, node.lineno))
        found += [(w.value, node.lineno) for w in words if isinstance(w, ast.Constant) and isinstance(w.value, str)]
    return found


def _kv_texts(source: str) -> list[tuple[str, int]]:
    return [(ast.literal_eval(m.group(1)), source.count("\n", 0, m.start()) + 1) for m in TEXT.finditer(source)]


def french_spacing(text: str) -> str:
    r"""French typography: a narrow no-break space (U+202F) before ; : ! ? » and after «, where a plain
    space let a line of a toast start with "; les touches".

    >>> french_spacing("Égalité ! « défi » ; {n:d}").replace("\u202f", "_")
    'Égalité_! «_défi_»_; {n:d}'
    """
    return re.sub(r"«[ \u00a0]", "«\u202f", re.sub(r"[ \u00a0]([;:!?»])", "\u202f\\1", text))


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "companion.po"


def untranslated(language: str, root: Path = PACKAGE) -> dict[str, list[str]]:
    """Texts on screen with no translation in the language's ``.po``."""
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as po:
        catalogue = read_po(po)
    return {text: places for text, places in texts(root).items() if not _translated(catalogue, text)}


def compiled(language: str) -> bytes:
    """What the ``.po`` compiles to: the committed ``.mo`` must be exactly this."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as po:
        catalogue = read_po(po)
    out = BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


def update(language: str, root: Path = PACKAGE) -> list[str]:
    """Add every new text to the ``.po`` (untranslated; a new language's ``.po`` is made with its plural
    rule from CLDR), then compile the ``.mo``; returns what was added."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    path = po_path(language)
    if path.exists():
        with path.open("rb") as po:
            catalogue = read_po(po)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        name = languages.language(language).name
        catalogue = Catalog(locale=language, project="spicy-companion", header_comment=f"# {name} for Spicy Companion.")
    added = []
    if languages.language(language).spaced_punctuation:
        for message in catalogue:
            if message.id and isinstance(message.string, str):
                message.string = french_spacing(message.string)
    for text, places in texts(root).items():
        if catalogue.get(text) is None:
            where = [place.rsplit(":", 1) for place in places]
            catalogue.add(text, "", locations=[(path, int(line)) for path, line in where])
            added.append(text)
    with path.open("wb") as po:
        write_po(po, catalogue, width=120, omit_header=False, no_location=True, sort_output=True)
    path.with_suffix(".mo").write_bytes(compiled(language))
    return added


def _translated(catalogue: object, text: str) -> bool:
    message = catalogue.get(text)  # type: ignore[attr-defined]
    return message is not None and bool(message.string) and not message.fuzzy
