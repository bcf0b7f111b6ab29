"""Switching language after a widget that read a text is gone."""

from __future__ import annotations

import gc

from kivy.uix.label import Label
from kivy.weakproxy import WeakProxy

from companion.ui.i18n import Translator


def test_switch_drops_an_observer_whose_widget_was_collected() -> None:
    translator = Translator()
    seen: list[str] = []

    def read(widget: Label, *rest: object) -> None:  # kv binds one function per rule, to many widgets
        seen.append(widget.text)

    kept, gone = Label(text="kept"), Label(text="gone")
    translator.fbind("_", read, WeakProxy(kept))
    translator.fbind("_", read, WeakProxy(gone))
    del gone
    gc.collect()
    translator.switch("en")  # the dead proxy is dropped, never compared with the live one
    translator.switch("en")
    assert seen == ["kept", "kept"]
