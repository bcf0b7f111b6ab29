"""Every word on screen goes through gettext, and a language switch redraws it.

kv rules write ``text: tr._("New game")``. Kivy binds a kv expression to the
attributes it reads, so ``tr`` pretends to be observable: it records each
binding of ``_`` and calls them all again when the language changes (the
pattern of Kivy's own i18n example). Catalogues live in ``locale/<lang>/
LC_MESSAGES/companion.mo``; English is the source text itself.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.event import Observable

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "companion"


class Translator(Observable):
    """``tr._(text)``, ``tr.ngettext(one, many, n)``, and ``tr.switch(lang)`` that re-runs bound kv rules."""

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self._observers: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
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
        for observer in list(self._observers):
            func, args, _kwargs = observer
            try:
                func(args[0], None, None)
            except ReferenceError:  # the widget that read the text is gone
                # By identity: comparing tuples would touch other dead widgets' proxies and raise again.
                self._observers = [o for o in self._observers if o is not observer]

    # The three methods Kivy's kv compiler calls on what an expression reads.
    def fbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        if name == "_":
            self._observers.append((func, args, kwargs))
            return len(self._observers)
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        if name == "_":
            key = (func, args, kwargs)
            if key in self._observers:
                self._observers.remove(key)
        else:
            super().funbind(name, func, *args, **kwargs)

    def unbind_uid(self, name: str, uid: int) -> None:
        if name != "_":
            super().unbind_uid(name, uid)


tr = Translator()
