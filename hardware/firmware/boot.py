"""Spicy buzzer box: name the USB device, so the Pi's udev rule tells it from any other board.

MicroPython runs boot.py before USB starts and before main.py. The box keeps
MicroPython's own USB serial port (the line protocol and the REPL mpremote
uses); only the product string changes, from "Board in FS mode" to
``protocol.USB_PRODUCT``. ``machine.USBDevice`` is in MicroPython 1.23 and later
on the rp2 port; on an older one the box still works, but without its name
udev does not make ``/dev/spicy-buzzers`` (hardware/README.md).
"""

import machine

import protocol

PRODUCT_STRING = 2  # iProduct in MicroPython's built-in device descriptor (and TinyUSB's)

if hasattr(machine, "USBDevice"):
    usb = machine.USBDevice()
    usb.active(False)
    usb.builtin_driver = usb.BUILTIN_DEFAULT
    usb.config(
        usb.BUILTIN_DEFAULT.desc_dev,
        usb.BUILTIN_DEFAULT.desc_cfg,
        desc_strs={PRODUCT_STRING: protocol.USB_PRODUCT},
    )
    usb.active(True)
