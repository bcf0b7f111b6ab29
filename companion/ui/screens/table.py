"""The table: a panel per seat round the edges, the stack, draw pile and trophies in the hub,
and the claim pad for the seat to play. Sheets (challenge, reveal, result) cover it while
a challenge is settled; the end screen follows the last action.

The screen is thin: ``TableView`` holds the game; this module places panels
(standing: a column or grid, all upright; lying flat: each seat on its edge,
turned to face it) and routes keys, long presses and sounds.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.buzzers import KeyboardBuzzers
from companion.session import Session
from companion.ui import theme
from companion.ui.i18n import tr
from companion.ui.screens.challenge import ChallengeSheet
from companion.ui.screens.draw_pile import DrawPileSheet
from companion.ui.screens.result import ResultSheet
from companion.ui.screens.reveal import RevealSheet
from companion.ui.view import TableView
from companion.ui.widgets import load_kv
from companion.ui.widgets.seat_panel import Facing, SeatPanel

load_kv(__file__)

EDGE_ANGLES = {"bottom": 0, "left": 270, "top": 180, "right": 90}
"""Kivy's rotation (anticlockwise) that turns a panel to read from each edge."""

DOCK = 88
"""How deep a seat's panel is on its edge, lying flat."""
TRAY = 176
"""How deep the seat to play's grown panel and the claim pad are, lying flat."""
PANEL_LONG, PAD_LONG = 216, 368
"""Lying flat, how the seat to play's long edge is shared between its grown panel and the claim pad."""

Box = tuple[float, float, float, float]

EDGES_BY_SEATS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
    5: ("bottom", "bottom", "left", "top", "top"),
    6: ("bottom", "bottom", "left", "top", "top", "right"),
}
"""Default edges, clockwise seen from above (design README "Lying flat")."""


