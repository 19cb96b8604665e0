"""The convention kiosk: attract loop, join, learn, staff menu and day statistics."""
