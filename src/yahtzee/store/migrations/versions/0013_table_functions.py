"""PostgreSQL: a new table and a table's start as one function each, so that each is one
round trip to the server (one statement in autocommit) instead of three (a new table)
and ten (a start: the table locked and read, its seats read, the game, its players and
seats written, the table put in play, BEGIN and COMMIT). A server node makes and starts
a table for every game played: these statements were half of its CPU per new game.

The functions decide as `store.tables` does on SQLite (its docstrings): the quota counted
in the new table's transaction; the start only for a table still in the lobby with the
seats the starting node has, locked first. Nothing on SQLite.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# A new table: its row and its seats (one array per column), written only if its owner has
# fewer open tables than p_limit (none when NULL): in play, or in the lobby and changed
# since p_since. Returns whether it was written.
CREATE = """
CREATE OR REPLACE FUNCTION yahtzee_create_table(
    p_id varchar, p_rules varchar, p_hints boolean, p_timer int, p_invite varchar,
    p_spectator varchar, p_status varchar, p_game varchar, p_owner varchar,
    p_created timestamptz, p_sitting varchar, p_rematch varchar, p_dice varchar,
    p_seat int[], p_name varchar[], p_bot varchar[], p_token varchar[],
    p_limit int, p_since timestamptz, p_lobby varchar, p_playing varchar
) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF p_limit IS NOT NULL AND (
        SELECT count(*) FROM tables AS t
         WHERE t.owner = p_owner
           AND (t.status = p_playing
                OR (t.status = p_lobby AND coalesce(t.active_at, t.created_at) >= p_since))
    ) >= p_limit THEN
        RETURN false;
    END IF;
    INSERT INTO tables (id, rules, hints_allowed, turn_timer, invite_token, spectator_token,
                        status, game_id, owner, created_at, active_at, sitting, rematch, dice)
    VALUES (p_id, p_rules, p_hints, p_timer, p_invite, p_spectator, p_status, p_game,
            p_owner, p_created, p_created, p_sitting, p_rematch, p_dice);
    INSERT INTO table_seats (table_id, seat, name, bot, token_hash)
    SELECT p_id, s.seat, s.name, s.bot, s.token
      FROM unnest(p_seat, p_name, p_bot, p_token) AS s(seat, name, bot, token);
    RETURN true;
END
$$
"""

# A table's start: the table locked; if it is in the lobby (p_lobby) with exactly the seats
# expected (one array per column, in seat order), its game recorded (the row, new player
# names, the seats, its events so far, one array per column: a game not over) and the
# table put in play (p_playing). Returns 'started', 'changed' (nothing written: the caller
# reads the table again), or NULL for no such table.
START = """
CREATE OR REPLACE FUNCTION yahtzee_start_table(
    p_table varchar, p_seat int[], p_name varchar[], p_bot varchar[], p_token varchar[],
    p_game varchar, p_rules varchar, p_seed varchar, p_dice varchar, p_dice_seed varchar,
    p_active varchar, p_players varchar[], p_kinds varchar[], p_bots varchar[],
    p_types varchar[], p_data text[], p_stamp timestamptz, p_active_at timestamptz,
    p_lobby varchar, p_playing varchar
) RETURNS varchar
LANGUAGE plpgsql AS $$
DECLARE
    v_status varchar;
    v_sitting varchar;
BEGIN
    SELECT t.status, coalesce(nullif(t.sitting, ''), t.id) INTO v_status, v_sitting
      FROM tables AS t WHERE t.id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF v_status <> p_lobby OR NOT (
        SELECT coalesce(array_agg(s.seat ORDER BY s.seat), '{}') = p_seat
           AND coalesce(array_agg(s.name ORDER BY s.seat), '{}') IS NOT DISTINCT FROM p_name
           AND coalesce(array_agg(s.bot ORDER BY s.seat), '{}') IS NOT DISTINCT FROM p_bot
           AND coalesce(array_agg(s.token_hash ORDER BY s.seat), '{}')
               IS NOT DISTINCT FROM p_token
          FROM table_seats AS s WHERE s.table_id = p_table
    ) THEN
        RETURN 'changed';
    END IF;
    INSERT INTO games (id, rules, seed, status, created_at, updated_at, finished_at,
                       event_count, hints_used, sitting, dice, dice_seed)
    VALUES (p_game, p_rules, p_seed, p_active, p_stamp, p_stamp, NULL,
            cardinality(p_types), false, v_sitting, p_dice, p_dice_seed);
    INSERT INTO events (game_id, seq, type, data, created_at, intent)
    SELECT p_game, (e.n - 1)::int, e.type, e.data, p_stamp, NULL
      FROM unnest(p_types, p_data) WITH ORDINALITY AS e(type, data, n);
    -- a name new to the records (another game may record it at the same moment: the
    -- insert gives way, and the next statement sees the name committed)
    INSERT INTO players (name, created_at)
    SELECT DISTINCT n.name, p_stamp FROM unnest(p_players) AS n(name)
     WHERE NOT EXISTS (SELECT 1 FROM players AS p WHERE p.name = n.name)
    ON CONFLICT DO NOTHING;
    INSERT INTO seats (game_id, seat, player_id, kind, bot)
    SELECT p_game, (s.n - 1)::int, p.id, s.kind, s.bot
      FROM unnest(p_players, p_kinds, p_bots) WITH ORDINALITY AS s(name, kind, bot, n)
      JOIN players AS p ON p.name = s.name;
    UPDATE tables SET status = p_playing, game_id = p_game, active_at = p_active_at
     WHERE id = p_table;
    RETURN 'started';
END
$$
"""

SIGNATURES = (
    "yahtzee_create_table(varchar, varchar, boolean, int, varchar, varchar, varchar, varchar, "
    "varchar, timestamptz, varchar, varchar, varchar, int[], varchar[], varchar[], varchar[], "
    "int, timestamptz, varchar, varchar)",
    "yahtzee_start_table(varchar, int[], varchar[], varchar[], varchar[], varchar, varchar, "
    "varchar, varchar, varchar, varchar, varchar[], varchar[], varchar[], varchar[], text[], "
    "timestamptz, timestamptz, varchar, varchar)",
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CREATE)
        op.execute(START)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for signature in SIGNATURES:
            op.execute(f"DROP FUNCTION IF EXISTS {signature}")
