"""The rules' refusals carry their English template and parameters, so the screen can say them in French.

``str(exc)`` stays the English sentence the command line prints; the screen
translates every template through the catalogue and every table word through
``table_words``, and the catalogue holds them all.
"""

from __future__ import annotations

import ast
import gettext
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules import PROFILES, SPICY, VARIANTS, Game, IllegalAction, Play, apply, new_setup
from companion.rules.cards import WILD_NUMBER, WILD_SPICE
from companion.errors import Name
from companion.rules.errors import Reason, Word
from companion.ui.bidi import Named
from companion.ui.catalogue import LOCALE, PACKAGE, TEMPLATES, texts
from companion.ui.i18n import say, table_words
from test_rules_properties import PROFILE_IDS, PROPERTY, spread_states

RULES = PACKAGE / "rules"
FRENCH = gettext.translation("companion", LOCALE, languages=["fr"])


def template_calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEMPLATES:
            yield node


def test_every_refusal_in_the_rules_is_written_as_a_literal_template_the_catalogue_finds() -> None:
    found = texts()
    sources = [path for path in sorted(RULES.glob("*.py")) if path.name != "errors.py"]  # where they are defined
    calls = [(path, call) for path in sources for call in template_calls(path)]
    assert len(calls) > 80
    not_literal = [
        f"{path.name}:{call.lineno}" for path, call in calls
        if not (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))
    ]
    assert not_literal == [], "write the English template as a literal and pass the values as parameters"
    missing = [call.args[0].value for _path, call in calls if call.args[0].value not in found]  # type: ignore
    assert missing == []


def test_no_message_built_as_a_template_is_an_f_string() -> None:
    """An f-string would be a sentence nobody can translate: the store's and the buzzers' messages included."""
    found = [
        f"{path.relative_to(PACKAGE)}:{call.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for call in template_calls(path)
        if call.args and isinstance(call.args[0], ast.JoinedStr)
    ]
    assert found == []


def test_the_english_sentence_is_the_one_the_command_line_always_printed() -> None:
    state = Game.start(new_setup(SPICY, ["Ana", "Ben", "Cy"])).apply(Play(0, "chili", 2)).state
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(1, "chili", 2))
    assert str(refused.value) == "Ben must declare chili 3 to 10: the stack is chili and stands at 2"
    assert say(refused.value.reason) == str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(1, "lemon", 3))
    assert str(refused.value) == "lemon is not a spice in spicy; the spices are chili, wasabi, pepper"


def test_a_refusal_in_french_translates_each_template_and_table_word_but_not_names(french: None) -> None:
    state = Game.start(new_setup(SPICY, ["Ana", "Ben", "Cy"])).apply(Play(0, "chili", 2)).state
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(1, "chili", 2))
    f = FRENCH.gettext
    numbers = f("{low} to {high}").format(low=3, high=10)
    options = f("{spice} {numbers}").format(spice=f("chili"), numbers=numbers)
    why = f("the stack is {spice} and stands at {number}").format(spice=f("chili"), number=2)
    expected = f("{name} must declare {options}: {why}").format(name="Ben", options=options, why=why)
    assert expected == "Ben doit annoncer piment 3 à 10\u202f: la pile est en piment et en est à 2"
    assert say(refused.value.reason) == expected
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(1, "lemon", 3))
    assert say(refused.value.reason) == (
        "citron n’est pas une épice de Spicy\u202f; les épices sont piment, wasabi, poivre"
    )


def test_a_name_that_looks_like_a_template_or_a_table_word_is_said_as_typed(french: None) -> None:
    state = Game.start(new_setup(SPICY, ["{why}", "chili", "Cy"])).state
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(1, "pepper", 1))
    assert say(refused.value.reason) == "c’est à {why} de jouer, pas à chili"


def test_a_name_in_a_reason_is_known_as_one_where_it_is_said_even_inside_another_reason(french: None) -> None:
    """A table named "Table 3" (``Name``): the sentence a screen draws knows where it is (``bidi.Named``), in a
    reason that holds the reason it is in; a reason with no name is a plain str, as it always was."""
    seen = Reason("{table} last seen {when}", table=Name("Table 3"), when=Reason("{count} days ago", count=3))
    said = say(Reason("League: its state cannot be read ({problem})", problem=seen))
    start = said.index("Table 3")
    assert isinstance(said, Named) and said.names == ((start, start + len("Table 3")),)
    assert str(seen) == "Table 3 last seen 3 days ago" and not isinstance(say(Reason("just now")), Named)


def test_every_table_word_the_rules_can_say_has_its_french() -> None:
    vocabulary = {word for profile in PROFILES.values() for word in (*profile.spices, profile.id, profile.title)}
    vocabulary |= {*VARIANTS, WILD_SPICE, WILD_NUMBER}
    assert vocabulary <= set(table_words())
    untranslated = [word for word in table_words() if FRENCH.gettext(word) is word]
    assert untranslated == []


def reason_parts(reason: Reason) -> Iterator[str | Word]:
    """The reason's templates and table words, nested ones included."""
    yield reason.template
    stack: list[object] = list(reason.params.values())
    while stack:
        value = stack.pop()
        if isinstance(value, Reason):
            yield from reason_parts(value)
        elif isinstance(value, Word):
            yield value
        elif isinstance(value, tuple):
            stack.extend(value)


@PROPERTY
@given(st.data(), PROFILE_IDS)
def test_property_every_refusal_a_table_can_meet_is_said_in_french(data: st.DataObject, profile_id: str) -> None:
    """Any action, legal or not, in random games of every profile: each refusal's templates and words have French."""
    universe, states = spread_states(data, profile_id, 40)
    words = table_words()
    for state in states:
        for action in universe:
            try:
                apply(state, action)
            except IllegalAction as exc:
                assert say(exc.reason) == str(exc)  # English: the template is the sentence
                for part in reason_parts(exc.reason):
                    assert FRENCH.gettext(part) is not part or part in words, part
                    assert not isinstance(part, Word) or part in words, part
