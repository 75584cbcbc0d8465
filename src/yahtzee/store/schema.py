"""The current schema (SQLAlchemy Core), as the migrations leave it.

The event log is the truth: ``events`` holds one row per game event, in order, written in
the same transaction as the game row it changes. ``cards`` are the finished scorecards,
derived from the events when a game ends, for fast statistics.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("rules", String(64), nullable=False),
    Column("seed", String(64), nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("event_count", Integer, nullable=False),
    Column("hints_used", Boolean, nullable=False),
    Column("selection", String(16), nullable=True),
    # the dice selected to keep, "<event count>:<a 0/1 flag per die>", e.g. "17:11110"
    # the sitting: the id of the sitting's first game, or for a table's game its table's
    # sitting (NULL never written; migration 0011 filled the rows older than it)
    Column("sitting", String(36), nullable=True),
    # where the dice came from: "rolled" by the program, or "entered" by the players
    Column("dice", String(8), nullable=False, server_default="rolled"),
    # the secret seed of committed dice (its commitment is in the start event): read only
    # through store.daily.revealed_dice_seed, once the game is over (a daily game's, once
    # its day is over)
    Column("dice_seed", String(64), nullable=True),
    # a game played on a device without the server and uploaded once over (migration 0020):
    # its dice cannot be checked, so it is never ranked (see `offline_games`)
    Column("offline", Boolean, nullable=False, server_default=false()),
    # the edition whose card the game is played on (`core.Edition`: its rules' edition,
    # kept so that statistics read each card by its own boxes; migration 0021)
    Column("edition", String(16), nullable=False, server_default="american"),
    Index("ix_games_sitting", "sitting", "created_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("hints_used", Boolean, nullable=False, server_default=false()),
    # the account whose seat this was (NULL: a guest's, or a bot's); set NULL when the
    # account is deleted (the game stays as it was played, under the seat's name)
    Column("account_id", String(36), nullable=True),
    Index("ix_seats_account", "account_id"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("type", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # "seat:id" of the intent that made this event (the first of its move), if it had one
    Column("intent", String(80), nullable=True),
    Index("ix_events_intent", "game_id", "intent", unique=True),
)

cards = Table(
    "cards",
    metadata,
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("card", Text, nullable=False),
    Column("total", Integer, nullable=False),
    Column("upper_subtotal", Integer, nullable=False),
    Column("yahtzee_box", Integer, nullable=True),
    Column("yahtzee_bonus", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("winner", Boolean, nullable=False),
    Column("decisions", Integer, nullable=True),
    Column("advisor_loss", Float, nullable=True),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("rules", String(64), nullable=False),
    Column("hints_allowed", Boolean, nullable=False),
    Column("turn_timer", Integer, nullable=True),
    Column("invite_token", String(64), nullable=False, unique=True),
    Column("spectator_token", String(64), nullable=False, unique=True),
    Column("status", String(16), nullable=False),
    Column("game_id", String(36), ForeignKey("games.id"), nullable=True),
    Column("owner", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # the last change (created, a seat taken or handed to a bot, started, finished, ended);
    # NULL in rows older than migration 0006: created_at stands in
    Column("active_at", DateTime(timezone=True), nullable=True),
    # the sitting: the table's own id, or for a rematch the sitting of the table it follows
    # (NULL never written; rows older than migration 0009 were given their own id by it)
    Column("sitting", String(36), nullable=True),
    # the id of the table made as this one's rematch (NULL until a player asks for it; set
    # once, by a compare-and-set: not a foreign key, it is set before that table is written)
    Column("rematch", String(36), nullable=True),
    # the dice of the table's games: "rolled" by the program, or "entered" by the players
    Column("dice", String(8), nullable=False, server_default="rolled"),
    # turn-by-turn tables (migration 0017): when a move's time runs out, "bot" (a bot of
    # timeout_level plays that turn) or "out" (the same, and after timeout_missed missed
    # turns in a row the seat is out: a bot of that level plays it on)
    Column("timeout_rule", String(8), nullable=False, server_default="bot"),
    Column("timeout_level", Integer, nullable=False, server_default="3"),
    Column("timeout_missed", Integer, nullable=False, server_default="3"),
    # the decision's deadline at a turn-by-turn table in play (NULL otherwise): the sweep
    # applies the timeout rule to every table whose deadline passed, loaded or not
    Column("deadline", DateTime(timezone=True), nullable=True),
    # the seat to move at a table in play (migration 0019), written with each move that
    # passes the turn ("my games" reads it, no replay); NULL at a table in play until the
    # first such move (seat 0 is to move: every game starts with it), and at every table
    # not in play
    Column("to_move", Integer, nullable=True),
    Index("ix_tables_owner_status", "owner", "status"),
    Index("ix_tables_sitting", "sitting"),
    Index("ix_tables_deadline", "deadline"),
    Index("ix_tables_game", "game_id"),
)

chat_lines = Table(
    "chat_lines",
    metadata,
    Column("table_id", String(36), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    # the line's place in the table's chat: 1, 2, ... (older lines are pruned, never renumbered)
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(40), nullable=True),  # the seat's name as shown when it was said
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

table_seats = Table(
    "table_seats",
    metadata,
    Column("table_id", String(36), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
    # missed turns in a row (the move's time ran out; back to 0 when the player moves),
    # and whether the seat is out for it (a turn-by-turn table's rule "out")
    Column("missed", Integer, nullable=False, server_default="0"),
    Column("out", Boolean, nullable=False, server_default=false()),
    # the signed-in player's account (NULL: a guest, a bot or an open seat)
    Column("account_id", String(36), nullable=True),
    Index("ix_table_seats_account", "account_id"),
)

daily_seeds = Table(
    "daily_seeds",
    metadata,
    Column("day", String(10), primary_key=True),  # the UTC date, "2026-12-02"
    Column("seed", String(64), nullable=False),  # secret until the day is over
    Column("commitment", String(64), nullable=False),  # SHA-256 of the seed, shown ahead
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("best", Integer, nullable=True),  # optimal play's score on the day's dice
)

daily_results = Table(
    "daily_results",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column(
        "game_id",
        String(36),
        ForeignKey("games.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("score", Integer, nullable=True),  # NULL while the game is played
    Column("loss", Float, nullable=True),  # points lost to the best choices (the advisor)
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # the person: the name's look-alike key (`names.look_alike_key`), one attempt a day
    # each; NULL only in a row older than migration 0014 that repeated a person's attempt
    # of its day under another spelling (its result kept, no longer anyone's attempt)
    Column("player_key", Text, nullable=True),
    Index("ix_daily_results_person", "day", "player_key", unique=True),
)

# Accounts (migration 0016) ---------------------------------------------------------------

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("name", String(40), nullable=False),  # as its owner typed it
    # the name's look-alike key (`names.look_alike_key`): two accounts never look alike
    Column("name_key", Text, nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),  # argon2id (NULL: passkeys only)
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def _account_id() -> Column[str]:
    return Column(
        "account_id", String(36), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    )


account_sessions = Table(
    "account_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret
    _account_id(),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("agent", String(200), nullable=True),  # the browser's User-Agent, cut short
    Index("ix_account_sessions_account", "account_id"),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url, as WebAuthn gives it
    _account_id(),
    Column("public_key", Text, nullable=False),  # COSE key, base64url
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(200), nullable=True),  # comma-separated hints
    Column("label", String(60), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
    Index("ix_passkeys_account", "account_id"),
)

recovery_codes = Table(
    "recovery_codes",
    metadata,
    _account_id(),
    Column("code_hash", String(64), nullable=False),  # SHA-256 of the code (high entropy)
    PrimaryKeyConstraint("account_id", "code_hash"),
)

webauthn_challenges = Table(
    "webauthn_challenges",
    metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the ceremony's id
    Column("challenge", String(200), nullable=False),  # base64url
    Column("purpose", String(16), nullable=False),  # "register", "add" or "sign_in"
    Column("account_id", String(36), nullable=True),  # the account a passkey is added to
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_webauthn_challenges_expires", "expires_at"),
)

sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("key", String(120), primary_key=True),  # "account:<id>" or "address:<ip>"
    Column("failures", Integer, nullable=False),  # in a row, since the last success
    Column("last_at", DateTime(timezone=True), nullable=False),
)

# Web Push (migration 0018) ---------------------------------------------------------------

push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    # SHA-256 of the endpoint (hex): one row per browser's subscription, whoever holds it
    Column("endpoint_hash", String(64), primary_key=True),
    Column("account_id", String(36), nullable=False),
    Column("endpoint", Text, nullable=False),  # the push service's https URL
    Column("p256dh", Text, nullable=False),  # the browser's P-256 public key (base64url)
    Column("auth", Text, nullable=False),  # the browser's 16-byte auth secret (base64url)
    Column("created_at", DateTime(timezone=True), nullable=False),
    # the language of the page that subscribed: its notifications speak it (migration 0022)
    Column("language", String(8), nullable=False, server_default="en"),
    Index("ix_push_subscriptions_account", "account_id"),
)

push_sent = Table(
    "push_sent",
    metadata,
    # a turn handed to an account's seat, claimed once (INSERT .. ON CONFLICT DO NOTHING):
    # the node whose insert wrote the row notifies; a table keeps only its latest turn
    Column("table_id", String(36), primary_key=True),
    Column("turn", Integer, primary_key=True),  # the game's event count at that turn
    # the seat's account (NULL: a guest's seat, whose turn is claimed all the same: the
    # table's latest turn says whose turn it is)
    Column("account_id", String(36), nullable=True),
    Column("sent_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_sent_account", "account_id"),
)

# Offline games (migration 0020) ----------------------------------------------------------

offline_games = Table(
    "offline_games",
    metadata,
    # the uploading account and the id its device gave the game: one kept game per pair
    _account_id(),
    Column("client_id", String(36), nullable=False),
    Column(
        "game_id",
        String(36),
        ForeignKey("games.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    # SHA-256 of the upload's game (rules, seats, the account's seat, events): the same id
    # with another game is refused
    Column("digest", String(64), nullable=False),
    Column("uploaded_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("account_id", "client_id"),
)

settings = Table(
    "settings",
    metadata,
    Column("name", String(64), primary_key=True),  # "vapid_private_key"
    Column("value", Text, nullable=False),
)
