"""Every text on screen has its translation in every language the table offers, and each compiled catalogue
is the one its source gives."""

from __future__ import annotations

import gettext
import re
from functools import cache
from unicodedata import category
from pathlib import Path

import pytest

from companion.languages import LANGUAGES, SOURCE, Language, translated
from companion.ui.catalogue import LOCALE, compiled, po_path, texts, untranslated, update

OFFERED = pytest.mark.parametrize("language", translated(), ids=lambda language: language.code)


@OFFERED
def test_every_text_on_screen_has_a_translation(language: Language) -> None:
    missing = untranslated(language.code)
    listing = "\n".join(f"  {text!r} at {', '.join(places)}" for text, places in missing.items())
    assert not missing, (f"{len(missing)} texts have no {language.name} (run scripts/translations, then translate):"
                         f"\n{listing}")


@OFFERED
def test_the_compiled_catalogue_is_not_stale(language: Language) -> None:
    assert po_path(language.code).with_suffix(".mo").read_bytes() == compiled(language.code), "run scripts/translations"


def test_a_new_language_gets_a_catalogue_with_its_plural_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from babel.messages.pofile import read_po

    import companion.ui.catalogue as catalogue

    monkeypatch.setattr(catalogue, "LOCALE", tmp_path / "locale")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "c.py").write_text('tr._("New game")\n')
    assert update("ru", package) == ["New game"]
    with po_path("ru").open("rb") as po:
        made = read_po(po)
    assert made.num_plurals == 3 and made.get("New game").string == ""
    assert "n%10==1" in made.plural_expr.replace(" ", "")
    with po_path("ru").with_suffix(".mo").open("rb") as mo:
        assert gettext.GNUTranslations(mo).ngettext("a", "b", 5) == "b"


