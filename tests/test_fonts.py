"""A name is drawn in its own script on a table of any language: the font its label chooses has every one of
its letters (fontTools, on the font files Kivy has registered), and an emoji is one placeholder, never a box."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from companion.languages import LANGUAGES, Language, language
from companion.ui import fonts
from tests.test_ui_catalogue import unchosen

NAMES = {
    "latin": ["Zoë", "Łukasz", "Nguyễn Thị", "Ørjan", "Şule", "Ærøskøbing", "Groß", "GROẞ", "O'Brien-Smith"],
    "cyrillic": ["Ёжик", "Пётр", "Юлія", "Ђорђе", "Ѓорѓи"],
    "japanese": ["さくら", "佐藤", "山田太郎", "ゆうき", "カタカナ", "渡辺", "高橋", "ｻｸﾗ", "々木"],
    "persian": ["سارا", "ابراهیم", "نرگس", "پژمان", "گلی", "محمدرضا", "مهر\u200cناز", "۱۲۳", "عبدالله"],
    "emoji": ["Zoë 😀", "🌶️ Chili 🔥", "さくら👍🏽", "سارا ❤️", "👨\u200d👩\u200d👧", "🇯🇵"],
    "other scripts": ["שרה", "Անի", "ნინო", "Ἀθηνᾶ", "Sara שרה 3"],
    "mixed": ["さくら wins 12 cards from Zoë", "سارا challenges Ben: Chili 7", "Ёжик and さくら", "佐藤 −3"],
}
"""Names as players type them, alone and in an English sentence beside another script's."""


@pytest.mark.parametrize("script", NAMES)
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_the_font_a_label_chooses_draws_every_letter_of_a_name(language: Language, script: str) -> None:
    assert unchosen(set(NAMES[script]), language) == {}


def test_each_language_names_a_font_the_labels_choose_from() -> None:
    assert {language.font for language in LANGUAGES} <= set(fonts.faces())


def test_each_script_is_drawn_in_the_font_that_has_it() -> None:
    """Roboto for Latin and Cyrillic, the design's type; DejaVuSans for Persian (and the capital ẞ Roboto
    lacks); the Japanese font for kana and kanji, and for the English sentence around them; Kivy's whole
    DejaVu Sans for the scripts no subset keeps (Hebrew, Georgian)."""
    chosen = {name: fonts.font_for(fonts.shown(name)) for name in ("Zoë", "Ёжик", "سارا", "GROẞ", "さくら", "佐藤",
                                                                   "さくら wins 12 cards from Zoë", "Zoë 😀", "שרה",
                                                                   "ნინო")}
    assert chosen == {"Zoë": "Roboto", "Ёжик": "Roboto", "سارا": "DejaVuSans", "GROẞ": "DejaVuSans",
                      "さくら": "NotoSansJP", "佐藤": "NotoSansJP", "さくら wins 12 cards from Zoë": "NotoSansJP",
                      "Zoë 😀": "Roboto", "שרה": "DejaVuSansWhole", "ნინო": "DejaVuSansWhole"}


def test_an_emoji_is_one_placeholder_whatever_it_is_made_of() -> None:
    placeholder = fonts.PLACEHOLDER
    assert fonts.shown("Zoë 😀") == f"Zoë {placeholder}"
    assert fonts.shown("👍🏽") == fonts.shown("❤️") == fonts.shown("🇯🇵") == placeholder  # skin tone, VS16, flag
    assert fonts.shown("👨\u200d👩\u200d👧") == placeholder  # a family: three joined by zero-width joiners
    assert fonts.shown("😀😀") == placeholder * 2
    assert fonts.shown("مهر\u200cناز") == "مهر\u200cناز"  # the Persian zero-width non-joiner is kept
    assert fonts.shown("한글") == placeholder * 2  # a script no font has: a placeholder a letter, no box


def test_the_placeholder_is_in_every_font_so_it_never_changes_the_font() -> None:
    for name, files in fonts.faces().items():
        for path in files:
            with TTFont(path) as font:
                assert ord(fonts.PLACEHOLDER) in font.getBestCmap(), (name, path.name)


def test_the_coverage_the_app_reads_is_what_the_fonts_draw() -> None:
    """``coverage.json`` stands in for the fonts at start: a newer Kivy's Roboto or a remade subset shows here
    (run scripts/subset-font)."""
    with fonts.COVERAGE.open(encoding="utf-8") as opened:
        characters = json.load(opened)
    assert list(characters) == list(fonts.faces())
    for name, files in fonts.faces().items():
        points = set.intersection(*(set(TTFont(path).getBestCmap()) for path in files))
        assert set(map(ord, characters[name])) == points, name


