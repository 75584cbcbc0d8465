"""``yahtzee serve``: the server for online tables."""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import os
import socket
from typing import TYPE_CHECKING, Any

from ..core import InvalidInput
from ..core.language import N_, _

if TYPE_CHECKING:
    from ..service.cluster import Cluster
from ._io import add_database_option

MAX_PORT = 65535
SHOWN = 40
MIN_LEASE_S, MAX_LEASE_S = 0.5, 60.0
MAX_NODE_ID = 100
HEADER_TIMEOUT_S = 10.0
"""The default of --header-timeout (the web layer's `HEADER_TIMEOUT_S`: not imported here,
the server's modules load only when it starts)."""
MAX_HEADER_TIMEOUT_S = 600.0


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help=_("serve online tables for friends to play in their browsers"),
        description=(
            _(
                "Start the Yahtzee server (FastAPI + uvicorn) and print the URL to open. It "
                "answers only for the address it listens on (and localhost, 127.0.0.1 and [::1] "
                "when that is a loopback or every address): name the others players use with "
                "--allowed-host."
            )
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument(
        "--port", type=int, default=8000, help=_("port to listen on (default 8000)")
    )
    add_database_option(parser)
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS",
        help=_("pause before each bot action, so players see it (default 0.6; it ends on the "
        "server's next 50 ms beat, shared by every table)"),
    )  # fmt: skip
    parser.add_argument(
        "--header-timeout", type=float, default=HEADER_TIMEOUT_S, metavar="SECONDS",
        help=(
            "how long a client has to send a request's headers, whole, once it connects or "
            f"begins the request; a slower one is cut (default {HEADER_TIMEOUT_S:g})"
        ),
    )  # fmt: skip
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help=(
            _(
                "another address browsers reach this server by (repeatable): HOST[:PORT] for "
                "http (this server's port when none is given) or https://HOST[:PORT] behind a "
                "TLS proxy; pages and WebSockets from other origins are refused"
            )
        ),
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="ADDRS",
        help=(
            _(
                "comma-separated addresses (or networks) of reverse proxies whose "
                "X-Forwarded-For and X-Forwarded-Proto are trusted; by default nobody's, and "
                "each client is counted by the address it connects from"
            )
        ),
    )
    cluster = parser.add_argument_group(
        "several nodes",
        "run several servers (nodes) over one PostgreSQL database and one Redis server, "
        "behind a load balancer: see docs/deploy.md",
    )
    cluster.add_argument(
        "--redis-url",
        default=None,
        metavar="URL",
        help=_(
            "redis://HOST:PORT/DB joining this node to the others (needs a postgresql:// "
            "--database-url)"
        ),
    )
    cluster.add_argument(
        "--node-id",
        default=None,
        metavar="NAME",
        help=_("this node's name (default HOST:PORT:PID)"),
    )
    cluster.add_argument(
        "--node-address",
        default=None,
        metavar="HOST:PORT",
        help=_(
            "where the other nodes reach this one, to relay a table's connections to its "
            "owner (default: --host and --port; required when --host is 0.0.0.0 or ::)"
        ),
    )
    cluster.add_argument(
        "--lease-ttl",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_(
            "a node silent this long is taken for dead and its tables move to the "
            "others (default: 1.5 seconds, see docs/deploy.md)"
        ),
    )
    cluster.add_argument(
        "--redis-prefix",
        default=None,
        metavar="TEXT",
        help=_("prefix of this site's Redis keys (default yz:)"),
    )
    parser.set_defaults(run=run)


def _cluster(args: argparse.Namespace) -> Cluster | None:
    """The node's cluster from the options (None: a server alone)."""
    if args.redis_url is None:
        for name in ("node_id", "redis_prefix", "lease_ttl", "node_address"):
            if getattr(args, name) is not None:
                raise InvalidInput(
                    _("{option} needs --redis-url.").format(option="--" + name.replace("_", "-"))
                )
        return None
    from ..service.cluster.node import LEASE_TTL_S, PREFIX, RedisCluster  # noqa: PLC0415

    ttl = LEASE_TTL_S if args.lease_ttl is None else args.lease_ttl
    if not args.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise InvalidInput(_("--redis-url takes redis://HOST:PORT/DB (or rediss://, unix://)."))
    if not str(args.database_url or "").startswith("postgresql"):
        raise InvalidInput(
            _("Several nodes share a PostgreSQL database: give --database-url postgresql://...")
        )
    if not MIN_LEASE_S <= ttl <= MAX_LEASE_S:
        raise InvalidInput(
            _("--lease-ttl takes {low} to {high} seconds.").format(
                low=f"{MIN_LEASE_S:g}", high=f"{MAX_LEASE_S:g}"
            )
        )
    node = args.node_id or f"{socket.gethostname()}:{args.port}:{os.getpid()}"
    if not 0 < len(node) <= MAX_NODE_ID:
        raise InvalidInput(_("--node-id takes 1 to {most} characters.").format(most=MAX_NODE_ID))
    try:
        import redis  # noqa: F401, PLC0415
    except ImportError:
        raise InvalidInput(
            _("Several nodes need: pip install '.[web,cluster]' in the project's folder.")
        ) from None
    prefix = PREFIX if args.redis_prefix is None else args.redis_prefix
    if not 0 < len(prefix) <= MAX_NODE_ID:
        raise InvalidInput(
            _("--redis-prefix takes 1 to {most} characters.").format(most=MAX_NODE_ID)
        )
    return RedisCluster(
        args.redis_url, node, address=_node_address(args), prefix=prefix, lease_ttl=ttl
    )


