"""Printable renderings of games (no rule logic: everything comes from the core)."""
