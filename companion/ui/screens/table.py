"""The table: a panel per seat round the edges, the stack, draw pile and trophies in the hub,
and the claim pad for the seat to play. Sheets (challenge, reveal, result) cover it while
a challenge is settled; the end screen follows the last action.

The screen is thin: ``TableView`` holds the game and ``companion.table.layout`` says where each part
goes (standing: a column or grid, all upright; lying flat: each seat on its edge, turned to face it);
this module applies that layout and routes keys, long presses and sounds.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Fbo
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.buzzers import KeyboardBuzzers
from companion.rules import Setup
from companion.table.seating import Seating
from companion.table.session import Preview, Session
from companion.table.layout import Measures, TableLayout, table_layout
from companion.ui import theme
from companion.ui.i18n import tr
from companion.ui.widgets.mirror import mirrored
from companion.ui.screens.challenge import ChallengeSheet
from companion.ui.screens.draw_pile import DrawPileSheet
from companion.ui.screens.result import ResultSheet
from companion.ui.screens.reveal import RevealSheet
from companion.ui.view import TableView
from companion.ui.widgets import load_kv
from companion.ui.widgets.fit import needed_width
from companion.ui.widgets.layer import Layer
from companion.ui.widgets.seat_panel import Facing, SeatPanel, prepare_looks
from companion.ui.words import Sentence, sentence

load_kv(__file__)

TURN_FONT_LEAST = 14
"""The smallest a turn button's words are drawn (sp) before the buttons take a second row."""
TURN_ROWS_MOST = 2
"""Lying flat, the pad's keys keep 48 dp beside two rows of turn buttons, not three."""

TURN_MOVES = ("moment",)
"""A toast from the table ends as the turn moves on (``TableView.moment``), and with the game."""


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


