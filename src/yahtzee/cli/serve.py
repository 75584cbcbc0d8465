"""``yahtzee serve``: the server for online tables."""

from __future__ import annotations

import argparse
from typing import Any

from ._io import add_database_option

MAX_PORT = 65535


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve online tables for friends to play in their browsers",
        description="Start the Yahtzee server (FastAPI + uvicorn) and print the URL to open.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000)
    add_database_option(parser)
    parser.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: PLC0415

        from ..web.app import create_app  # noqa: PLC0415
    except ImportError:
        from ..core import InvalidInput  # noqa: PLC0415

        raise InvalidInput("The server needs: pip install 'yahtzee[web]'.") from None
    if not 0 < args.port <= MAX_PORT:
        from ..core import InvalidInput  # noqa: PLC0415

        raise InvalidInput(f"--port takes a number from 1 to {MAX_PORT}.")
    app = create_app(args.database_url, bot_delay=max(0.0, args.bot_delay))
    print(f"Yahtzee server: open http://{args.host}:{args.port}/ (Ctrl+C stops it)", flush=True)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level="warning", ws_per_message_deflate=False
    )  # small JSON messages: compression costs more
    return 0