def test_texts_are_found_in_python_and_kv_with_their_places(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text('x = tr._("Hello {name}")\ny = tr._(\'It\\\'s\')\nz = tr._(variable)\n')
    (package / "b.kv").write_text('<A>:\n    text: tr._("Hello {name}")\n')
    assert texts(package) == {"Hello {name}": ["pkg/a.py:1", "pkg/b.kv:2"], "It's": ["pkg/a.py:2"]}


def test_plural_messages_are_found_with_both_forms(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text('x = tr.ngettext("{n} game", "{n} games", n)\ny = tr.ngettext(one, many, n)\n')
    assert texts(package) == {("{n} game", "{n} games"): ["pkg/a.py:1"]}


def test_a_plural_is_untranslated_until_every_form_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Russian says 1 игра, 2 игры, 5 игр: a plural with a form missing is missing."""
    from babel.messages.pofile import read_po, write_po

    import companion.ui.catalogue as catalogue

    monkeypatch.setattr(catalogue, "LOCALE", tmp_path / "locale")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text('tr.ngettext("{n} game", "{n} games", n)\ntr._("Played for {minutes} min")\n')
    update("ru", package)
    (package / "a.py").write_text('tr.ngettext("{n} game", "{n} games", n)\n'
                                  'tr.ngettext("Played for {minutes} min", "Played for {minutes} min", n)\n')
    assert update("ru", package) == [("Played for {minutes} min", "Played for {minutes} min")]  # now a plural
    with po_path("ru").open("rb") as po:
        made = read_po(po)
    made.get("{n} game").string = ("{n} игра", "{n} игры", "")
    made.get("Played for {minutes} min").string = ("{minutes} мин",) * 3
    with po_path("ru").open("wb") as po:
        write_po(po, made)
    assert list(untranslated("ru", package)) == [("{n} game", "{n} games")]


def test_the_templates_of_refusals_are_found_where_they_are_written(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "rules.py").write_text(
        'raise IllegalAction("{name} cannot copy", name=n)\n'
        "raise IllegalAction(\n"
        '    "a sentence written "\n'
        '    "over two lines"\n'
        ")\n"
        'why = Reason("the stack is {spice}", spice=Word(s))\n'
        "raise IllegalAction(message)\n"
        'print("not on screen")\n'
    )
    assert texts(package) == {
        "{name} cannot copy": ["pkg/rules.py:1"],
        "a sentence written over two lines": ["pkg/rules.py:2"],
        "the stack is {spice}": ["pkg/rules.py:6"],
    }


def test_a_missing_translation_is_listed_with_where_it_is_written(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "c.py").write_text('tr._("New game")\ntr._("A text nobody translated")\n')
    assert untranslated("fr", package) == {"A text nobody translated": ["pkg/c.py:2"]}


def test_the_catalogue_gettext_loads_translates_with_placeholders_kept() -> None:
    french = gettext.translation("companion", LOCALE, languages=["fr"])
    assert french.gettext("New game") == "Nouvelle partie"
    assert french.gettext("{name} already has a seat").format(name="Ana") == "Ana a déjà une place"


@OFFERED
def test_every_translation_keeps_the_placeholders_of_its_text(language: Language) -> None:
    from babel.messages.pofile import read_po

    with po_path(language.code).open("rb") as po:
        catalogue = read_po(po)
    fields = re.compile(r"\{(\w*[!:]?[^{}]*)\}")

    def forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
        """A plural entry has a singular and a plural on each side."""
        return text if isinstance(text, tuple) else (text,)

    wrong = [
        m.id
        for m in catalogue
        if m.id and m.string and any(
            set(fields.findall(source)) != set(fields.findall(french))
            for source, french in zip(forms(m.id) * 3, forms(m.string), strict=False)
        )
    ]
    assert wrong == []


def test_french_punctuation_has_its_narrow_no_break_space() -> None:
    """Before ; : ! ? and inside « », a narrow no-break space (U+202F): a line never starts with "; les touches"."""
    from babel.messages.pofile import read_po

    with po_path("fr").open("rb") as po:
        catalogue = read_po(po)
    wrong = [
        message.string
        for message in catalogue
        if message.id and isinstance(message.string, str)
        and re.search(r"[ \u00a0][;:!?»]|«[ \u00a0]|(?<![\s\u202f])[;!?»](?=\s|$)|(?<![\s\u202f]):(?=\s)",
                      message.string)
    ]
    assert not wrong, "run scripts/translations, which puts them in:\n" + "\n".join(wrong)


@cache
def drawn_by(path: str) -> frozenset[int]:
    """The code points the font file has a glyph for."""
    from fontTools.ttLib import TTFont

    with TTFont(path, fontNumber=0) as opened:
        return frozenset(opened.getBestCmap())


def undrawable(shown: set[str], font: str) -> dict[str, set[str]]:
    """The letters of ``shown`` that the font's files the labels use (regular and bold), as Kivy has them
    registered, have no glyph for."""
    from kivy.core.text import LabelBase

    from companion.ui import fonts

    fonts.register()
    registered = LabelBase._fonts.get(font) or (font,) * 4
    found = {}
    for path in {registered[0], registered[2]}:
        cmap = drawn_by(path)
        # a space the font lacks (Roboto has no U+202F, French's narrow no-break space) is drawn as a space
        # of its width by HarfBuzz, which SDL2_ttf shapes with: looked at in a rendered label, no box
        missing = {ch for text in shown for ch in text if category(ch) not in ("Zs", "Cc") and ord(ch) not in cmap}
        if missing:
            found[path] = missing
    return found


def test_a_letter_the_font_lacks_is_found() -> None:
    assert undrawable({"Ёжик", "Zoë"}, "Roboto") == {}
    assert [sorted(letters) for letters in undrawable({"さくら", "Zoë"}, "Roboto").values()] == [["く", "さ", "ら"]] * 2


def unchosen(texts: set[str], language: Language) -> dict[str, dict[str, set[str]]]:
    """The texts that the font their label would choose (``companion.ui.fonts``), with the language's font
    first, cannot draw all of, as the label draws them (an emoji as the placeholder): by text, the font's
    files and the letters each lacks."""
    from companion.ui.fonts import font_for, shown

    found = {}
    for text in texts:
        words = shown(text)
        if lacking := undrawable({words}, font_for(words, language.font)):
            found[text] = lacking
    return found


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_the_font_each_label_chooses_draws_every_letter_of_the_catalogue(language: Language) -> None:
    """Kivy's text has no per-glyph fallback: a letter its one font lacks is drawn as a box. Checked over
    every translation and the language's own name (Settings shows it), each in the font its label chooses."""
    from babel.messages.pofile import read_po

    shown = {language.name}
    if language.code != SOURCE:
        with po_path(language.code).open("rb") as po:
            shown |= {form for m in read_po(po) if m.id for form in (m.string if isinstance(m.string, tuple)
                                                                    else (m.string,))}
    else:
        shown |= {form for text in texts() for form in ((text,) if isinstance(text, str) else text)}
    assert unchosen(shown, language) == {}
    assert placeheld(shown) == {}, "run scripts/subset-font: it keeps every kanji of the catalogues"


def placeheld(texts: set[str]) -> dict[str, str]:
    """The texts a label would draw with a placeholder for a letter no font has (胡椒 drawn as 胡◊ before the
    subset kept the kanji beyond level 1): a translation is never one."""
    from companion.ui.fonts import shown

    return {text: shown(text) for text in texts if shown(text) != text}