class TableMenu(Layer):
    """The table's menu: "How to play" on the game at hand, or home, and while phones can follow the game, the
    page's code (a tap shows it whole-screen). It takes every touch while it shows, and a tap beside its buttons
    closes it, changing nothing.

    The code is not on the table itself: at 800x480 on a 7" screen every part of it is taken, and a code that
    fitted beside them (2 cm) would scan from 20 cm, not from a seat; whole-screen it is as big as the screen
    allows."""

    screen = ObjectProperty(None)
    anchor = ListProperty([0, 0])
    """Where its top right corner goes: under the menu button (at the screen's left edge when that is nearer)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._code_box: Widget = self.ids.phones.__self__
        """The code and its caption, kept while out of the menu (``ids`` holds only a weak reference)."""
        self.screen.bind(phone_url=self._phones)
        self._phones(self.screen, self.screen.phone_url)

    def _phones(self, _screen: object, url: str) -> None:
        choices, phones = self.ids.choices, self._code_box
        if url and phones.parent is None:
            choices.add_widget(phones)
        elif not url and phones.parent is not None:
            choices.remove_widget(phones)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.ids.choices.collide_point(*touch.pos):
            self.screen.close_menu()
            return True
        return super().on_touch_down(touch)


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
        self._menu: TableMenu | None = None
        """The menu, made on its first tap."""
        self._sheet_turned = False
        self._laid_out: TableLayout | None = None
        """The layout last applied (``_layout``)."""
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
        """Held here too: lying flat, it moves into the hub (``_place_beside``)."""
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
        self.ids.undo.bind(size=self._layout)  # a pill in portrait: redo goes beside it
        self.ids.phone_link.bind(size=self._layout)  # the phone page's button, shown, takes room from the title
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
        self.close_menu()

    def on_touch_down(self, touch: Any) -> bool:
        if self.replaying:
            return bool(self.collide_point(*touch.pos))  # read-only: a replay's table takes no tap
        return bool(super().on_touch_down(touch))

    # --- opening a game ---------------------------------------------------------------

    def open(self, session: Session) -> None:
        self._close_view()  # before the new view takes the referee's reports
        self._show(TableView(session, App.get_running_app().referee))

    def ahead(self, setup: Setup, seating: Seating) -> None:
        """While the table deals (set-up's last step): the table of this set-up, on its deal not yet saved
        (``Preview``), laid out at the screen's size and drawn once off screen (``prepare``). "Start the game"
        opens the real game on it, so that only what differs is made or drawn then: whatever changed since (a
        seat, the rules, the language, the window's size) is set as for any new game (docs/PERFORMANCE.md)."""
        if self.manager is None or self.manager.current == self.name:
            return  # never under a table on show
        self.manager.fit(self)
        self._close_view()
        self._show(TableView(Preview(setup, seating)))
        Clock.schedule_once(lambda _dt: self.prepare())

    def replay(self, view: TableView) -> None:
        """A saved game read-only (its view over a ``companion.table.replay.Replay``): no sheet opens over it,
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
            on_call=lambda _v, text: app.speak(text),
            buzz=self._show_sheet, pending=self._show_sheet, result=self._show_sheet, ended=self._show_sheet,
        )
        self.view = view
        for sheet in self._sheets.values():
            sheet.view = view
        self._show_tiles(view)
        view.bind(turn=self._layout)  # lying flat, the pad moves to the seat to play
        view.bind(last_card=self._layout)  # lying flat, the banner may take the trophies' place
        self.flat = app.face_seats
        app.bind(face_seats=self.setter("flat"))
        self._build_seats()
        self._show_sheet()

    def _show_tiles(self, view: TableView) -> None:
        """The hub's tiles the game has: five-spices has no trophies, only Sweet & Spicy a universal pile,
        and without either the draw pile has the hub to itself (``_place_beside``)."""
        awards = self._awards
        for tile, shown, on_top in ((self._universal_pile, view.has_universals, False),
                                    (self._trophies, bool(view.trophies_total), True)):
            if shown and tile.parent is None:
                awards.add_widget(tile, index=len(awards.children) if on_top else 0)
            elif not shown and tile.parent is not None:
                awards.remove_widget(tile)

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
            self.close_menu()  # a challenge taken while the menu is open: the sheet is what the table needs
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
        it, and the seats' looks made (a buzz's, a winner's); on the next frame, each sheet drawn once off
        screen (and the table, when it is built ahead of its game)."""
        for holder in self._holders.values():
            if holder is not self._sheet_holder:
                self._fit(holder)
        if self.sheet_name != "challenge":  # a game resumed on its challenge shows the real one
            self._sheets["challenge"].stand_in(True)
        prepare_looks()
        Clock.schedule_once(self._draw_ahead)

    def _draw_ahead(self, _dt: float) -> None:
        """Kivy readies a canvas's instructions the first time it is drawn: into a one-pixel Fbo, that
        work is done here and not on the frame a sheet first shows."""
        fbo = Fbo(size=(1, 1))
        off_screen = [holder for holder in self._holders.values() if holder is not self._sheet_holder]
        if self.parent is None:  # built ahead: the table is not on screen yet either
            off_screen.append(self)
        for widget in off_screen:
            fbo.add(widget.canvas)
            fbo.draw()
            fbo.remove(widget.canvas)
        self._sheets["challenge"].stand_in(False)

    def _fit_sheet(self, *_args: Any) -> None:
        if self._sheet_holder is not None:
            self._fit(self._sheet_holder)

    def _fit(self, holder: Facing) -> None:
        """The sheet takes the screen, and leaves the table's undo and redo their place: at its top left (top
        right in a right-to-left language), or, turned to the far edge, by stopping short of them."""
        undo, redo = self.ids.undo, self.ids.redo
        turned = round(holder.angle) == 180
        holder.pos = self.pos
        holder.size = (self.width, undo.y - _dp(8)) if turned else self.size
        holder.panel.history = 0 if turned else self.right - redo.x if mirrored() else redo.right

    def _on_top_edge(self, seat: int | None) -> bool:
        """Lying flat, a sheet faces the challenger: turned over for a seat on the top edge."""
        laid_out = self._laid_out
        return seat is not None and laid_out is not None and laid_out.lying and laid_out.seats[seat].edge == "top"

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
            direction = f"  \u00b7  {direction_words(view.direction)}" if self.lying and view.direction else ""
            return sentence("{hint}{direction}", {}, hint=view.hint, direction=direction)
        return sentence(tr._("{name} to play: {hint}"), {"name": view.seats[view.turn].name}, hint=view.hint)

    def title_text(self, view: TableView, *_deps: Any) -> str:
        """The profile's title (a table word) and, while a card in play can turn it, the direction of play."""
        title = tr._(view.title)
        return f"{title}  \u00b7  {direction_words(view.direction)}" if view.direction else title

    # --- the menu ----------------------------------------------------------------------------

    def open_menu(self) -> None:
        menu = self._menu
        if menu is None:
            import companion.ui.widgets.phone_link  # noqa: F401 - the menu's PhoneCode, not for the first frame

            menu = self._menu = TableMenu(screen=self)
        menu.anchor = [self.ids.menu.right, self.ids.menu.y - _dp(theme.GAP)]
        if menu.parent is None:
            self.add_widget(menu)

    def close_menu(self) -> None:
        if self._menu is not None and self._menu.parent is not None:
            self.remove_widget(self._menu)

    def how_to_play(self) -> None:
        """"How to play" on this game's page, starting on the situation now; its Back shows this table again,
        exactly as it is (nothing here changes while it shows)."""
        self.close_menu()
        app = App.get_running_app()
        app.screen("howto").open(self.name, self.view.session.state if self.view is not None else None)
        app.show("howto")

    def go_home(self) -> None:
        self.close_menu()
        App.get_running_app().root.current = "home"

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

    # --- placing the parts -------------------------------------------------------------------

    def _lift(self, widget: Widget) -> Facing:
        """``widget`` taken off the board into a slot that can turn it."""
        widget = widget.__self__
        self._board.remove_widget(widget)
        widget.size_hint = (1, 1)
        return Facing(widget, size_hint=(None, None))

    def laid_out(self) -> TableLayout:
        """The table's layout (``companion.table.layout``) for what the screen shows and measures now."""
        view, ids, row = self.view, self.ids, self.ids.turn_row
        measures = Measures(dp=_dp(1), history=tuple(ids.undo.size), menu=tuple(ids.menu.size),
                            title=tuple(ids.title.size), tab_rise=_dp(theme.TAB_RISE), turn_rows=row.lines,
                            turn_row_height=row.height,
                            phone_link=tuple(ids.phone_link.size) if ids.phone_link.shown else None)
        return table_layout(tuple(self.size), len(view.seats), flat=self.flat, turn=view.turn, measures=measures,
                            last_card=bool(view.last_card), awards=bool(self._awards.children),
                            replaying=self.replaying, mirrored=mirrored())

    def show_phone_link(self) -> None:
        from companion.ui.widgets.phone_link import show_phone_link

        show_phone_link(self)

    def follow_direction(self) -> None:
        """The language changed: the table mirrors, or stops mirroring (``companion.table.layout.mirror``)."""
        self._layout()

    def _layout(self, *_args: Any) -> None:
        view = self.view
        if view is None or not self._slots:
            return
        table = self._laid_out = self.laid_out()
        ids = self.ids
        self.lying, self.portrait, self.head = table.lying, table.portrait, table.head
        self.playing = view.seats[view.turn] if view.turn >= 0 else None
        for slot, seat in zip(self._slots, table.seats, strict=True):
            slot.angle = seat.angle
            _place(slot, seat.rect)
        for slot in (self._pad_slot, self._info_slot):
            slot.angle = table.turn.angle
            _place(slot, table.turn.rect)
            slot.opacity = 1 if table.turn_shown else 0  # lying flat, a replay's strip says what was played
        ids.turn.padding = table.turn_padding
        for widget, rect in ((ids.undo, table.undo), (ids.redo, table.redo), (ids.menu, table.menu),
                             (ids.hub, table.hub), (ids.stack_card, table.stack_card), (ids.tiles, table.tiles),
                             (ids.draw_pile, table.draw_pile)):
            _place(widget, rect)
        ids.title.pos = table.title[:2]
        ids.title.opacity = 1 if table.title_shown else 0
        if table.phone_link is not None:
            ids.phone_link.pos = table.phone_link[:2]
        self._place_beside(table)

    def _place_beside(self, table: TableLayout) -> None:
        """The last-card banner never covers the claim or the draw-pile count, which the table reads as it
        decides whether to challenge. Standing, it takes the title's place in the top bar. Lying flat, printed
        head to tail, it takes the top edge between redo and the menu when no seat sits there, else the place
        of the trophies (and the universal pile) beside the draw pile while it shows; so does a replay's,
        whose controls take the top bar."""
        tiles, banner, awards = self.ids.tiles.__self__, self._banner, self._awards
        beside = banner if table.banner_in_hub else awards if awards.children else None
        for widget in (banner, awards):
            if widget is not beside and widget.parent is tiles:
                tiles.remove_widget(widget)
        if beside is not None and beside.parent is not tiles:
            if beside.parent is not None:
                beside.parent.remove_widget(beside)
            tiles.add_widget(beside)
        if banner.parent is None:
            self._board.add_widget(banner)  # over the pad and the panels
        if table.beside is not None and beside is not None:
            _place(beside, table.beside)
        _place(banner, table.banner)


def direction_words(direction: str) -> str:
    return tr._("counter-clockwise") if direction == "counter-clockwise" else tr._("clockwise")


def _dp(value: float) -> float:
    return float(dp(value))


def _place(widget: Widget, rect: tuple[float, float, float, float]) -> None:
    widget.pos, widget.size = rect[:2], rect[2:]
