"""The app's one error root, the refusal the rules raise, and the words a refusal is made of.

``CompanionError`` lives here, inside the rules package, so the rules stay
self-contained (they import nothing of the app); ``companion.errors`` re-exports
it for everything else. The command line catches it once and prints its message.

A refusal keeps its English template and its parameters apart (a ``Reason``)
so a screen can say it in another language without the rules knowing any:
``str()`` is the English sentence, and the screen translates the template and
every ``Word`` in it the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Union


class CompanionError(Exception):
    """A problem the person at the table can fix; ``str(exc)`` says what to do."""


class Word(str):
    """A table word inside a reason (a spice, a profile, "spice" or "number", a card, a variant card).

    Seat names and numbers stay plain values: a name is said as it was typed.
    """


Param = Union[str, int, "Reason", tuple["Param", ...]]
"""A reason's parameter; a tuple reads as a list, "chili, wasabi, pepper"."""


def _same(text: str) -> str:
    return text


class Reason:
    """An English template with its parameters, said in any language by ``text``.

    >>> str(Reason("{name} cannot copy their own card", name="Ana"))
    'Ana cannot copy their own card'
    >>> french = {"the stack is {spice}": "la pile est en {spice}"}
    >>> Reason("the stack is {spice}", spice=Word("chili")).text(french.__getitem__, {"chili": "piment"}.__getitem__)
    'la pile est en piment'
    """

    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params: Param) -> None:
        self.template = template
        self.params = params

    def text(self, template: Callable[[str], str] = _same, word: Callable[[str], str] = _same) -> str:
        """The sentence with ``template`` applied to every template in it and ``word`` to every table word."""

        def said(value: Param) -> object:
            if isinstance(value, Reason):
                return value.text(template, word)
            if isinstance(value, Word):
                return word(value)
            if isinstance(value, tuple):
                return ", ".join(str(said(item)) for item in value)
            return value

        return template(self.template).format(**{key: said(value) for key, value in self.params.items()})

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Reason({self.template!r}, **{self.params!r})"


def either(choices: list[Param]) -> Param:
    """Choices joined by "or", each join a template of its own so a screen can translate it.

    >>> str(either([Reason("a"), 2, Reason("c")]))
    'a or 2 or c'
    """
    if len(choices) == 1:
        return choices[0]
    return Reason("{first} or {rest}", first=choices[0], rest=either(choices[1:]))


class IllegalAction(CompanionError, ValueError):
    """An action the rules refuse; ``str(exc)`` is the reason, in table words.

    Built like a ``Reason``, which it keeps as ``exc.reason`` for a screen to
    translate. Nothing changes when it is raised: states are immutable.
    """

    def __init__(self, template: str, /, **params: Param) -> None:
        self.reason = Reason(template, **params)
        super().__init__(str(self.reason))
