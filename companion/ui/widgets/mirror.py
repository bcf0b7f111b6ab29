"""The screens mirrored in a right-to-left language, as right-to-left apps are: what stands at the left in
English stands at the right in Persian (a row's first item, Back, a seat panel's name and its score, the claim
pad's keys), and a directional icon points the other way.

Done once, in the layouts every screen is made of: kv's ``BoxLayout:``, ``GridLayout:``, ``StackLayout:`` and
``ScrollView:`` and ``RecycleView:`` are ``Row``, ``Grid``, ``Stack`` and ``companion.ui.widgets.scrolls``'
two (registered under those names, as the label is), and a widget class written as a row in Python is
a ``Row``. Each lays its children out as Kivy does, then, in a right-to-left language, mirrors their places
within it. Numbers keep their own order: a row of number keys reads 1 to 10 from the right, and each number
is still written left to right (``companion.ui.bidi``). The on-screen keyboard's letter rows stay in the
standard Persian layout, which a hand knows by place (``companion.ui.keyboard`` flips its other keys).
The table lays itself out (``companion.table.layout``) and mirrors there.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.layout import Layout
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from companion.languages import language
from companion.ui.i18n import tr


def mirrored() -> bool:
    """Whether the screens mirror now: the table speaks a right-to-left language."""
    return language(tr.language).rtl


def mirror_children(layout: Widget) -> None:
    """Each child of ``layout`` put where its mirror image across the layout's middle is."""
    for child in layout.children:
        child.x = layout.x + layout.right - child.right


class Row(BoxLayout):
    """Kivy's box, mirrored in a right-to-left language."""

    def do_layout(self, *args: Any) -> None:
        super().do_layout(*args)
        if mirrored():
            mirror_children(self)


class Grid(GridLayout):
    """Kivy's grid, its columns mirrored in a right-to-left language."""

    def do_layout(self, *args: Any) -> None:
        super().do_layout(*args)
        if mirrored():
            mirror_children(self)


class Stack(StackLayout):
    """Kivy's stack (the saved players' chips), its rows mirrored in a right-to-left language."""

    def do_layout(self, *args: Any) -> None:
        super().do_layout(*args)
        if mirrored():
            mirror_children(self)


def relayout(widget: Widget, *, redraw: bool = True) -> None:
    """After the language changed: every layout under ``widget`` laid out again, and every widget that draws
    by the direction drawn again (its ``follow_direction``: a label whose text stayed the same, a name or a
    score; a pointing icon; the table's own layout). A screen manager's screens that are not showing are
    reached through its ``screens``. Without ``redraw``, only laid out: a screen just made, not drawn yet."""
    seen: set[int] = set()
    todo = deque([widget])
    while todo:  # parents before their children: each is laid out in its parent's new place
        node = todo.popleft()
        if id(node) in seen:
            continue
        seen.add(id(node))
        follow = getattr(node, "follow_direction", None) if redraw else None
        if follow is not None:
            follow()
        if isinstance(node, Layout):
            node.do_layout()  # now, not on the next frame: a tap right after the switch lands where it is drawn
        todo.extend(reversed(node.children))
        todo.extend(getattr(node, "screens", ()))
