// The statements of a fleet run's journal (pg-run-journal.ts): each write is one statement, one
// round trip, fenced by the attempt's ownership of the run. Each is a prepared statement (the
// `pg` driver parses and plans it once per connection).
import { prepared } from '../prepared-statements.js';

/** Channel every events write notifies (payload: the run id). */
export const EVENTS_CHANNEL = 'a3s_fleet_events';

/**
 * The lease check of a step or events write: the run row locked while this attempt owns it; an
 * UPDATE (its own lock and re-check) when the attempt's base snapshot rides along as `param`.
 */
function ownerSql(base: string | null, param: string): string {
  return base === null
    ? "SELECT run_id FROM a3s_fleet_runs WHERE run_id = $1 AND attempts = $2 AND status = 'running' FOR UPDATE"
    : `UPDATE a3s_fleet_runs SET base_snapshot = ${param} WHERE run_id = $1 AND attempts = $2 AND status = 'running' RETURNING run_id`;
}

/**
 * A step: the lease check (the run row, locked), the pending events ($3), the step ($4 key, $5
 * kind, $6 value) numbered after the run's last one, the readers' notification; $7 the base snapshot.
 */
function stepSql(base: string | null): string {
  return `WITH owner AS (${ownerSql(base, '$7')}), ev AS (
               INSERT INTO a3s_fleet_events (run_id, seq, event, attempt)
               SELECT $1, e.seq, e.event, $2 FROM owner, jsonb_to_recordset($3::jsonb) AS e(seq integer, event jsonb)
               RETURNING seq
             ), st AS (
               INSERT INTO a3s_fleet_steps (run_id, step, key, kind, value, attempt)
               SELECT $1, (SELECT coalesce(max(step), 0) + 1 FROM a3s_fleet_steps WHERE run_id = $1), $4, $5, $6::jsonb, $2 FROM owner
               RETURNING step
             )
             SELECT (SELECT count(*) FROM owner)::int AS owned,
                    CASE WHEN (SELECT count(*) FROM ev) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1) END AS notified`;
}

/**
 * Two steps in one write (an idempotent call's start and its outcome: $4-$6 and $7-$9), numbered
 * in that order after the run's last one, fenced and carrying the pending events like a step; $10
 * the base snapshot.
 */
function twoStepsSql(base: string | null): string {
  return `WITH owner AS (${ownerSql(base, '$10')}), ev AS (
               INSERT INTO a3s_fleet_events (run_id, seq, event, attempt)
               SELECT $1, e.seq, e.event, $2 FROM owner, jsonb_to_recordset($3::jsonb) AS e(seq integer, event jsonb)
               RETURNING seq
             ), st AS (
               INSERT INTO a3s_fleet_steps (run_id, step, key, kind, value, attempt)
               SELECT $1, last.n + v.o, v.key, v.kind, v.value, $2
                 FROM owner, (SELECT coalesce(max(step), 0) AS n FROM a3s_fleet_steps WHERE run_id = $1) last,
                      (VALUES (1, $4::text, $5::text, $6::jsonb), (2, $7::text, $8::text, $9::jsonb)) AS v(o, key, kind, value)
               RETURNING step
             )
             SELECT (SELECT count(*) FROM owner)::int AS owned,
                    CASE WHEN (SELECT count(*) FROM ev) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1) END AS notified`;
}

/** Pending events alone ($3), fenced like a step; $4 the base snapshot. */
function eventsSql(base: string | null): string {
  return `WITH owner AS (${ownerSql(base, '$4')}), ev AS (
           INSERT INTO a3s_fleet_events (run_id, seq, event, attempt)
           SELECT $1, e.seq, e.event, $2 FROM owner, jsonb_to_recordset($3::jsonb) AS e(seq integer, event jsonb)
           RETURNING seq
         )
         SELECT (SELECT count(*) FROM owner)::int AS owned, CASE WHEN (SELECT count(*) FROM ev) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1) END AS notified`;
}

/**
 * The run's end: the fenced update of the run row (the UPDATE's own lock and re-check stand in for
 * `FOR UPDATE`), the pending events ($8) and the readers' notification (sent with every end, events
 * or not: a reader waits for the run's status too), committed together.
 */
