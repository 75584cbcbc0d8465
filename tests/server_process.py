"""``yahtzee serve`` as its own process on 127.0.0.1, for tests that need a real server
(`benchmarks.parts.ServerProcess`, which the cluster benchmark starts too)."""

from __future__ import annotations

from benchmarks.parts import ROOT, SERVE_TIMEOUT, ServerProcess, free_port

START_TIMEOUT = SERVE_TIMEOUT
"""A cold solver cache takes about 30 s before the server answers; this is generous."""

__all__ = ["ROOT", "START_TIMEOUT", "ServerProcess", "free_port"]
