"""PostgreSQL: the group commit as one function, so that a batch of moves is one round
trip to the server (one statement in autocommit: no BEGIN, no COMMIT) instead of four.

Each statement of a PL/pgSQL function sees what was committed before it began: the
intents are read after the games are locked, so a writer that waited for the lock sees
what the holder wrote (as the two statements did before). Nothing on SQLite.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# Arguments: the games to lock (every game of the batch); the games whose new events may
# be written, with the length of the log they extend (base) and reach (count); the games
# those events end, with their cards (JSON rows of ``cards``); the intents asked about;
# the events, one array per column; when. Returns, per locked game, the events its records
# held, and the sequence number of its intent if that was recorded before.
FUNCTION = """
CREATE OR REPLACE FUNCTION yahtzee_group_commit(
    p_lock varchar[], p_ids varchar[], p_bases int[], p_counts int[],
    p_ended varchar[], p_cards json, p_asked varchar[], p_intents varchar[],
    p_game varchar[], p_seq int[], p_type varchar[], p_data text[], p_intent varchar[],
    p_stamp timestamptz, p_finished varchar
) RETURNS TABLE (o_game varchar, o_stored int, o_earlier int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_ids varchar[];
    v_stored int[];
    v_earlier_ids varchar[];
    v_earlier_seq int[];
    v_fits varchar[];
BEGIN
    SELECT coalesce(array_agg(g.id ORDER BY g.id), '{}'),
           coalesce(array_agg(g.event_count ORDER BY g.id), '{}')
      INTO v_ids, v_stored
      FROM (SELECT id, event_count FROM games WHERE id = ANY(p_lock)
            ORDER BY id FOR UPDATE) AS g;
    SELECT coalesce(array_agg(e.game_id), '{}'), coalesce(array_agg(e.seq), '{}')
      INTO v_earlier_ids, v_earlier_seq
      FROM events AS e
      JOIN unnest(p_asked, p_intents) AS a(game_id, intent)
        ON e.game_id = a.game_id AND e.intent = a.intent;
    SELECT coalesce(array_agg(c.id), '{}') INTO v_fits
      FROM unnest(p_ids, p_bases) AS c(id, base)
      JOIN unnest(v_ids, v_stored) AS s(id, n) ON s.id = c.id
     WHERE s.n = c.base AND NOT (c.id = ANY(v_earlier_ids));
    IF cardinality(v_fits) > 0 THEN
        INSERT INTO events (game_id, seq, type, data, created_at, intent)
        SELECT e.game_id, e.seq, e.type, e.data, p_stamp, e.intent
          FROM unnest(p_game, p_seq, p_type, p_data, p_intent)
               AS e(game_id, seq, type, data, intent)
         WHERE e.game_id = ANY(v_fits);
        UPDATE games SET event_count = c.n, updated_at = p_stamp
          FROM unnest(p_ids, p_counts) AS c(id, n)
         WHERE games.id = c.id AND c.id = ANY(v_fits);
        IF cardinality(p_ended) > 0 THEN
            UPDATE games SET status = p_finished, finished_at = p_stamp
             WHERE games.id = ANY(p_ended) AND games.id = ANY(v_fits);
            INSERT INTO cards (game_id, seat, card, total, upper_subtotal, yahtzee_box,
                               yahtzee_bonus, place, winner, decisions, advisor_loss)
            SELECT c.game_id, c.seat, c.card, c.total, c.upper_subtotal, c.yahtzee_box,
                   c.yahtzee_bonus, c.place, c.winner, c.decisions, c.advisor_loss
              FROM json_populate_recordset(NULL::cards, p_cards) AS c
             WHERE c.game_id = ANY(p_ended) AND c.game_id = ANY(v_fits);
        END IF;
    END IF;
    RETURN QUERY
        SELECT s.id, s.n, x.seq
          FROM unnest(v_ids, v_stored) AS s(id, n)
          LEFT JOIN unnest(v_earlier_ids, v_earlier_seq) AS x(id, seq) ON x.id = s.id;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "DROP FUNCTION IF EXISTS yahtzee_group_commit(varchar[], varchar[], int[], int[], "
            "varchar[], json, varchar[], varchar[], varchar[], int[], varchar[], text[], "
            "varchar[], timestamptz, varchar)"
        )