def test_the_japanese_font_has_kana_and_the_level_one_kanji_and_its_licence() -> None:
    level_one = [bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp", "ignore") for row in range(16, 48)
                 for cell in range(1, 95)]
    kanji = {ord(ch) for ch in "".join(level_one)}
    kana = {*range(0x3041, 0x3097), *range(0x30A1, 0x30FB)}
    assert len(kanji) == 2965
    for path in fonts.faces()[fonts.JAPANESE]:
        with TTFont(path) as font:
            assert kanji | kana <= set(font.getBestCmap()), path.name
            assert font["name"].getDebugName(1).startswith("Noto Sans CJK JP")
        assert path.stat().st_size < 2.5e6, "the subset grew: the table's Pi carries it"
    licence = (fonts.FOLDER / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence


def test_the_persian_font_is_a_subset_that_shapes_persian_and_ships_with_its_licence() -> None:
    """DejaVu Sans, both weights, cut to what a Persian table draws (scripts/subset-font): small, its Arabic
    layout rules kept for HarfBuzz (the joined forms, the marks' places), Debian's licence beside it."""
    for path, style in zip(fonts.faces()[fonts.PERSIAN], ("DejaVu Sans", "DejaVu Sans Bold"), strict=True):
        with TTFont(path) as font:
            assert font["name"].getDebugName(4) == style
            assert path.stat().st_size < 250e3, f"{path.name}: the subset grew (the whole font is 741 kB)"
            for table in ("GSUB", "GPOS"):
                scripts = {record.ScriptTag for record in font[table].table.ScriptList.ScriptRecord}
                features = {record.FeatureTag for record in font[table].table.FeatureList.FeatureRecord}
                assert {"arab", "latn"} <= scripts <= {"DFLT", "arab", "latn", "grek", "cyrl"}, (path.name, table)
                assert features >= ({"init", "medi", "fina", "rlig", "liga"} if table == "GSUB"
                                    else {"mark", "mkmk", "kern"}), (path.name, table)
            assert "GDEF" in font
            assert font.getBestCmap().keys() >= {0x200C, 0x200D, 0x06CC, 0x06A9, *range(0x06F0, 0x06FA)}
    licence = (fonts.FOLDER / "DejaVu-copyright.txt").read_text()
    assert "Bitstream Vera" in licence and "subset by scripts/subset-font" in licence


def persian_shown() -> set[str]:
    """Every Persian catalogue entry, the Persian names, and sentences mixing them with Latin and digits."""
    from babel.messages.pofile import read_po

    from companion.ui.catalogue import po_path

    with po_path("fa").open("rb") as po:
        entries = {form for m in read_po(po) if m.id for form in (m.string if isinstance(m.string, tuple)
                                                                  else (m.string,))}
    return entries | set(NAMES["persian"]) | {"سارا برنده شد با 12 امتیاز، Ben دوم", "لا", "نیم‌فاصله"}


def test_persian_as_it_is_drawn_has_every_glyph_in_the_persian_font() -> None:
    """A Persian label draws its line as ``bidi.visual`` gives it: the letters in the joined forms
    arabic-reshaper writes (presentation forms, the lam-alef ligature), Persian digits, direction marks
    dropped. Every character of that, for every Persian entry, is in both weights of the subset."""
    from companion.ui import bidi

    persian = language("fa")
    files = [set(TTFont(path).getBestCmap()) for path in fonts.faces()[fonts.PERSIAN]]
    missing = {}
    for text in persian_shown():
        drawn = bidi.visual(fonts.shown(text), persian.rtl, persian.digits)
        lacking = {ch for ch in drawn if not fonts.invisible(ch) and any(ord(ch) not in cmap for cmap in files)}
        if lacking:
            missing[text] = lacking
    assert missing == {}


def test_ordering_persian_loads_no_fonttools() -> None:
    """arabic-reshaper imports fontTools' ttLib when it is installed (here, by the test extra), 4 MiB for a
    feature the app does not use: a Persian table holds no more than it does on the Pi, where it is not."""
    code = ("import sys; from companion.ui import bidi; bidi.visual('سلام Ben 12', True, '۰۱۲۳۴۵۶۷۸۹'); "
            "print(sorted(name for name in sys.modules if name.startswith('fontTools')))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).parent.parent)
    assert "fontTools.ttLib" not in shown.stdout, shown.stdout
    from fontTools.ttLib import TTFont as Again  # and a later import of it still works

    assert Again is TTFont


@pytest.mark.parametrize("script", NAMES)
def test_a_name_in_capitals_is_drawn_as_well_as_the_name(script: str) -> None:
    """A seat's initial and "{name} PLAYED" are capitals: Georgian's (Mtavruli) are in no font, so a Georgian
    name keeps its letters there instead of turning into placeholders; the rest are capitals."""
    for name in NAMES[script]:
        assert fonts.shown(fonts.capitals(name)).count(fonts.PLACEHOLDER) == fonts.shown(name).count(fonts.PLACEHOLDER)
    assert fonts.capitals("ნინო Zoë") == "ნინო ZOË" and fonts.capitals("ნ") != "ნ".upper()