class TurnRow(BoxLayout):
    """The turn's buttons side by side. A hidden one leaves the row: a BoxLayout keeps a gap beside
    every child, even one of no width, and the shown buttons would stop short of the row's end."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self._buttons = self.children[::-1]
        for button in self._buttons:
            button.bind(shown=self._arrange)
        self._arrange()

    def _arrange(self, *_args: Any) -> None:
        self.clear_widgets()
        for button in self._buttons:
            if button.shown:
                self.add_widget(button)


class TableScreen(Screen):
    view = ObjectProperty(None, allownone=True, rebind=True)
    flat = BooleanProperty(False)
    """Seats on the edges, turned to face them: the screen lies flat."""
    sheet_name = StringProperty("")
    counting = BooleanProperty(False)
    """The table is setting its count of the draw pile (the draw-pile sheet)."""
    lying = BooleanProperty(False)
    """The lying-flat layout is showing (flat and landscape): the hint sits in the seat to play's panel."""
    portrait = BooleanProperty(False)
    """The standing portrait layout: the pad has a head with the seat to play's avatar, name and hand."""
    playing = ObjectProperty(None, allownone=True, rebind=True)
    """The seat to play's ``SeatView``, or None between games."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._slots: list[Facing] = []
        self._sheet_holder: Facing | None = None
        self._sheet_turned = False
        self._sheets = {
            "challenge": ChallengeSheet(), "reveal": RevealSheet(), "result": ResultSheet(), "draw_pile": DrawPileSheet(),
        }
        self._sheets["draw_pile"].bind(on_close=lambda _sheet: self._count_done())
        self._holders = {name: Facing(sheet, size_hint=(None, None)) for name, sheet in self._sheets.items()}
        """Each sheet in its holder for good: showing one builds nothing, and it keeps its layout at the same size."""
        self._trophies = self.ids.trophies.__self__
        """Held here too: taken off the hub for five-spices, it must outlive its weak id."""
        self._board = self.ids.board.__self__
        """Held here too: taken off the screen while a sheet covers it, so it is not drawn unseen."""
        board = self._board
        self._pad_slot, self._info_slot = (self._lift(self.ids.turn), self._lift(self.ids.info))
        """The claim pad, and the hint with the turn's buttons: standing, the hint and buttons frame the pad;
        lying flat, they sit at the foot of the seat to play's panel and the pad beside it, both turned to it."""
        board.add_widget(self._pad_slot, index=1)  # over the hub, under the last-card banner
        board.add_widget(self._info_slot, index=1)  # over the pad, whose keys it lets through
        self.bind(size=self._layout, flat=self._layout)
        self.ids.title.bind(size=self._layout)  # the title is centred in the bar: its width changes with its words
        self.bind(size=self._fit_sheet, pos=self._fit_sheet)

    def on_pre_enter(self) -> None:
        """The felt's centre colour fills the window by clearing it, which costs next to nothing;
        the board and the sheets draw only the felt's dark corners (docs/PERFORMANCE.md)."""
        Window.clearcolor = theme.FELT_CENTRE

    def on_enter(self) -> None:
        Window.bind(on_key_down=self._key_down)

    def on_pre_leave(self) -> None:
        Window.clearcolor = theme.FELT_EDGE

    def on_leave(self) -> None:
        Window.unbind(on_key_down=self._key_down)

    # --- opening a game ---------------------------------------------------------------

    def open(self, session: Session) -> None:
        app = App.get_running_app()
        if self.view is not None:
            self.view.close()
        view = TableView(session, app.referee)
        view.bind(
            on_refused=lambda _v, reason: app.notify(reason),
            on_not_saved=lambda _v, error: app.not_saved(error),
            on_notice=lambda _v, text: app.notify(text),
            on_sound=lambda _v, name: app.play_sound(name),
            buzz=self._show_sheet, pending=self._show_sheet, result=self._show_sheet, ended=self._show_sheet,
        )
        self.view = view
        for sheet in self._sheets.values():
            sheet.view = view
        trophies, tiles = self._trophies, self.ids.tiles
        if view.trophies_total and trophies.parent is None:
            tiles.add_widget(trophies)
        elif not view.trophies_total and trophies.parent is not None:
            tiles.remove_widget(trophies)  # five-spices has no trophies
        view.bind(turn=self._layout)  # lying flat, the pad moves to the seat to play
        self.flat = app.face_seats
        app.bind(face_seats=self.setter("flat"))
        self._build_seats()
        self._show_sheet()

    def _build_seats(self) -> None:
        board = self.ids.board
        for slot in self._slots:
            board.remove_widget(slot)
        self._slots = []
        for seat in self.view.seats:
            panel = SeatPanel(seat=seat, universals_shown=self.view.has_universals)
            panel.bind(on_long_press=lambda p: self.view.press(p.seat.index),
                       on_copy=lambda p: self.view.copy(p.seat.index))
            slot = Facing(panel, size_hint=(None, None))
            board.add_widget(slot, index=len(board.children))  # under the hub, the pad and the sheets
            self._slots.append(slot)
        self._layout()

    # --- sheets and the end ---------------------------------------------------------------

    def _show_sheet(self, *_args: Any) -> None:
        view = self.view
        if view is None:
            return
        if view.ended and view.result is None:
            name = "end"
        elif view.result is not None:
            name = "result"
        elif view.pending:
            name = "reveal"
        elif view.buzz is not None:
            name = "challenge"
        else:
            name = "draw_pile" if self.counting else ""
        self.counting = name == "draw_pile"  # any sheet the game opens takes the place of the count
        if name == "end":
            self._close_sheet()
            if self.manager is not None and self.manager.current == self.name:
                app = App.get_running_app()
                app.screen("end").open(view)
                app.show("end")
            return
        if name == self.sheet_name:
            return
        turned = self._sheet_turned
        if name == "challenge" and view.buzz is not None:
            turned = self._on_top_edge(view.buzz.challenger)
        elif name == "reveal":
            turned = self._on_top_edge(view.challenger)
        self._close_sheet()
        if name:
            holder = self._holders[name]
            holder.angle, holder.pos, holder.size = 180 if turned else 0, self.pos, self.size
            self.remove_widget(self._board)  # hidden by the sheet: drawing it anyway doubles a frame's cost
            self.add_widget(holder)
            self._sheet_holder = holder
        self.sheet_name = name
        self._sheet_turned = turned

    def _fit_sheet(self, *_args: Any) -> None:
        if self._sheet_holder is not None:
            self._sheet_holder.pos, self._sheet_holder.size = self.pos, self.size

    def _on_top_edge(self, seat: int | None) -> bool:
        """Lying flat, a sheet faces the challenger: turned over for a seat on the top edge."""
        if seat is None or not self.flat or self.width < self.height:
            return False
        return EDGES_BY_SEATS[len(self.view.seats)][seat] == "top"

    def _close_sheet(self) -> None:
        holder = self._sheet_holder
        if holder is not None:
            self.remove_widget(holder)
            self.add_widget(self._board, index=len(self.children))
        self._sheet_holder = None
        self.sheet_name = ""

    def header_text(self, view: TableView, chain: bool, named: bool, *_deps: Any) -> str:
        """When the seat's name is shown beside it (its own panel lying flat, the pad's head in portrait),
        the hint does not repeat it."""
        if view.turn < 0:
            return ""
        if chain and view.top_player >= 0:
            return tr._("{name} plays again: pick a spice").format(name=view.seats[view.top_player].name)
        if named:  # lying flat the title is not shown: the direction of play joins the hint
            return view.hint + (f"  \u00b7  {direction_words(view.direction)}" if self.lying and view.direction else "")
        return tr._("{name} to play: {hint}").format(name=view.seats[view.turn].name, hint=view.hint)

    def title_text(self, view: TableView, *_deps: Any) -> str:
        """The profile's title (a table word) and, while a card in play can turn it, the direction of play."""
        title = tr._(view.title)
        return f"{title}  \u00b7  {direction_words(view.direction)}" if view.direction else title

    def count_draw_pile(self) -> None:
        """A tap on the draw pile opens the table's count of it (docs/RULES.md 6), where the World's End
        card showing is told too."""
        view = self.view
        if not view.has_end_card:
            App.get_running_app().notify(tr._("Five spices has no World's End card: the face-up pile is reshuffled"))
            return
        self._sheets["draw_pile"].open_at(view.draw_pile, view.draw_pile_most)
        self.counting = True
        self._show_sheet()

    def _count_done(self) -> None:
        self.counting = False
        self._show_sheet()

    # --- keys 1-6 ------------------------------------------------------------------------

    def _key_down(self, _window: Any, _key: int, _scancode: int, text: str | None, _modifiers: Any) -> bool:
        """With buzzers that are not the keyboard, keys 1-6 still claim a challenge (the app reads
        them as buzzers when the keyboard stands in)."""
        buzzers = App.get_running_app().buzzers
        if self.view is None or not text or isinstance(buzzers, KeyboardBuzzers):
            return False
        if text.isdigit() and 1 <= int(text) <= len(self.view.seats):
            self.view.press(int(text) - 1)
            return True
        return False

    # --- placing the seats ------------------------------------------------------------------

    def _lift(self, widget: Widget) -> Facing:
        """``widget`` taken off the board into a slot that can turn it."""
        widget = widget.__self__
        self._board.remove_widget(widget)
        widget.size_hint = (1, 1)
        return Facing(widget, size_hint=(None, None))

    def _layout(self, *_args: Any) -> None:
        if self.view is None or not self._slots:
            return
        w, h = self.size
        self.lying, self.portrait = w >= h and self.flat, w < h
        self.playing = self.view.seats[self.view.turn] if self.view.turn >= 0 else None
        grown = self._slots[max(self.view.turn, 0)] if self.lying else None
        for slot in self._slots:
            slot.panel.reserve = _dp(TRAY - DOCK) if slot is grown else 0
        if self.lying:
            self.ids.turn.padding, self.ids.info.padding = (_dp(8), _dp(8)), (_dp(10), _dp(4))
            self._layout_flat(w, h)
            return
        head = _dp(64 if self.portrait else 26)
        self.ids.turn.padding = (_dp(10), _dp(8) + head + _dp(6), _dp(10), _dp(8) + _dp(theme.TARGET) + _dp(6))
        self.ids.info.padding = (_dp(10), _dp(8))
        if self.portrait:
            self._layout_portrait(w, h)
        else:
            self._layout_column(w, h)

    def _layout_column(self, w: float, h: float) -> None:
        """Standing, landscape: the seats in a column on the left, everything else on the right."""
        m = _dp(8)
        col = min(_dp(280), max(_dp(220), w * 0.3))
        n = len(self._slots)
        row = min(_dp(96), (h - 2 * m - (n - 1) * _dp(6)) / n)
        for i, slot in enumerate(self._slots):
            slot.angle = 0
            slot.size = (col, row)
            slot.pos = (m, h - m - (i + 1) * row - i * _dp(6))
        self._place_bar(col + 2 * m, w - m, h - m)
        middle = h - 2 * m - _dp(64)
        pad_h = min(middle - _dp(120), max(_dp(250), middle * 0.55))
        self._place_middle(x=col + 2 * m, y=m, w=w - col - 3 * m, h=middle, pad_h=pad_h)

    def _layout_portrait(self, w: float, h: float) -> None:
        """Standing, portrait: a two-column grid of seats under the top bar, clockwise."""
        m = _dp(16)
        bar = m + self.ids.undo.height + _dp(theme.TAB_RISE + 4)  # the seat to play's tab stays clear of Undo
        n = len(self._slots)
        rows = (n + 1) // 2
        cell_w = (w - 2 * m - _dp(8)) / 2
        cell_h = _dp(112)
        cells = [(0, 0)] + [(r, 1) for r in range(rows)] + [(r, 0) for r in range(rows - 1, 0, -1)]
        for slot, (r, c) in zip(self._slots, cells, strict=False):  # an odd count leaves a cell empty
            slot.angle = 0
            slot.size = (cell_w, cell_h)
            slot.pos = (m + c * (cell_w + _dp(8)), h - bar - (r + 1) * cell_h - r * _dp(8))
        top = h - bar - rows * (cell_h + _dp(8))
        self._place_bar(m, w - m, h - m)
        # keys about as tall as they are wide: the rest goes to the hub
        self._place_middle(x=m, y=m, w=w - 2 * m, h=top - m, pad_h=min(top - m - _dp(200), _dp(480)))

    def _layout_flat(self, w: float, h: float) -> None:
        """Lying flat: each seat on its edge, turned to face it. The seat to play's panel grows to take
        the hint and its buttons, and the pad sits beside it on a long edge, inward of it on a short one,
        over the hub when two seats share the edge: the pad is always in front of the one who plays."""
        m, dock, deep, corner = _dp(8), _dp(DOCK), _dp(TRAY), _dp(theme.ROUND_BUTTON)
        edges = EDGES_BY_SEATS[len(self._slots)]
        player = max(self.view.turn, 0)
        active, playing = edges[player], self._slots[player]
        by_edge: dict[str, list[Facing]] = {"bottom": [], "left": [], "top": [], "right": []}
        for slot, edge in zip(self._slots, edges, strict=True):
            slot.angle = EDGE_ANGLES[edge]
            by_edge[edge].append(slot)
        by_edge["bottom"].reverse()  # clockwise seen from above runs right to left along the bottom
        shared = len(by_edge[active]) > 1
        bar_edge = "bottom" if active == "top" else "top"  # undo, redo and the menu: clear of the one to play

        thick = {edge: dock for edge in by_edge}
        thick[active] = deep + m + deep if active in ("left", "right") else deep
        hub_l, hub_r = m + thick["left"] + m, w - m - thick["right"] - m
        hub_b, hub_t = m + thick["bottom"] + m, h - m - thick["top"] - m

        for edge in ("bottom", "top"):  # the long edges: the panels share what the side columns leave
            slots = by_edge[edge]
            x0, x1 = hub_l, hub_r
            if edge == bar_edge:
                x0, x1 = max(x0, m + 2 * corner + 2 * m), min(x1, w - m - corner - m)
            span = (x1 - x0 - (len(slots) - 1) * m) / max(1, len(slots))
            for i, slot in enumerate(slots):
                depth = deep if slot is playing else dock
                slot.size = (min(span, _dp(320)) if slot is not playing or shared else span, depth)
                slot.pos = (x0 + i * (span + m) + (span - slot.width) / 2, m if edge == "bottom" else h - m - depth)
        side_h = min(_dp(300), h - 2 * (m + dock + m))
        for edge, x in (("left", m), ("right", w - m - dock)):
            for slot in by_edge[edge]:
                slot.size = (dock, side_h)
                slot.pos = (x, (h - side_h) / 2)

        panel_box = self._tray(active, playing, shared, w, h)
        pad_box = self._pad_box(active, shared, panel_box, (hub_l, hub_r), w)
        self._place_turned(playing, active, panel_box, w, h)
        self._place_turned(self._info_slot, active, (panel_box[0], m, panel_box[2], deep - dock), w, h)
        self._place_turned(self._pad_slot, active, pad_box, w, h)

        hub_x, hub_w = hub_l, hub_r - hub_l
        if shared:  # the hub keeps the wider side of the pad
            pad_x, pad_right = self._pad_slot.x, self._pad_slot.right
            hub_x, hub_w = max(((hub_l, pad_x - m - hub_l), (pad_right + m, hub_r - pad_right - m)),
                               key=lambda span: span[1])
            hub_b, hub_t = m + dock + m, h - m - dock - m  # beside the pad, clear of the grown panel
        self._place_bar(m, w - m, h - m if bar_edge == "top" else m + corner)
        self.ids.title.opacity = 0
        self._place_hub(hub_x, hub_b, hub_w, hub_t - hub_b)

    @staticmethod
    def _tray(edge: str, playing: Facing, shared: bool, w: float, h: float) -> Box:
        """The seat to play's grown panel, seen from its seat: (along the edge from its left, in from the
        edge, length, depth)."""
        m, deep = _dp(8), _dp(TRAY)
        length = w if edge in ("bottom", "top") else h
        if shared:
            x = playing.x if edge == "bottom" else w - playing.right
            return (x, m, playing.width, deep)
        if edge in ("left", "right"):
            along = min(_dp(PAD_LONG), h - 2 * (m + _dp(theme.ROUND_BUTTON)))  # clear of undo and redo
            return ((length - along) / 2, m, along, deep)
        span = length - 2 * (m + _dp(DOCK) + m)  # between the side columns
        panel = (span - m) * PANEL_LONG / (PANEL_LONG + PAD_LONG)
        return ((length - span) / 2, m, panel, deep)

    @staticmethod
    def _pad_box(edge: str, shared: bool, panel: Box, hub: tuple[float, float], w: float) -> Box:
        """The pad, seen from the seat to play (as ``_tray``): beside its panel on a long edge, inward of
        it on a short edge; over the hub, in front of its panel, when another seat shares the edge."""
        m, deep = _dp(8), _dp(TRAY)
        u, v, length, depth = panel
        if edge in ("left", "right"):
            return (u, v + depth + m, length, deep)
        if shared:  # as narrow as five number keys allow, to leave the hub room for the stack beside it
            lo, hi = (hub[0], hub[1]) if edge == "bottom" else (w - hub[1], w - hub[0])
            pad = min(_dp(PAD_LONG), max(_dp(296), (hi - lo) / 2))
            along = min(max(u + (length - pad) / 2, lo), hi - pad)
            return (along, v + depth + m, pad, deep)
        span = w - 2 * (m + _dp(DOCK) + m)
        return (u + length + m, v, span - length - m, deep)

    @staticmethod
    def _place_turned(slot: Facing, edge: str, box: Box, w: float, h: float) -> None:
        """Put ``slot`` where ``box``, seen from a seat on ``edge``, falls on the screen."""
        u, v, length, depth = box
        slot.angle = EDGE_ANGLES[edge]
        if edge == "bottom":
            slot.pos, slot.size = (u, v), (length, depth)
        elif edge == "top":
            slot.pos, slot.size = (w - u - length, h - v - depth), (length, depth)
        elif edge == "left":
            slot.pos, slot.size = (v, h - u - length), (depth, length)
        else:
            slot.pos, slot.size = (w - v - depth, u), (depth, length)

    def _place_bar(self, x: float, right: float, top: float) -> None:
        """Undo and redo at the left, always one tap away; the menu at the right; their tops at ``top``."""
        ids = self.ids
        ids.undo.pos = (x, top - ids.undo.height)
        ids.redo.pos = (ids.undo.right + _dp(8), top - ids.redo.height)
        ids.menu.pos = (right - ids.menu.width, top - ids.menu.height)
        ids.title.opacity = 1
        ids.title.center = ((ids.redo.right + ids.menu.x) / 2, top - ids.menu.height / 2)

    def _place_middle(self, x: float, y: float, w: float, h: float, pad_h: float) -> None:
        """Standing, the pad sits under the hub, framed by the hint above and the buttons below."""
        for slot in (self._pad_slot, self._info_slot):
            slot.angle, slot.pos, slot.size = 0, (x, y), (w, pad_h)
        self._place_hub(x, y + pad_h + _dp(8), w, h - pad_h - _dp(8))

    def _place_hub(self, x: float, y: float, w: float, h: float) -> None:
        ids = self.ids
        ids.hub.pos, ids.hub.size = (x, y), (w, h)
        banner_h = _dp(128 if ids.banner.flat else 64)
        ids.banner.pos, ids.banner.size = (ids.hub.x, ids.hub.top - banner_h), (ids.hub.width, banner_h)


def direction_words(direction: str) -> str:
    return tr._("counter-clockwise") if direction == "counter-clockwise" else tr._("clockwise")


def _dp(value: float) -> float:
    return float(dp(value))
