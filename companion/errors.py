"""Every problem a user can fix derives from ``CompanionError``; a message a screen shows is a ``Reason``.

``spicy-companion`` catches a ``CompanionError`` once (``companion.cli.main``),
prints the one line ``spicy-companion: <message>`` and exits 2, so a new command
needs no error handling of its own.

A message that a screen shows is a ``Reason``: the English sentence itself (a
``str``, so the command line, the logs and every comparison keep working) that
also keeps its English template and parameters apart, so a screen can say it in
another language without the rules, the store or the buzzers knowing any.

This module is plain Python and imports nothing: the rules build their
refusals on it (``companion.rules.errors``) and stay free of the app, and
whatever needs only the error root (the command line, the settings, the
first frame of the app) does not import the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias


class Word(str):
    """A table word inside a reason (a spice, a profile, a card, a variant card): a screen translates it.

    Paths and numbers stay plain values; a name is said as it was typed (``Name``).
    """


class Name(str):
    """A name typed at the table inside a reason (a seat's, a player's, a table's): said as typed, and a screen
    that draws the sentence knows where it is ("Table 3" is a name, not Table and a number of the sentence's)."""


Param: TypeAlias = str | int | float | tuple["Param", ...]
"""A reason's parameter: a plain value, a ``Word``, a ``Reason``; a tuple reads as a list, "chili, wasabi, pepper"."""


def _same(text: str) -> str:
    return text


Fill: TypeAlias = Callable[[str, dict[str, object]], str]
"""What puts a reason's values in its template: ``str.format``, or a screen's that knows where names are."""


def _fill(template: str, values: dict[str, object]) -> str:
    return template.format(**values)


class Reason(str):
    """An English sentence that keeps its template and parameters, so ``text`` can say it in any language.

    >>> stack = Reason("the stack is {spice}", spice=Word("chili"))
    >>> stack, stack.template
    ('the stack is chili', 'the stack is {spice}')
    >>> french = {"the stack is {spice}": "la pile est en {spice}"}
    >>> stack.text(french.__getitem__, {"chili": "piment"}.__getitem__)
    'la pile est en piment'
    """

    template: str
    params: dict[str, Param]

    def __new__(cls, template: str, /, **params: Param) -> Reason:
        english = _said(template, params, _same, _same, _fill)
        reason = super().__new__(cls, english)
        reason.template, reason.params = template, params
        return reason

    def text(self, template: Callable[[str], str] = _same, word: Callable[[str], str] = _same,
             fill: Fill = _fill) -> str:
        """The sentence with ``template`` applied to every template in it and ``word`` to every table word;
        ``fill`` puts the values in a template (a screen's knows where the names are)."""
        return _said(self.template, self.params, template, word, fill)


def _said(text: str, params: dict[str, Param], template: Callable[[str], str], word: Callable[[str], str],
          fill: Fill) -> str:
    """A template without parameters is the sentence as it stands (it may hold braces of its own)."""
    if not params:
        return template(text)
    return fill(template(text), {key: _value(param, template, word, fill) for key, param in params.items()})


def _value(param: Param, template: Callable[[str], str], word: Callable[[str], str], fill: Fill) -> object:
    if isinstance(param, str):
        if isinstance(param, Reason):
            return param.text(template, word, fill)
        return word(param) if isinstance(param, Word) else param
    if isinstance(param, tuple):
        return ", ".join(str(_value(item, template, word, fill)) for item in param)
    return param


def either(choices: list[Param]) -> Param:
    """Choices joined by "or", each join a template of its own so a screen can translate it.

    >>> either([Reason("a"), 2, Reason("c")])
    'a or 2 or c'
    """
    if len(choices) == 1:
        return choices[0]
    return Reason("{first} or {rest}", first=choices[0], rest=either(choices[1:]))


LINE = 60
"""How much of a value typed by someone a message quotes: a line's worth, whatever its length."""


def brief(text: str, most: int = LINE) -> str:
    """``text`` cut to ``most`` characters and an ellipsis, so a refusal stays one readable line.

    >>> brief("x" * 100, 5), brief("short")
    ('xxxxx…', 'short')
    """
    return text if len(text) <= most else text[:most] + "…"


class CompanionError(Exception):
    """A problem the person at the table can fix; ``str(exc)`` says what to do.

    Built like a ``Reason`` (a template and its parameters), which it keeps as
    ``exc.reason`` for a screen to translate; a message built beforehand (an
    f-string, a ``Reason``) is kept as it is. The sentence is made the first
    time it is asked for (``reason``, ``str(exc)``): the rules refuse many
    actions whose reason nobody reads (``is_legal`` asks only whether), and
    wording each refusal cost more than the check that made it.
    """

    def __init__(self, message: str, /, **params: Param) -> None:
        super().__init__(message)
        self._params = params

    @property
    def reason(self) -> Reason:
        message = self.args[0]
        if not isinstance(message, Reason) or self._params:
            message = Reason(message, **self._params)
            self.args, self._params = (message,), {}
        return message

    def __str__(self) -> str:
        return str(self.reason)


class UsageError(CompanionError):
    """A command asked for something it cannot do (a missing file, a bad number)."""


__all__ = ["CompanionError", "Param", "Reason", "UsageError", "Word", "brief", "either"]
