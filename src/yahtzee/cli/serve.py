"""``yahtzee serve``: the server for online tables."""

from __future__ import annotations

import argparse
import ipaddress
from typing import Any

from ..core import InvalidInput
from ._io import add_database_option

MAX_PORT = 65535
SHOWN = 40


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve online tables for friends to play in their browsers",
        description=(
            "Start the Yahtzee server (FastAPI + uvicorn) and print the URL to open. It "
            "answers only for the address it listens on (and localhost, 127.0.0.1 and [::1] "
            "when that is a loopback or every address): name the others players use with "
            "--allowed-host."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000)
    add_database_option(parser)
    parser.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS")
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help=(
            "another address browsers reach this server by (repeatable): HOST[:PORT] for "
            "http (this server's port when none is given) or https://HOST[:PORT] behind a "
            "TLS proxy; pages and WebSockets from other origins are refused"
        ),
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="ADDRS",
        help=(
            "comma-separated addresses (or networks) of reverse proxies whose "
            "X-Forwarded-For and X-Forwarded-Proto are trusted; by default nobody's, and "
            "each client is counted by the address it connects from"
        ),
    )
    parser.set_defaults(run=run)


def _proxies(text: str) -> str:
    """``--forwarded-allow-ips`` checked: addresses or networks, comma-separated, or *."""
    entries = [e.strip() for e in text.split(",") if e.strip()]
    if not entries:
        raise InvalidInput("--forwarded-allow-ips takes addresses, e.g. 127.0.0.1,10.0.0.0/8.")
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            shown = entry if len(entry) <= SHOWN else entry[:SHOWN] + "..."
            raise InvalidInput(
                f"--forwarded-allow-ips: {shown!r} is not an address or a network."
            ) from None
    return ",".join(entries)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: PLC0415

        from ..web.app import create_app  # noqa: PLC0415
        from ..web.protocol import MAX_MESSAGE_BYTES  # noqa: PLC0415
        from ..web.security import AllowedHosts  # noqa: PLC0415
    except ImportError:
        raise InvalidInput("The server needs: pip install 'yahtzee[web]'.") from None
    if not 0 < args.port <= MAX_PORT:
        raise InvalidInput(f"--port takes a number from 1 to {MAX_PORT}.")
    try:
        allowed = AllowedHosts.for_server(args.host, args.port, args.allowed_host)
    except ValueError as error:
        raise InvalidInput(f"--allowed-host: {error}.") from None
    proxies = _proxies(args.forwarded_allow_ips) if args.forwarded_allow_ips is not None else None
    app = create_app(args.database_url, bot_delay=max(0.0, args.bot_delay), allowed_hosts=allowed)
    print(f"Yahtzee server: open http://{args.host}:{args.port}/ (Ctrl+C stops it)", flush=True)
    print(f"It answers for {allowed}.", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,  # small JSON messages: compression costs more
        ws_max_size=MAX_MESSAGE_BYTES,  # a bigger frame closes the connection unread
        proxy_headers=proxies is not None,  # uvicorn trusts 127.0.0.1 unless told
        forwarded_allow_ips=proxies or "",
        server_header=False,
    )
    return 0
