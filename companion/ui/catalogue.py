"""The catalogues' upkeep, one per language of ``companion.languages``: which texts the code and kv files
show, each language's ``.po`` (made when it has none) and its compiled ``.mo``.

Texts are found where they are written, in every ``.py`` and ``.kv`` under
``companion/``: ``tr._`` called on a literal, ``tr.ngettext`` on two (a plural
message, one form per CLDR plural category of each language), and the English templates of the
messages that come from outside the screens (``Reason("...")``, and the rules',
the store's, the buzzers' and the config's errors built as one), which the screen translates
through the same catalogue. The tests fail when one has no translation in a language the table offers,
and when the committed ``.mo`` is not what the ``.po`` compiles to. Only the upkeep and the tests import this.

The extractor is our own, not Babel's ``extract``: Babel has no extractor for ``.kv`` rules, and none
for the texts that are not calls of a keyword (a variant card's row holds its name and line as plain
arguments, and its word comes from the ``Variant`` enum); one walk of the syntax tree finds all three
kinds, with the places the tests list. Babel reads, writes and compiles the catalogues.
"""

from __future__ import annotations

import ast
import re
from io import BytesIO
from typing import Any
from pathlib import Path

from companion import languages

PACKAGE = Path(__file__).resolve().parent.parent
LOCALE = Path(__file__).resolve().parent / "locale"
TEXT = re.compile(r"""tr\._\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\)""")


TEMPLATES = frozenset({"Reason", "IllegalAction", "StoreError", "BuzzerError", "NoGpio", "ConfigError", "TakeHomeError",
                       "FileRefused", "LeagueError", "SyncthingError"})
"""Calls whose first literal is an English template the screen translates: a ``Reason``, or an error built as one."""


Text = str | tuple[str, str]
"""A message: its text, or a plural's singular and plural."""


def texts(root: Path = PACKAGE) -> dict[Text, list[str]]:
    """Every literal shown on screen, with the places it is written (``file:line``)."""
    found: dict[Text, list[str]] = {}
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.kv")]):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(root.parent))
        for text, line in _python_texts(source) if path.suffix == ".py" else _kv_texts(source):
            found.setdefault(text, []).append(f"{where}:{line}")
    return found


def _python_texts(source: str) -> list[tuple[Text, int]]:
    """Literals in ``tr._(...)``, ``tr.ngettext(...)`` and template calls; the parser joins a literal written
    over several lines."""
    found: list[tuple[Text, int]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
            continue
        literals = [arg.value for arg in node.args[:2] if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
        if _is_tr(node.func, "ngettext") and len(literals) == 2:
            found.append(((literals[0], literals[1]), node.lineno))
        elif literals and (_is_tr(node.func, "_") or (isinstance(node.func, ast.Name) and node.func.id in TEMPLATES)):
            found.append((literals[0], node.lineno))
    found += _variant_card_texts(source)
    return sorted(found, key=lambda item: item[1])


def _is_tr(func: ast.expr, method: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == method and isinstance(func.value, ast.Name) and (
        func.value.id == "tr")


def _variant_card_texts(source: str) -> list[tuple[Text, int]]:
    """A variant card's row (``VariantCard(Variant.X, reading, name, line, ...)``) holds three texts on
    screen: the card's word in the rules' reasons, its name and its line on set-up."""
    from companion.rules.profiles import Variant

    found: list[tuple[Text, int]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "VariantCard"):
            continue
        card, _reading, *words = node.args
        if isinstance(card, ast.Attribute):
            found.append((Variant[card.attr].value, node.lineno))
        found += [(w.value, node.lineno) for w in words if isinstance(w, ast.Constant) and isinstance(w.value, str)]
    return found


def _kv_texts(source: str) -> list[tuple[Text, int]]:
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


def untranslated(language: str, root: Path = PACKAGE) -> dict[Text, list[str]]:
    """Texts on screen with no translation in the language's ``.po`` (a plural: not every form)."""
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


def update(language: str, root: Path = PACKAGE) -> list[Text]:
    """Add every new text to the ``.po`` (untranslated; a new language's ``.po`` is made with its plural
    rule from CLDR) and drop the texts no longer shown, then compile the ``.mo``; returns what was added."""
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
    if languages.language(language).spaced_punctuation:
        for message in catalogue:
            if message.id and isinstance(message.string, str):
                message.string = french_spacing(message.string)
            elif message.id and isinstance(message.string, tuple):
                message.string = tuple(french_spacing(form) for form in message.string)
    shown = texts(root)
    added = [text for text, places in shown.items() if _add(catalogue, text, places)]
    for gone in {_msgid(message.id) for message in catalogue if message.id} - {_msgid(text) for text in shown}:
        catalogue.delete(gone)  # no longer on screen
    with path.open("wb") as po:
        write_po(po, catalogue, width=120, omit_header=False, no_location=True, sort_output=True)
    path.with_suffix(".mo").write_bytes(compiled(language))
    return added


def _add(catalogue: Any, text: Text, places: list[str]) -> bool:
    """Add ``text`` untranslated unless the catalogue has it; a text that became a plural replaces its old
    entry, whose one form could not say every count."""
    message = catalogue.get(_msgid(text))
    if message is not None and (isinstance(text, str) or message.id == text):
        return False
    if message is not None:
        catalogue.delete(_msgid(text))
    where = [place.rsplit(":", 1) for place in places]
    string = "" if isinstance(text, str) else ("",) * catalogue.num_plurals
    catalogue.add(text, string, locations=[(path, int(line)) for path, line in where])
    return True


def _msgid(text: Any) -> str:
    """What a catalogue looks a message up by: a plural by its singular."""
    return text if isinstance(text, str) else text[0]


def _translated(catalogue: Any, text: Text) -> bool:
    message = catalogue.get(_msgid(text))
    if message is None or message.fuzzy:
        return False
    if isinstance(text, str):
        return bool(message.string)
    forms = message.string if isinstance(message.string, tuple) else ()
    return message.id == text and len(forms) == catalogue.num_plurals and all(forms)
