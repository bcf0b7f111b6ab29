"""Phones follow the game: a read-only page on the local network, live over Server-Sent Events.

``server`` serves the page and the stream (standard library only, its own
threads); ``address`` finds the LAN address and makes each game's token;
``switch`` is the root helper that opens the kiosk's network for it.
"""