def _node_address(args: argparse.Namespace) -> str:
    """Where the other nodes reach this one (``--node-address``, else HOST:PORT)."""
    text = args.node_address
    if text is None:
        if args.host in ("0.0.0.0", "::", ""):
            raise InvalidInput(
                _(
                    "A node listening on every address needs --node-address HOST:PORT, where "
                    "the other nodes reach it."
                )
            )
        host = f"[{args.host}]" if ":" in args.host else args.host
        return f"{host}:{args.port}"
    host, colon, port = str(text).rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) <= MAX_PORT:
        raise InvalidInput(_("--node-address takes HOST:PORT, e.g. 10.0.0.5:8000."))
    if len(text) > MAX_NODE_ID:
        raise InvalidInput(
            _("--node-address takes at most {most} characters.").format(most=MAX_NODE_ID)
        )
    return str(text)


def _proxies(text: str) -> str:
    """``--forwarded-allow-ips`` checked: addresses or networks, comma-separated, or *."""
    entries = [e.strip() for e in text.split(",") if e.strip()]
    if not entries:
        raise InvalidInput(_("--forwarded-allow-ips takes addresses, e.g. 127.0.0.1,10.0.0.0/8."))
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            shown = entry if len(entry) <= SHOWN else entry[:SHOWN] + "..."
            raise InvalidInput(
                _("--forwarded-allow-ips: {entry} is not an address or a network.").format(
                    entry=repr(shown)
                )
            ) from None
    return ",".join(entries)


def _check_reachable(database_url: str | None, cluster: Cluster | None) -> None:
    """Open the database (migrating it) and ping Redis before the server starts: one
    line when either is out of reach (inside the server's start it would be a traceback)."""
    from ..store import Store  # noqa: PLC0415

    with Store(database_url):
        pass
    if cluster is not None:
        cluster.check_reachable()


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address ``host`` names on ``port`` (as uvicorn binds them:
    address reuse on, IPv6 sockets for IPv6 only), for the server to listen on; one line
    (`InvalidInput`) when the name is unknown or an address cannot be had, before the
    server says where to open it."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    where = where if len(where) <= SHOWN else where[: SHOWN - 3] + "..."
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else _("not a host name")
        raise InvalidInput(
            _(
                "Cannot listen on {where}: no such address ({reason}); give --host an "
                "address of this machine, like 127.0.0.1 or 0.0.0.0."
            ).format(where=where, reason=reason)
        ) from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError as error:
        for sock in sockets:
            sock.close()
        hint = _(_BIND_HINTS[error.errno]) if error.errno in _BIND_HINTS else ""
        raise InvalidInput(
            _("Cannot listen on {where}: {reason}{hint}.").format(
                where=where, reason=error.strerror or error, hint=hint
            )
        ) from None
    return sockets


_BIND_HINTS = {
    errno.EADDRINUSE: N_(" (another server listens there: stop it, or choose another --port)"),
    errno.EACCES: N_(" (ports below 1024 need privileges: choose another --port)"),
    errno.EADDRNOTAVAIL: " (not an address of this machine: see --host)",
}


def run(args: argparse.Namespace) -> int:
    try:
        import icu  # noqa: F401, PLC0415  (names that look alike: store.names)
        import uvicorn  # noqa: PLC0415

        from ..web.app import create_app  # noqa: PLC0415
        from ..web.http_guard import guarded_http  # noqa: PLC0415
        from ..web.security import AllowedHosts  # noqa: PLC0415
        from ..web.serving import websocket_options  # noqa: PLC0415
    except ImportError:
        raise InvalidInput(
            _(
                "The server needs: pip install '.[web]' in the project's folder (its PyICU "
                "builds on the system's ICU: apt install libicu-dev pkg-config g++)."
            )
        ) from None
    if not 0 < args.port <= MAX_PORT:
        raise InvalidInput(_("--port takes a number from 1 to {most}.").format(most=MAX_PORT))
    if not 0 < args.header_timeout <= MAX_HEADER_TIMEOUT_S:
        raise InvalidInput(
            _("--header-timeout takes more than 0 and at most {most} seconds.").format(
                most=f"{MAX_HEADER_TIMEOUT_S:g}"
            )
        )
    try:
        allowed = AllowedHosts.for_server(args.host, args.port, args.allowed_host)
    except ValueError as error:
        raise InvalidInput(_("--allowed-host: {error}.").format(error=error)) from None
    proxies = _proxies(args.forwarded_allow_ips) if args.forwarded_allow_ips is not None else None
    cluster = _cluster(args)
    _check_reachable(args.database_url, cluster)
    app = create_app(
        args.database_url, bot_delay=max(0.0, args.bot_delay), allowed_hosts=allowed,
        cluster=cluster,
    )  # fmt: skip
    address = f"[{args.host}]" if ":" in args.host else args.host
    sockets = listen(args.host, args.port)  # before a word: a taken port is one line
    try:
        url = f"http://{address}:{args.port}/"
        print(_("Yahtzee server: open {url} (Ctrl+C stops it)").format(url=url), flush=True)
        print(_("It answers for {hosts}.").format(hosts=allowed), flush=True)
        if cluster is not None:
            print(
                _("Node {node} of the site at {url}.").format(
                    node=repr(cluster.node_id), url=args.redis_url
                ),
                flush=True,
            )
        config = uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level="warning",
            http=guarded_http(args.header_timeout),  # limits and a deadline uvicorn lacks
            **websocket_options(),  # uvicorn's protocol, its keepalive pings, limits
            proxy_headers=proxies is not None,  # uvicorn trusts 127.0.0.1 unless told
            forwarded_allow_ips=proxies or "",
            server_header=False,
        )
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: uvicorn has shut down
            uvicorn.Server(config).run(sockets=sockets)
    finally:
        for sock in sockets:
            sock.close()
    return 0
