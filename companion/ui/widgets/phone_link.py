"""The phone page's address as a QR code: small on the home screen and in the table's menu, whole-screen
from either, or from the table's bar.

The address is ``Phones.url`` (``companion.ui.phones``); this only draws it. A
phone camera at arm's length reads the large one best, so the table's bar and
the small codes all open it with a tap.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from companion.ui.widgets import load_kv
from companion.ui.widgets.layer import Layer
from companion.ui.widgets.qr import QrCode


class PhoneLink(Layer):
    """Takes every touch while it shows: only its Close button does anything. It follows the address, and
    closes when the page stops."""

    url = StringProperty("")

    def show(self, parent: Widget) -> None:
        phones = App.get_running_app().phones
        self.url = phones.url
        phones.bind(url=self._follow)
        if self.parent is None:
            parent.add_widget(self)

    def close(self) -> None:
        App.get_running_app().phones.unbind(url=self._follow)
        if self.parent is not None:
            self.parent.remove_widget(self)

    def _follow(self, _phones: object, url: str) -> None:
        if url:
            self.url = url
        else:
            self.close()


class PhoneCode(ButtonBehavior, QrCode):
    """The address as a small code; a tap shows it whole-screen over the screen showing."""

    def on_release(self) -> None:
        show_phone_link(App.get_running_app().root.current_screen)


def show_phone_link(screen: Widget) -> PhoneLink:
    layer = PhoneLink()
    layer.show(screen)
    return layer


__all__ = ["PhoneCode", "PhoneLink", "show_phone_link"]
load_kv(__file__)
