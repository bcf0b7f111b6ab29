"""The table: a panel per seat round the edges, the stack, draw pile and trophies in the hub,
and the claim pad for the seat to play. Sheets (challenge, reveal, result) cover it while
a challenge is settled; the end screen follows the last action.

The screen is thin: ``TableView`` holds the game; this module places panels
(standing: a column or grid, all upright; lying flat: each seat on its edge,
turned to face it) and routes keys, long presses and sounds.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Fbo
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
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
from companion.ui.widgets.fit import needed_width
from companion.ui.widgets.seat_panel import Facing, SeatPanel, prepare_buzz_looks
from companion.ui.words import Sentence, sentence

load_kv(__file__)

EDGE_ANGLES = {"bottom": 0, "left": 270, "top": 180, "right": 90}
"""Kivy's rotation (anticlockwise) that turns a panel to read from each edge."""

DOCK = 80
"""How deep a seat's panel is on its edge, lying flat: what is left between two edges' panels must
hold five number keys of 48 dp side by side, the pad turned to a side edge."""
PANEL_MOST = 320
"""Lying flat, the longest a panel grows along a long edge."""
TURN_MOST = 368
"""Lying flat, the side of the square the pad, the hint and the turn's buttons take at the hub's centre."""
TURN_FONT_LEAST = 14
"""The smallest a turn button's words are drawn (sp) before the buttons take a second row."""
TURN_ROWS_MOST = 2
"""Lying flat, the pad's keys keep 48 dp beside two rows of turn buttons, not three."""

TURN_MOVES = ("moment",)
"""A toast from the table ends as the turn moves on (``TableView.moment``), and with the game."""

EDGES_BY_SEATS = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
    5: ("bottom", "bottom", "left", "top", "top"),
    6: ("bottom", "bottom", "left", "top", "top", "right"),
}
"""Default edges, clockwise seen from above (design README "Lying flat")."""


