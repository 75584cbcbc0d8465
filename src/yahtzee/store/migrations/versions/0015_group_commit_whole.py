"""PostgreSQL: the group commit's function writes nothing when a game of its batch is not
in the records, as the Python decision (`store.commit.decide`) refuses such a batch before
it writes. Before, the function wrote the batch's other games and the caller then refused
the batch: the games written were answered as not saved (tests/store/test_sql_decisions.py
holds the function to the Python decision, case by case). Nothing on SQLite.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import importlib

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

# As migration 0008's, with one step more after the games are locked: when fewer games
# were found than the batch names, the games found are answered (no intent: nothing was
# looked up) and nothing is written.
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
    IF cardinality(v_ids) < (SELECT count(DISTINCT l.id) FROM unnest(p_lock) AS l(id)) THEN
        RETURN QUERY
            SELECT s.id, s.n, NULL::int FROM unnest(v_ids, v_stored) AS s(id, n);
        RETURN;
    END IF;
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
        before = importlib.import_module(
            "yahtzee.store.migrations.versions.0008_group_commit_function"
        )
        op.execute(before.FUNCTION)
