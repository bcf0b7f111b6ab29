"""The appliance: the installer, the doctor, the display, systemd's watchdog, the logs, the sticks and their eject."""