export const END_STATEMENT = prepared(`WITH owner AS (
           UPDATE a3s_fleet_runs SET status = $3, result = $4::jsonb, error = $5::jsonb, reconciliation = $6::jsonb, updated_at = now(),
                  finished_at = CASE WHEN $7::boolean THEN now() END, base_snapshot = coalesce($9::text, base_snapshot)
            WHERE run_id = $1 AND attempts = $2 AND status = 'running'
           RETURNING run_id
         ), ev AS (
           INSERT INTO a3s_fleet_events (run_id, seq, event, attempt)
           SELECT $1, e.seq, e.event, $2 FROM owner, jsonb_to_recordset($8::jsonb) AS e(seq integer, event jsonb)
           RETURNING seq
         )
         SELECT (SELECT count(*) FROM owner)::int AS owned, CASE WHEN (SELECT count(*) FROM owner) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1) END AS notified`);

const STEP = prepared(stepSql(null));
const STEP_WITH_BASE = prepared(stepSql('$7'));
const TWO_STEPS = prepared(twoStepsSql(null));
const TWO_STEPS_WITH_BASE = prepared(twoStepsSql('$10'));
const EVENTS = prepared(eventsSql(null));
const EVENTS_WITH_BASE = prepared(eventsSql('$4'));

/** The step statement: with the attempt's base snapshot riding along as $7 when `base` is not null. */
export function stepStatement(base: string | null): string {
  return base === null ? STEP : STEP_WITH_BASE;
}

/** The two-steps statement: with the attempt's base snapshot riding along as $10 when `base` is not null. */
export function twoStepsStatement(base: string | null): string {
  return base === null ? TWO_STEPS : TWO_STEPS_WITH_BASE;
}

/** The events statement: with the attempt's base snapshot as $4 when `base` is not null. */
export function eventsStatement(base: string | null): string {
  return base === null ? EVENTS : EVENTS_WITH_BASE;
}

/**
 * The run's end with its session's save, committed together: the lease check (the run row,
 * locked), the session row's conditional update ($10 id, $11 document, $12 generation, $13
 * labels, at revision $14), then the run's end: $3 / $4 / $5 when the session was saved, `failed`
 * with $15 when its row was at another revision (the save's conflict fails the run, as a save of
 * its own would); the pending events ($8) and the readers' notification; $9 the base snapshot.
 */
export const END_WITH_SAVE_STATEMENT = prepared(`WITH lease AS (
           SELECT run_id FROM a3s_fleet_runs WHERE run_id = $1 AND attempts = $2 AND status = 'running' FOR UPDATE
         ), saved AS (
           UPDATE a3s_sessions SET document = $11, generation = $12, labels = $13::jsonb, revision = revision + 1, updated_at = now()
            WHERE session_id = $10 AND revision = $14::bigint AND EXISTS (SELECT 1 FROM lease)
           RETURNING revision::text AS revision
         ), owner AS (
           UPDATE a3s_fleet_runs SET status = CASE WHEN EXISTS (SELECT 1 FROM saved) THEN $3 ELSE 'failed' END,
                  result = CASE WHEN EXISTS (SELECT 1 FROM saved) THEN $4::jsonb END,
                  error = CASE WHEN EXISTS (SELECT 1 FROM saved) THEN $5::jsonb ELSE $15::jsonb END,
                  reconciliation = $6::jsonb, updated_at = now(),
                  finished_at = CASE WHEN $7::boolean OR NOT EXISTS (SELECT 1 FROM saved) THEN now() END, base_snapshot = coalesce($9::text, base_snapshot)
            WHERE run_id IN (SELECT run_id FROM lease)
           RETURNING run_id
         ), ev AS (
           INSERT INTO a3s_fleet_events (run_id, seq, event, attempt)
           SELECT $1, e.seq, e.event, $2 FROM lease, jsonb_to_recordset($8::jsonb) AS e(seq integer, event jsonb)
           RETURNING seq
         )
         SELECT (SELECT count(*) FROM owner)::int AS owned, (SELECT revision FROM saved) AS revision,
                CASE WHEN (SELECT count(*) FROM owner) > 0 THEN pg_notify('${EVENTS_CHANNEL}', $1) END AS notified`);
