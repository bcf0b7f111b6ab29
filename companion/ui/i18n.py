"""Every word on screen goes through gettext, and a language switch redraws it.

kv rules write ``text: tr._("New game")``. Kivy binds a kv expression to the
attributes it reads, so ``tr`` pretends to be observable: it records each
binding of ``_`` and calls them all again when the language changes (the
pattern of Kivy's own i18n example). Catalogues live in ``locale/<lang>/
LC_MESSAGES/companion.mo``; English is the source text itself.

Texts from outside the screens (the rules' refusals, the store's and the
buzzers' notices) come as a ``Reason``, an English sentence that keeps its
template and parameters: ``say`` translates its templates through the same
catalogue, and the table words in it (spices, profiles, variant cards) through
``table_words``; seat names, paths and numbers are said as they are, and a
name typed at the table (``Name``) is known as one where it is filled in
(``bidi.Named``): a screen draws "Table 3" as typed in a Persian line too.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from datetime import date, datetime
from itertools import count
from pathlib import Path
from typing import Any

from kivy.event import Observable

from companion.errors import Name, Reason
from companion.ui.bidi import Named, as_name, join_named, named

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "companion"


Observer = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class Translator(Observable):
    """``tr._(text)``, ``tr.ngettext(one, many, n)``, and ``tr.switch(lang)`` that re-runs bound kv rules."""

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self._observers: dict[int, Observer] = {}
        """By the uid ``fbind`` returned, which is what kv unbinds with."""
        self._unbound: set[int] = set()
        """Uids to drop. Kv unbinds when the collector deletes a widget, which may happen in the middle of
        reading ``_observers``: unbinding only notes the uid, and the dict changes where nothing reads it."""
        self._uids = count(1)
        self.language = language
        self._catalogue = self._load(language)

    @staticmethod
    def _load(language: str) -> gettext.NullTranslations:
        return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)

    def _(self, text: str) -> str:
        return self._catalogue.gettext(text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._catalogue.ngettext(singular, plural, count)

    def switch(self, language: str) -> None:
        self.language = language
        self._catalogue = self._load(language)
        self._forget()
        for uid, (func, args, _kwargs) in list(self._observers.items()):
            if uid in self._unbound:
                continue
            try:
                func(args[0], None, None)
            except ReferenceError:  # the widget that read the text is gone
                self._unbound.add(uid)
        self._forget()

    def _forget(self) -> None:
        while self._unbound:
            self._observers.pop(self._unbound.pop(), None)

    # The methods Kivy's kv compiler calls on what an expression reads.
    def fbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        if name == "_":
            self._forget()
            uid = next(self._uids)
            self._observers[uid] = (func, args, kwargs)
            return uid
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """By identity: comparing a weak proxy whose widget is gone raises ReferenceError."""
        if name != "_":
            super().funbind(name, func, *args, **kwargs)
            return
        for uid, observer in list(self._observers.items()):
            if uid not in self._unbound and _same(observer, (func, args, kwargs)):
                self._unbound.add(uid)
                return

    def unbind_uid(self, name: str, uid: int) -> None:
        if name == "_":
            self._unbound.add(uid)
        else:
            super().unbind_uid(name, uid)


def _same(observer: Observer, other: Observer) -> bool:
    (func, args, kwargs), (other_func, other_args, other_kwargs) = observer, other
    return (
        func is other_func
        and len(args) == len(other_args)
        and all(a is b for a, b in zip(args, other_args, strict=True))
        and kwargs.keys() == other_kwargs.keys()
        and all(kwargs[key] is other_kwargs[key] for key in kwargs)
    )


tr = Translator()


def say(text: str) -> str:
    """A message from outside the screens in the chosen language: a ``Reason`` translated, any other text as it is.

    In English a reason reads exactly as the command line prints it; it knows where its names are (``Name``).
    """
    return text.text(tr._, table_word, _filled) if isinstance(text, Reason) else text


def listed(names: Iterable[str]) -> Named:
    """The table's names one after another, each known as a name, with the language's own list separator
    from its catalogue: "Ana, Ben 2"; in Persian "Ana، Ben 2", in Japanese "Ana、Ben 2".

    >>> listed(["Ana", "Ben 2"]).names
    ((0, 3), (5, 10))
    """
    return join_named(tr._(", "), map(as_name, names))


def _filled(template: str, values: dict[str, object]) -> str:
    """``template.format(**values)``, knowing where the names in it are: each ``Name``, and the names a sentence
    filled in knows (a reason inside the reason)."""
    names = {key: value for key, value in values.items() if isinstance(value, Name)}
    if not names and not any(isinstance(value, Named) for value in values.values()):
        return template.format(**values)
    return named(template, names, **values)


def table_word(word: str) -> str:
    return table_words().get(word, word)


def table_words() -> dict[str, str]:
    """Every table word a reason from the rules can hold, as said inside a sentence, in the chosen language."""
    from companion.rules.variants import VARIANTS  # here, not at the top: the rules are not needed for the first frame

    return {
        "chili": tr._("chili"),
        "wasabi": tr._("wasabi"),
        "pepper": tr._("pepper"),
        "lemon": tr._("lemon"),
        "salt": tr._("salt"),
        "sugar": tr._("sugar"),
        "garlic": tr._("garlic"),
        "cinnamon": tr._("cinnamon"),
        "wild-spice": tr._("wild-spice"),
        "wild-number": tr._("wild-number"),
        "spicy": tr._("spicy"),
        "sweet-spicy": tr._("sweet-spicy"),
        "five-spices": tr._("five-spices"),
        "Spicy": tr._("Spicy"),
        "Sweet & Spicy": tr._("Sweet & Spicy"),
        "Five Spices": tr._("Five Spices"),
        **{variant: tr._(variant) for variant in VARIANTS},  # the catalogue takes them from the rows
    }


# Dates and numbers by the language, from CLDR through Babel (imported here, not at the top: the first
# frame shows none).

def when(stamp: str) -> str:
    """A saved time stamp as the table reads it, to the minute, the clock time as it was saved.

    >>> when("2026-11-30T20:14:03.000+00:00")
    'Nov 30, 2026, 8:14\u202fPM'
    """
    from babel.dates import format_skeleton, format_time, get_datetime_format

    moment = datetime.fromisoformat(stamp[:16])
    date = format_skeleton("yMMMd", moment, locale=tr.language)
    time = format_time(moment, "short", locale=tr.language)
    return str(get_datetime_format("medium", locale=tr.language)).replace("{1}", date).replace("{0}", time)


def period_words(period: str) -> str:
    """A filter's period, a year (``2026``) or a month (``2026-11``), as the language names it.

    >>> period_words("2026"), period_words("2026-11")
    ('2026', 'November 2026')
    """
    if len(period) == 4:
        return period
    from babel.dates import format_skeleton

    return str(format_skeleton("yMMMM", date.fromisoformat(period + "-01"), locale=tr.language))


def number(value: float, digits: int = 0) -> str:
    """A count or a figure as the language writes it, its thousands grouped.

    >>> number(12345), number(12.345, 1)
    ('12,345', '12.3')
    """
    from babel.numbers import format_decimal

    return str(format_decimal(value, "#,##0" + ("." + "0" * digits if digits else ""), locale=tr.language,
                              numbering_system="default"))  # Persian's separators (۱٬۲۳۴٫۵); its digits: the label's


def percent(fraction: float) -> str:
    """``0.5`` as ``50%`` (``50 %`` in French).

    >>> percent(0.456)
    '46%'
    """
    from babel.numbers import format_percent

    return str(format_percent(fraction, locale=tr.language, numbering_system="default"))  # ٪ in Persian
