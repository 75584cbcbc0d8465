""" "Your turn" notifications: a Web Push to a player's browsers when a turn passes to
them and they have no page open on that table.

The room tells the notifier whenever a person's seat is to move (`Notifier.to_move`, the
turn listener's seam). For a table where any seat belongs to an account, the turn (the
table and the game's event count, so the same on every node) is claimed in the records
(`store.push.claim_turn`): only the one claim that writes it goes on, so each turn is
notified at most once across the server's nodes. Its seat's account, unless it has a
page open on the table (`Presence`: a connection of that seat that is here, not away),
is then sent one notification on each of its subscriptions. A turn handed to a guest's
seat is claimed too (without a notification): a table's latest claim says whose turn it
is there, so that the games waiting for an account can be counted.

Notifications are gathered: when several games wait for the account, the one sent says
"Your turn in 3 games"; all carry the same ``tag``, so a later one replaces the earlier
one on the device rather than piling up.

Sending runs in a worker thread, after the room's call returned: the game never waits for
a push service. A subscription the push service says is gone (404, 410) is forgotten;
any other failure is logged and the game goes on.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

import urllib3

from ..core import InvalidInput
from ..core.language import _, ngettext, speaking
from ..store import Store
from ..store import push as records
from ..store.push import PushSubscription
from .presence import Presence
from .push import PushSubscriptions, VapidKey
from .push_address import PushTarget
from .push_sender import Push
from .push_sender import send as post
from .table import Table

TAG: Final = "yahtzee-your-turn"
"""Every notification's tag: a newer one replaces the one shown."""
HTTP_GONE: Final = (404, 410)
HTTP_OK_BELOW: Final = 300

log = logging.getLogger(__name__)

Sender = Callable[..., int]
"""`push_sender.send`'s shape (a stand-in in tests)."""


@dataclass(frozen=True, slots=True)
class Notification:
    """What the service worker shows: ``title`` and ``body``, opening ``url`` on a tap;
    ``count``: the games waiting for the player."""

    title: str
    body: str
    url: str
    tag: str
    count: int

    def payload(self) -> bytes:
        return json.dumps(asdict(self)).encode()


def table_page(table_id: str) -> str:
    """The page's address of a table (relative to the site)."""
    return f"/?table={table_id}"


def notification(table_id: str, others: Sequence[str | None], waiting: int) -> Notification:
    """The notification for a turn at ``table_id`` against ``others`` (a person's name, or
    None for a bot), ``waiting`` games waiting for the player (this one included), in the
    language in force."""
    url = table_page(table_id)
    named = [name or _("a bot") for name in others]
    if waiting > 1:
        title = ngettext("Your turn in {n} game", "Your turn in {n} games", waiting)
        return Notification(
            title.format(n=waiting), _("Your friends are waiting for your moves."), url,
            TAG, waiting,
        )  # fmt: skip
    if not named:
        body = _("It is your turn in your game.")
    elif len(named) == 1:
        body = _("It is your turn in your game against {name}.").format(name=named[0])
    else:
        # Translators: {names} are the other players but the last, joined by commas.
        body = _("It is your turn in your game against {names} and {last}.").format(
            names=", ".join(named[:-1]), last=named[-1]
        )
    return Notification(_("Your turn"), body, url, TAG, 1)


@dataclass(frozen=True, slots=True)
class Notified:
    """What one turn's notification did: pushes sent, subscriptions dropped (the push
    service said they are gone), pushes that failed."""

    sent: int = 0
    dropped: int = 0
    failed: int = 0


def account_of(table: Table, seat: int) -> str | None:
    """The account a seat belongs to (None: a guest's seat, or a bot's)."""
    return table.seats[seat].account


class Notifier:
    """Sends "your turn" notifications (see the module's notes)."""

    def __init__(
        self,
        store: Store,
        presence: Presence,
        key: VapidKey,
        subscriptions: PushSubscriptions,
        *,
        subject: str,
        sender: Sender = post,
    ) -> None:
        self.store = store
        self.presence = presence
        self.key = key
        self.subscriptions = subscriptions
        self.subject = subject
        self.sender = sender
        self._tasks: set[asyncio.Task[Any]] = set()

    async def to_move(self, table: Table, seat: int) -> None:
        """A person's ``seat`` is to move at ``table``: its account is notified in the
        background (nothing is done for a table without accounts)."""
        accounts = [account_of(table, s.seat) for s in table.seats]
        if table.live is None or not any(accounts) or not 0 <= seat < len(accounts):
            return
        turn = table.live.committed_seq  # the events recorded: the same on every node
        here = seat in self.presence.seats(table.id)
        others = [s.name for s in table.seats if s.seat != seat]
        self._background(self.notify(table.id, turn, accounts[seat], here=here, others=others))

    def _background(self, work: Coroutine[Any, Any, Notified]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a turn's notification failed", exc_info=task.exception())

    async def notify(
        self,
        table_id: str,
        turn: int,
        account: str | None,
        *,
        here: bool,
        others: Sequence[str | None],
    ) -> Notified:
        """Claim the table's turn for ``account`` and, if this call claimed it, the
        account is not ``here`` and has subscriptions, notify it on each."""
        claimed = await asyncio.to_thread(records.claim_turn, self.store, table_id, turn, account)
        if not claimed or account is None or here:
            return Notified()
        subscriptions = await self.subscriptions.of(account)
        if not subscriptions:
            return Notified()
        waiting = await asyncio.to_thread(records.waiting_tables, self.store, account)
        notes: dict[str, Push] = {}
        for language in {subscription.language for subscription in subscriptions}:
            # each browser's own language (that of its page when it subscribed), not the
            # language of the move that passed the turn
            with speaking(language):
                notes[language] = Push(notification(table_id, others, max(waiting, 1)).payload())
        return await asyncio.to_thread(self._deliver, subscriptions, notes)

    def _deliver(
        self, subscriptions: Sequence[PushSubscription], notes: dict[str, Push]
    ) -> Notified:
        """Send each subscription its language's note (blocking: in a worker thread)."""
        sent = dropped = failed = 0
        for subscription in subscriptions:
            status = self._send_one(subscription, notes[subscription.language])
            if status is None:
                failed += 1
            elif status in HTTP_GONE:
                records.drop_subscription(self.store, subscription.endpoint)
                dropped += 1
            elif status >= HTTP_OK_BELOW:
                log.warning("a push service answered %d", status)
                failed += 1
            else:
                sent += 1
        return Notified(sent, dropped, failed)

    def _send_one(self, subscription: PushSubscription, push: Push) -> int | None:
        """The push service's status, or None when it could not be reached."""
        try:
            target: PushTarget = self.subscriptions.target(subscription.endpoint)
        except InvalidInput as refusal:  # its host resolves elsewhere since it was kept
            log.warning("a push subscription was not used: %s", refusal)
            return None
        try:
            return self.sender(
                target, subscription, push, key=self.key.private_key, subject=self.subject
            )
        except (urllib3.exceptions.HTTPError, OSError) as error:
            log.warning("a push service could not be reached: %s", error)
            return None

    async def idle(self) -> None:
        """Wait for the notifications under way (tests; the server's end)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def close(self) -> None:
        """The server stops: the notifications under way are let go."""
        for task in self._tasks:
            task.cancel()


__all__ = [
    "TAG",
    "Notification",
    "Notified",
    "Notifier",
    "account_of",
    "notification",
    "table_page",
]
