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


def _read_into(seen: list[str]):  # type: ignore[no-untyped-def]
    def read(widget: Label, *rest: object) -> None:
        seen.append(widget.text)

    return read


def test_unbinding_passes_over_an_observer_whose_widget_was_collected() -> None:
    translator = Translator()
    seen: list[str] = []
    read = _read_into(seen)
    gone, kept = Label(text="gone"), Label(text="kept")
    translator.fbind("_", read, WeakProxy(gone))
    proxy = WeakProxy(kept)
    translator.fbind("_", read, proxy)
    del gone
    gc.collect()
    translator.funbind("_", read, proxy)  # by identity: the dead proxy is never compared
    translator.switch("en")
    assert seen == []


def test_unbinding_by_uid_stops_the_rule_being_read_again() -> None:
    """Kivy's kv rules unbind by the uid ``fbind`` gave them, when a rule is rebuilt or its widget goes."""
    translator = Translator()
    seen: list[str] = []
    read = _read_into(seen)
    first, second = Label(text="first"), Label(text="second")
    uid = translator.fbind("_", read, WeakProxy(first))
    translator.fbind("_", read, WeakProxy(second))
    translator.unbind_uid("_", uid)
    translator.switch("en")
    assert seen == ["second"]


def test_a_collection_while_switching_may_unbind_rules() -> None:
    """The collector may delete a widget, and kv unbind its rules, at any allocation: even while a switch reads them."""
    translator = Translator()
    seen: list[str] = []
    read = _read_into(seen)
    labels = [Label(text=str(n)) for n in range(40)]
    uids = [translator.fbind("_", read, WeakProxy(label)) for label in labels]
    pending = uids[20:]

    def unbind(phase: str, _info: object) -> None:
        if phase == "start" and pending:
            translator.unbind_uid("_", pending.pop())

    threshold = gc.get_threshold()
    gc.callbacks.append(unbind)
    gc.set_threshold(1)  # a collection at nearly every allocation
    try:
        translator.switch("en")
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(unbind)
    # Since Python 3.12 the collector runs at the interpreter's periodic checks, not at every allocation:
    # fewer collections come during one switch (7 of 20 on 3.13), and the rest of the rules go afterwards.
    assert len(pending) < 20, "no collection came during the switch: the test proved nothing"
    while pending:
        translator.unbind_uid("_", pending.pop())
    seen.clear()
    translator.switch("en")
    assert seen == [str(n) for n in range(20)]