class TurnRow(GridLayout):
    """The turn's buttons, in as few rows as lets every one's words fit whole at a readable size
    (lying flat, the pad's square is narrow). A hidden one leaves the grid, which keeps a gap
    beside every child, even one of no width."""

    lines = NumericProperty(1)
    """How many rows of buttons there are."""

    def on_kv_post(self, _base_widget: Any) -> None:
        self._buttons = self.children[::-1]
        for button in self._buttons:
            button.bind(shown=self._arrange, text=self._arrange, icon=self._arrange)
        self.bind(width=self._arrange)
        self._arrange()

    def _arrange(self, *_args: Any) -> None:
        shown = [button for button in self._buttons if button.shown]
        rows = 1
        while rows < min(len(shown), TURN_ROWS_MOST) and not self._fits(shown, math.ceil(len(shown) / rows)):
            rows += 1
        self.rows, self.cols, self.lines = None, max(1, math.ceil(len(shown) / rows)), rows
        self.height = rows * _dp(theme.TARGET) + (rows - 1) * self.spacing[1]
        self.clear_widgets()
        for button in shown:
            self.add_widget(button)

    def _fits(self, buttons: list[Widget], cols: int) -> bool:
        cell = (self.width - (cols - 1) * self.spacing[0]) / cols
        return all(needed_width(button, sp(TURN_FONT_LEAST)) <= cell for button in buttons)


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
    head = NumericProperty(0)
    """How tall the hint's row over the pad is (with the avatar, name and hand in portrait)."""
    playing = ObjectProperty(None, allownone=True, rebind=True)
    """The seat to play's ``SeatView``, or None between games."""
    replaying = BooleanProperty(False)
    phone_url = StringProperty("")
    """The phone page's address while it is served (``companion.ui.phones``): the bar shows its button."""
    """A saved game replayed (``replay``): the table is read-only. Given when it is made, the table has no
    sheets at all: none opens over a replay."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._slots: list[Facing] = []
        """The seats' panels on the board, in seat order."""
        self._made: list[Facing] = []
        """Every seat's panel made so far: a table opened again gives them the new game's seats."""
        self._sheet_holder: Facing | None = None
        self._sheet_turned = False
        self._title_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        """The top bar between redo and the menu, as ``_place_bar`` last left it: the banner's place standing,
        where it goes back from the hub."""
        self._sheets = {} if self.replaying else {
            "challenge": ChallengeSheet(), "reveal": RevealSheet(), "result": ResultSheet(), "draw_pile": DrawPileSheet(),
        }
        if not self.replaying:
            self._sheets["draw_pile"].bind(on_close=lambda _sheet: self._count_done())
        self._holders = {name: Facing(sheet, size_hint=(None, None)) for name, sheet in self._sheets.items()}
        """Each sheet in its holder for good: showing one builds nothing, and it keeps its layout at the same size."""
        self._trophies = self.ids.trophies.__self__
        """Held here too: taken off the hub for five-spices, it must outlive its weak id."""
        self._universal_pile = self.ids.universal_pile.__self__
        """Held here too: only Sweet & Spicy has a universal pile, the other games take it off the hub."""
        self._awards = self.ids.awards.__self__
        """Held here too: the trophies' and the universal pile's column, off the hub when it holds neither."""
        self._banner = self.ids.banner.__self__
        """Held here too: lying flat, it moves into the hub (``_place_banner``)."""
        self._board = self.ids.board.__self__
        """Held here too: taken off the screen while a sheet covers it, so it is not drawn unseen."""
        board = self._board
        self._pad_slot, self._info_slot = (self._lift(self.ids.turn), self._lift(self.ids.info))
        """The claim pad, and the hint with the turn's buttons: standing, the hint and buttons frame the pad;
        lying flat, they sit at the foot of the seat to play's panel and the pad beside it, both turned to it."""
        board.add_widget(self._pad_slot, index=1)  # over the hub, under the last-card banner
        board.add_widget(self._info_slot, index=1)  # over the pad, whose keys it lets through
        self.bind(size=self._layout, flat=self._layout)
        self.ids.turn_row.bind(height=self._layout)  # a second row of buttons takes room from the pad
        self.ids.title.bind(size=self._layout)  # the title is centred in the bar: its width changes with its words
        self.ids.phone_link.bind(shown=self._layout)  # the phone page's button takes room from the title
        app = App.get_running_app()
        if app is not None:  # the app that built this screen: its page, whichever app ran before it
            app.phones.bind(url=self.setter("phone_url"))
            self.phone_url = app.phones.url
        self.bind(size=self._fit_sheet, pos=self._fit_sheet)
        self.ids.redo.bind(pos=self._fit_sheet)

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

    def on_touch_down(self, touch: Any) -> bool:
        if self.replaying:
            return bool(self.collide_point(*touch.pos))  # read-only: a replay's table takes no tap
        return bool(super().on_touch_down(touch))

    # --- opening a game ---------------------------------------------------------------

    def open(self, session: Session) -> None:
        self._close_view()  # before the new view takes the referee's reports
        self._show(TableView(session, App.get_running_app().referee))

    def replay(self, view: TableView) -> None:
        """A saved game read-only (its view over a ``companion.replay.Replay``): no sheet opens over it,
        no tap reaches it, and Undo, Redo and the menu give way to the replay's own controls."""
        self._close_view()
        self.replaying = True
        self._show(view)

    def _close_view(self) -> None:
        if self.view is not None:
            self.view.close()

    def _show(self, view: TableView) -> None:
        app = App.get_running_app()
        view.bind(
            on_refused=lambda _v, reason: app.notify(reason, ends_with=(view, TURN_MOVES)),
            on_not_saved=lambda _v, error: app.not_saved(error),
            on_notice=lambda _v, text: app.notify(text, ends_with=(view, TURN_MOVES)),
            on_sound=lambda _v, name: app.play_sound(name),
            buzz=self._show_sheet, pending=self._show_sheet, result=self._show_sheet, ended=self._show_sheet,
        )
        self.view = view
        for sheet in self._sheets.values():
            sheet.view = view
        self._show_tiles(view)
        view.bind(turn=self._layout)  # lying flat, the pad moves to the seat to play
        view.bind(last_card=self._place_banner)
        self.flat = app.face_seats
        app.bind(face_seats=self.setter("flat"))
        self._build_seats()
        self._show_sheet()

    def _show_tiles(self, view: TableView) -> None:
        """The hub's tiles the game has: five-spices has no trophies, only Sweet & Spicy a universal pile,
        and without either the draw pile has the hub to itself."""
        awards = self._awards
        for tile, shown, on_top in ((self._universal_pile, view.has_universals, False),
                                    (self._trophies, bool(view.trophies_total), True)):
            if shown and tile.parent is None:
                awards.add_widget(tile, index=len(awards.children) if on_top else 0)
            elif not shown and tile.parent is not None:
                awards.remove_widget(tile)
        if awards.children and awards.parent is None:
            self.ids.tiles.add_widget(awards)
        elif not awards.children and awards.parent is not None:
            self.ids.tiles.remove_widget(awards)

    def _build_seats(self) -> None:
        """Each seat's panel: one the table already made takes the new seat (making one costs 30 ms here,
        which a replay opened again, or the next game, would pay for each seat)."""
        board, seats = self.ids.board, self.view.seats
        while self.make_panel(len(seats)):
            pass
        for slot in self._slots[len(seats):]:
            board.remove_widget(slot)
        for slot, seat in zip(self._made, seats, strict=False):
            slot.panel.seat, slot.panel.universals_shown = seat, self.view.has_universals
            if slot.parent is None:
                board.add_widget(slot, index=len(board.children))  # under the hub, the pad and the sheets
        self._slots = self._made[: len(seats)]
        self._layout()

    def make_panel(self, seats: int) -> bool:
        """One more seat's panel, ahead of a game of ``seats`` seats; False when the table has them all."""
        if len(self._made) >= seats:
            return False
        panel = SeatPanel()
        panel.bind(on_long_press=lambda p: self.view.press(p.seat.index),
                   on_copy=lambda p: self.view.copy(p.seat.index))
        self._made.append(Facing(panel, size_hint=(None, None)))
        return True

    # --- sheets and the end ---------------------------------------------------------------

    def _show_sheet(self, *_args: Any) -> None:
        view = self.view
        if view is None or self.replaying:
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
            holder.angle = 180 if turned else 0
            self.remove_widget(self._board)  # hidden by the sheet: drawing it anyway doubles a frame's cost
            self.add_widget(holder, index=len(self.children))  # under undo and redo
            self._sheet_holder = holder
        self.sheet_name = name
        self._sheet_turned = turned
        self._fit_sheet()

    def prepare(self) -> None:
        """Ahead of the first challenge (the frame after the table is first drawn), so that the first
        challenge sheet of a game costs what the later ones do (docs/PERFORMANCE.md): every sheet laid out
        at the table's size, as only the one shown is otherwise, the challenge sheet as a challenge shows
        it, and the seats' buzz looks made; on the next frame, each sheet drawn once off screen."""
        for holder in self._holders.values():
            if holder is not self._sheet_holder:
                self._fit(holder)
        if self.sheet_name != "challenge":  # a game resumed on its challenge shows the real one
            self._sheets["challenge"].stand_in(True)
        prepare_buzz_looks()
        Clock.schedule_once(self._draw_ahead)

    def _draw_ahead(self, _dt: float) -> None:
        """Kivy readies a canvas's instructions the first time it is drawn: into a one-pixel Fbo, that
        work is done here and not on the frame a sheet first shows."""
        fbo = Fbo(size=(1, 1))
        for holder in self._holders.values():
            if holder is not self._sheet_holder:
                fbo.add(holder.canvas)
                fbo.draw()
                fbo.remove(holder.canvas)
        self._sheets["challenge"].stand_in(False)

    def _fit_sheet(self, *_args: Any) -> None:
        if self._sheet_holder is not None:
            self._fit(self._sheet_holder)

    def _fit(self, holder: Facing) -> None:
        """The sheet takes the screen, and leaves the table's undo and redo their place: at its top left,
        or, turned to the far edge, by stopping short of them."""
        undo, redo = self.ids.undo, self.ids.redo
        turned = round(holder.angle) == 180
        holder.pos = self.pos
        holder.size = (self.width, undo.y - _dp(8)) if turned else self.size
        holder.panel.history = 0 if turned else redo.right

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

    def header_text(self, view: TableView, chain: bool, named: bool, *_deps: Any) -> Sentence:
        """When the seat's name is shown beside it (its own panel lying flat, the pad's head in portrait),
        the hint does not repeat it."""
        if view.turn < 0:
            return Sentence("", {})
        if chain and view.top_player >= 0:
            return sentence(tr._("{name} plays again: pick a spice"), {"name": view.seats[view.top_player].name})
        if named:  # lying flat the title is not shown: the direction of play joins the hint
            hint = view.hint + (f"  \u00b7  {direction_words(view.direction)}" if self.lying and view.direction else "")
            return sentence("{hint}", {}, hint=hint)
        return sentence(tr._("{name} to play: {hint}"), {"name": view.seats[view.turn].name}, hint=view.hint)

    def title_text(self, view: TableView, *_deps: Any) -> str:
        """The profile's title (a table word) and, while a card in play can turn it, the direction of play."""
        title = tr._(view.title)
        return f"{title}  \u00b7  {direction_words(view.direction)}" if view.direction else title

    def count_draw_pile(self) -> None:
        """A tap on the draw pile opens the table's count of it (docs/RULES.md 6), where the World's End
        card showing is told too."""
        view = self.view
        if not view.has_end_card:
            App.get_running_app().notify(tr._("Five spices has no World's End card: the face-up pile is reshuffled"),
                                         ends_with=(view, TURN_MOVES))
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

    def show_phone_link(self) -> None:
        from companion.ui.widgets.phone_link import show_phone_link

        show_phone_link(self)

    def _layout(self, *_args: Any) -> None:
        if self.view is None or not self._slots:
            return
        w, h = self.size
        self.lying, self.portrait = w >= h and self.flat, w < h
        self.playing = self.view.seats[self.view.turn] if self.view.turn >= 0 else None
        row = self.ids.turn_row
        # lying flat the pad has no room for two rows of buttons and the hint: the buttons matter more
        self.head = _dp(64) if self.portrait else 0 if self.lying and row.lines > 1 else _dp(26)
        head = self.head + _dp(6) if self.head else 0
        self.ids.turn.padding = (_dp(10), _dp(8) + head, _dp(10), _dp(8) + row.height + _dp(6))
        self.ids.info.padding = (_dp(10), _dp(8))
        hub = self.ids.hub
        hub.spacing, self.ids.stack_card.size_hint_x = _dp(8), 0.42
        if self.lying:
            self._layout_flat(w, h)
        elif self.portrait:
            self._layout_portrait(w, h)
        else:
            self._layout_column(w, h)

    def _layout_column(self, w: float, h: float) -> None:
        """Standing, landscape: the bar across the top, the seats in a column on the left under it,
        everything else on the right."""
        m = _dp(8)
        bar = _dp(theme.ROUND_BUTTON) + m
        col = min(_dp(280), max(_dp(220), w * 0.3))
        n = len(self._slots)
        gap = _dp(6 if n < 6 else 4)
        row = min(_dp(96), (h - 2 * m - bar - (n - 1) * gap) / n)
        for i, slot in enumerate(self._slots):
            slot.angle = 0
            slot.size = (col, row)
            slot.pos = (m, h - m - bar - (i + 1) * row - i * gap)
        self._place_bar(m, w - m, h - m)
        middle = h - 2 * m - bar
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
        """Lying flat: each seat on its edge, turned to face it, and the hub between the edges. None of it
        depends on whose turn it is, so nothing the table reads moves as play goes round: only the turn
        (the pad, the hint and the buttons) turns, in a square at the hub's centre, to face the seat to play."""
        m, dock, corner = _dp(8), _dp(DOCK), _dp(theme.ROUND_BUTTON)
        edges = EDGES_BY_SEATS[len(self._slots)]
        by_edge: dict[str, list[Facing]] = {"bottom": [], "left": [], "top": [], "right": []}
        for slot, edge in zip(self._slots, edges, strict=True):
            slot.angle = EDGE_ANGLES[edge]
            by_edge[edge].append(slot)
        by_edge["bottom"].reverse()  # clockwise seen from above runs right to left along the bottom
        hub_l, hub_r = m + dock + m, w - m - dock - m
        hub_b, hub_t = m + dock + m, h - m - dock - m
        for edge in ("bottom", "top"):  # the long edges: the panels share what the side columns leave
            slots = by_edge[edge]
            x0, x1 = hub_l, hub_r
            if edge == "top":  # clear of undo and redo at the left, the menu (and the phone page's button) at the right
                right = (2 if self.ids.phone_link.shown else 1) * (corner + m)
                x0, x1 = max(x0, m + 2 * corner + 2 * m), min(x1, w - m - right)
            n = max(1, len(slots))
            length = min(_dp(PANEL_MOST), (x1 - x0 - (n - 1) * m) / n)
            start = min(max(x0, (w - n * length - (n - 1) * m) / 2), x1 - n * length - (n - 1) * m)  # centred if it can be
            for i, slot in enumerate(slots):
                slot.size = (length, dock)
                slot.pos = (start + i * (length + m), m if edge == "bottom" else h - m - dock)
        side_h = min(_dp(300), hub_t - hub_b)
        for edge, x in (("left", m), ("right", w - m - dock)):
            for slot in by_edge[edge]:
                slot.size = (dock, side_h)
                slot.pos = (x, (h - side_h) / 2)
        square = min(hub_t - hub_b, _dp(TURN_MOST))
        active = edges[max(self.view.turn, 0)]
        for slot in (self._pad_slot, self._info_slot):
            slot.angle, slot.size = EDGE_ANGLES[active], (square, square)
            slot.pos = ((w - square) / 2, (hub_b + hub_t - square) / 2)
            # A replay takes no claim, and its strip of controls leaves the square too small for the keys:
            # the square stays empty rather than spill; the strip says what was played.
            slot.opacity = 0 if self.replaying else 1
        self._place_bar(m, w - m, h - m)
        self.ids.title.opacity = 0
        # the stack card on one side of the square, the draw pile and the trophies on the other
        self.ids.hub.spacing, self.ids.stack_card.size_hint_x = square + 2 * m, 1
        self._place_hub(hub_l, hub_b, hub_r - hub_l, hub_t - hub_b)

    def _place_bar(self, x: float, right: float, top: float) -> None:
        """Undo and redo at the left, always one tap away; the menu at the right; their tops at ``top``."""
        ids = self.ids
        ids.undo.pos = (x, top - ids.undo.height)
        ids.redo.pos = (ids.undo.right + _dp(8), top - ids.redo.height)
        ids.menu.pos = (right - ids.menu.width, top - ids.menu.height)
        gap = _dp(8)
        ids.phone_link.pos = (ids.menu.x - gap - ids.phone_link.width, ids.menu.y)
        end = ids.phone_link.x if ids.phone_link.shown else ids.menu.x
        ids.title.opacity = 1
        ids.title.center = ((ids.redo.right + end) / 2, top - ids.menu.height / 2)
        self._title_box = (ids.redo.right + gap, top - ids.menu.height,
                           max(0.0, end - ids.redo.right - 2 * gap), ids.menu.height)
        if self._banner.parent is self._board:
            self._banner.pos, self._banner.size = self._title_box[:2], self._title_box[2:]

    def _place_banner(self, *_args: Any) -> None:
        """The last-card banner never covers the claim or the draw-pile count, which the table reads as it
        decides whether to challenge. Standing, it takes the title's place in the top bar (``_place_bar``).
        Lying flat, printed head to tail, it takes the top edge between redo and the menu when no seat sits
        there, else the place of the trophies (and the universal pile) beside the draw pile while it shows;
        so does a replay's, whose controls take the top bar."""
        view, tiles, banner, awards = self.view, self.ids.tiles.__self__, self._banner, self._awards
        in_hub = bool(view and view.last_card) and (self.replaying or (self.lying and not self._top_edge_free()))
        second = banner if in_hub else awards if awards.children else None  # beside the draw pile
        for widget in (banner, awards):
            if widget is not second and widget.parent is tiles:
                tiles.remove_widget(widget)
        if second is not None and second.parent is not tiles:
            if second.parent is not None:
                second.parent.remove_widget(second)
            second.size_hint = (1, 1)
            tiles.add_widget(second)
        if banner.parent is None:
            banner.size_hint = (None, None)
            banner.pos, banner.size = self._title_box[:2], self._title_box[2:]
            self._board.add_widget(banner)  # over the pad and the panels
        if self.lying and banner.parent is self._board:  # the top edge's depth: room for both sides
            x, y, width, height = self._title_box
            banner.pos, banner.size = (x, y + height - _dp(DOCK)), (width, _dp(DOCK))

    def _top_edge_free(self) -> bool:
        """Lying flat, no seat's panel sits on the top edge between redo and the menu."""
        x, y, width, height = self._title_box
        top = y + height
        return width > 0 and not any(
            slot.x < x + width and x < slot.right and slot.top > top - _dp(DOCK) for slot in self._slots)

    def _place_middle(self, x: float, y: float, w: float, h: float, pad_h: float) -> None:
        """Standing, the pad sits under the hub, framed by the hint above and the buttons below."""
        for slot in (self._pad_slot, self._info_slot):
            slot.angle, slot.pos, slot.size = 0, (x, y), (w, pad_h)
        self._place_hub(x, y + pad_h + _dp(8), w, h - pad_h - _dp(8))

    def _place_hub(self, x: float, y: float, w: float, h: float) -> None:
        ids = self.ids
        ids.hub.pos, ids.hub.size = (x, y), (w, h)
        self._place_banner()


def direction_words(direction: str) -> str:
    return tr._("counter-clockwise") if direction == "counter-clockwise" else tr._("clockwise")


def _dp(value: float) -> float:
    return float(dp(value))
