import type { Migration } from '../migration.js';

/**
 * The schedules' occurrence records (version 200 and up; applied by `serveFleetSchedules`): one row
 * per occurrence of a schedule, taken by the host whose delivery handles it, so that a job pg-boss
 * delivers again (its host died) submits nothing twice.
 */
export const SCHEDULE_MIGRATIONS: readonly Migration[] = [
  {
    version: 200,
    name: 'fleet schedule occurrences',
    up: `
CREATE TABLE a3s_fleet_schedule_occurrences (
  schedule_key text COLLATE "C" NOT NULL,
  due_at timestamptz NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('due', 'catch_up')),
  status text NOT NULL CHECK (status IN ('claimed', 'submitted', 'skipped', 'failed')),
  host text NOT NULL,
  run_id text,
  error jsonb,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz,
  PRIMARY KEY (schedule_key, due_at)
);
`,
  },
];
