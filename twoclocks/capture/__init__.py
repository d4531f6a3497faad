"""Capture from tool events: normalized events and the deterministic rules over them."""
